import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_MESSAGES } from '../../src/server/ai/errors';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Whatever a client sends to any JSON route or in any query string, the server answers below 500, and a
 * 400 says which field is wrong. The routes are read from the running app, so routes added later are fuzzed too.
 *
 * FUZZ_RUNS (requests per route, default 25) and FUZZ_SEED (default fixed, so CI is repeatable) widen a local hunt:
 *   FUZZ_RUNS=500 FUZZ_SEED=$RANDOM npx vitest run --project api tests/api/fuzz.test.ts
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 1313);

/** better-auth's JSON endpoints a browser posts to (its own router is not in Hono's route list). */
const AUTH_ROUTES = [
  'POST /api/auth/sign-up/email',
  'POST /api/auth/sign-in/email',
  'POST /api/auth/update-user',
  'POST /api/auth/change-password',
  'POST /api/auth/request-password-reset',
  'POST /api/auth/reset-password',
  'POST /api/auth/send-verification-email',
];

/** Routes that end the session under test: fuzzed all the same, but by a throwaway trader. */
const ENDS_SESSION = /^POST \/api\/auth\/(sign-out|delete-user|revoke)/;

/** Messages the spec words for the trader, shown as they are: each names its field by what it asks for. */
const SPEC_MESSAGES = [
  'Please fill in all required fields.',
  'Please select a trading account',
  'Please select trades',
  'Please select trades to assign',
  'Please select an account',
  'Please enter a tag name',
  'Account name is required',
  'Task title is required',
  'Request body must be JSON',
  // The body of an import is the trader's file: the importers' messages name what is wrong with it.
  'Invalid file format',
  // better-auth's update-user with no known field.
  'No fields to update',
  // Reflections asked of a trader with no trades: nothing in the request is wrong, the journal is empty.
  'No trades to analyze',
];

/** A 400 names the field: `field: ...`, `Row N: field: ...`, a spec message, or better-auth's own validation. */
function namesField(body: Record<string, unknown> | null): boolean {
  const message = String(body?.error ?? body?.message ?? '');
  if (/^(Row \d+: )?[A-Za-z_][\w.]*( \w+)?: /.test(message)) return true;
  if (SPEC_MESSAGES.some((m) => message.startsWith(m))) return true;
  if (Array.isArray(body?.missing) || Array.isArray(body?.fields)) return true;
  // Our own machine-readable reasons (invalid-time-zone, not-an-array, account-required ...).
  if (typeof body?.code === 'string' && /^[a-z]+(-[a-z]+)+$/.test(body.code)) return true;
  // better-auth: { code, message } with a code that names the rule (INVALID_EMAIL, PASSWORD_TOO_SHORT, ...).
  return typeof body?.code === 'string' && /^[A-Z_]+$/.test(body.code) && message.length > 0;
}

const FIELD_NAMES = [
  'id',
  'ids',
  'name',
  'description',
  'is_default',
  'account_id',
  'account',
  'trade_date',
  'date',
  'symbol',
  'period',
  'trade_type',
  'status',
  'pnl',
  'commission',
  'link',
  'notes',
  'tags',
  'trades',
  'title',
  'category',
  'recurring',
  'completed',
  'task_date',
  'theme',
  'time_zone',
  'widgets',
  'layout',
  'stats_widgets_order',
  'quick_note',
  'starting_balance',
  'display_name',
  'first_name',
  'last_name',
  'type',
  'value',
  'email',
  'password',
  'image',
  'newPassword',
  'currentPassword',
  'token',
  'redirectTo',
  'callbackURL',
  'side',
  'contract',
  'entry_time',
  'exit_time',
  'entry_price',
  'exit_price',
  'quantity',
  'gross_pnl',
  'import_source',
  'created_at',
  'content',
  'message',
  'messages',
  'session_id',
  'folder_id',
  'note_id',
  'tag',
  'text',
  'q',
  'limit',
  'cursor',
  'from',
  'to',
];
const QUERY_NAMES = [
  'date',
  'from',
  'to',
  'q',
  'cursor',
  'limit',
  'account',
  'account_id',
  'format',
  'time_zone',
  'skip_unreadable',
  'id',
  'type',
  'month',
];

const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/**
 * Times Date.parse takes and PostgreSQL refuses: as they are, and inside forged page cursors of the notes
 * list and the trade log, which hand their time to the database.
 */
const FORGED_TIMES = ['1', '2026', '2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '0000-01-01T00:00:00Z'];
const FORGED_CURSORS = FORGED_TIMES.flatMap((time) => [
  forge([time, '00000000-0000-0000-0000-000000000000']),
  forge([time, time, '00000000-0000-0000-0000-000000000000', 1]),
]);

/** Strings that broke something once, or plausibly could. */
const nastyString = fc.oneof(
  fc.constantFrom(...FORGED_TIMES, ...FORGED_CURSORS, 'o999999'),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '🙂',
    '2026-02-30',
    '2026-13-45',
    '0000-01-01',
    '9999-12-31',
    '2025-03-03',
    '2025-03-03T12:00:00Z',
    '1e20',
    '-1e400',
    'NaN',
    'Infinity',
    '-0',
    '0x10',
    '1,250.50',
    '(95.00)',
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    "'; drop table trades; --",
    '%',
    '_',
    '\\',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    'true',
    'false',
    'null',
    'all',
    'unassigned',
    'America/New_York',
    'Mars/Olympus',
    'dark',
    'tag',
    'session',
    'trade_type',
    'Daily',
    'AM',
    'W'.repeat(300),
    'é'.repeat(5000),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const nastyNumber = fc.oneof(
  fc.constantFrom(0, -1, 1, 1e20, -1e308, 2 ** 53, 0.1, 1e-10, 123456789012.34),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

function nastyValue(ids: () => string[]): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null), fc.constantFrom(...ids()));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), nastyString), tie('value'), { maxKeys: 4 }),
    ),
  })).value;
}

function jsonBody(ids: () => string[]) {
  return fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 10 })), nastyValue(ids), { maxKeys: 8 });
}

function queryString() {
  return fc
    .dictionary(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 8 })), nastyString, { maxKeys: 4 })
    .map((q) => new URLSearchParams(q).toString());
}

interface Route {
  method: string;
  path: string;
}

/** Every endpoint under /api that the Hono app routes, plus better-auth's JSON endpoints. */
function discoverRoutes(app: TestApp): Route[] {
  const seen = new Map<string, Route>();
  for (const route of app.server.app.routes) {
    if (!route.path.startsWith('/api/') || route.method === 'ALL' || route.path.includes('*')) continue;
    seen.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
  }
  for (const entry of AUTH_ROUTES) {
    const [method, path] = entry.split(' ') as [string, string];
    seen.set(entry, { method, path });
  }
  return [...seen.values()].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

describe.each(backends())('fuzzing every JSON route and query string on %s', (backend) => {
  let app: TestApp;
  let trader: ApiClient;
  const ids: string[] = [];
  const routes: Route[] = [];

  beforeAll(async () => {
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: '100000' } });
    trader = await newTrader(app, 'fuzz');
    const account = await createAccount(trader, 'Fuzz');
    const trade = await createTrade(trader, { account_id: account.id, symbol: 'NQ', pnl: 10 });
    const task = await trader.post('/api/tasks', { title: 'Fuzz task', task_date: '2025-03-03' });
    ids.push(account.id, trade.id, task.body.id);
    routes.push(...discoverRoutes(app));
  });
  afterAll(() => app?.close());

  it('finds the routes it fuzzes in the running app', () => {
    // A floor, not a list: the known features are there, and whatever was added since is fuzzed as well.
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    for (const known of [
      'GET /api/trades',
      'POST /api/trades',
      'PATCH /api/trades/:id',
      'GET /api/tasks',
      'PATCH /api/preferences',
      'POST /api/imports/preview',
    ]) {
      expect(listed).toContain(known);
    }
  });

  it('never answers 5xx, and every 400 names the field', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const client = ENDS_SESSION.test(`${route.method} ${route.path}`) ? await newTrader(app, 'fuzz-throwaway') : trader;
      const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
      const params = route.path.match(/:\w+/g) ?? [];
      const request = fc.record({
        params: fc.array(fc.oneof(fc.constantFrom(...ids), nastyString), { minLength: params.length, maxLength: params.length }),
        query: queryString(),
        body: hasBody ? jsonBody(() => ids) : fc.constant(undefined),
      });
      await fc
        .assert(
          fc.asyncProperty(request, async ({ params: values, query, body }) => {
            let path = route.path;
            params.forEach((param, i) => (path = path.replace(param, encodeURIComponent(values[i]!) || 'x')));
            const url = query ? `${path}?${query}` : path;
            const res = await client.request(route.method, url, body);
            const text = await res.text();
            let parsed: Record<string, unknown> | null = null;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              parsed = null;
            }
            // A server without an AI provider says so (503) on a valid request to an AI route: its setup, not a fault.
            const aiNotConfigured = res.status === 503 && parsed?.error === AI_MESSAGES.notConfigured;
            const problem =
              res.status >= 500 && !aiNotConfigured
                ? `answered ${res.status}`
                : res.status === 400 && !namesField(parsed)
                  ? 'a 400 that names no field'
                  : null;
            if (problem) {
              failures.push(`${route.method} ${url} ${JSON.stringify(body)?.slice(0, 300)} -> ${problem}: ${text.slice(0, 200)}`);
              return false;
            }
            return true;
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        )
        .catch(() => undefined);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('logged no unhandled error while being fuzzed', () => {
    const errors = app.logs.filter((l) => (l.level as number) >= 50);
    expect(errors.map((e) => JSON.stringify(e).slice(0, 300))).toEqual([]);
  });
});
