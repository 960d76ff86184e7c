import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { fieldsOf, namesField, NIL, send, startWalkedApp, type Endpoint, type WalkedApp } from './endpoints-support';

/**
 * Every field of every endpoint, sent malformed one at a time into an otherwise valid request, never gets a 5xx, and
 * every 400 names that field. NUL characters and lone surrogates, which no PostgreSQL
 * text column holds, must be a 400 naming the field wherever they are sent (JSON, query, path or multipart form).
 *
 * The fields come from each endpoint's contract (src/contract), so a field added there is walked too; the routes come
 * from the running app, and a route missing from the table (endpoints-support.ts) fails the test.
 */

const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Text PostgreSQL refuses, wherever it is sent: a 400 naming the field, always. */
const NUL = 'bad\u0000text';
/** A lone surrogate: only JSON carries one (a URL or a form sends U+FFFD instead). */
const UNSTORABLE = [NUL, 'bad\ud800text'];

/** Dates and times that parse in JavaScript and are refused by PostgreSQL (or are no day at all). */
const BAD_TIMES = ['0000-01-01', '2026-02-30', '0000-01-01T00:00:00Z', '2026-02-30T10:00:00Z', '+275760-09-13T00:00:00Z', '2026', '1'];

/** Malformed values for a JSON field: wrong types, impossible dates, ids of nothing, too long, too big. */
const BODY_VALUES: unknown[] = [
  ...BAD_TIMES,
  {},
  [],
  [null],
  [{}],
  1.5,
  -1,
  1e300,
  true,
  null,
  'not-a-uuid',
  NIL,
  '9'.repeat(40),
  '1e400',
  'x'.repeat(25_000),
];

/** Malformed values for a query parameter: only text travels there. */
const QUERY_VALUES = [
  ...BAD_TIMES,
  '-1',
  '1.5',
  '9'.repeat(40),
  'not-a-uuid',
  NIL,
  'x'.repeat(3_000),
  '{"a":1}',
  '[]',
  // Page cursors as a client could forge them: of the notes list (time, id; or o<offset>) and of the trade log.
  ...['1', '2026', '2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '0000-01-01T00:00:00Z'].map((time) => forge([time, NIL])),
  'o99999999',
];

const PARAM_VALUES = ['not-a-uuid', NIL, '0000-01-01', '2026-02-30', '+275760-09-13', 'x'.repeat(300), '..'];

const FORM_VALUES = ['not-a-uuid', NIL, 'x'.repeat(1_000), ...BAD_TIMES];

describe.each(backends())('every field of every endpoint, malformed, on %s', (backend) => {
  let walked: WalkedApp;
  let app: TestApp;
  let trader: ApiClient;
  let auth: ApiClient;
  let authEmail: string;
  let endpoints: Record<string, Endpoint>;

  beforeAll(async () => {
    walked = await startWalkedApp(backend);
    ({ app, trader, auth, authEmail, endpoints } = walked);
  });
  afterAll(() => walked?.close());

  /** better-auth's JSON endpoints a browser posts to, with a valid body each (on a client of its own). */
  const AUTH_ENDPOINTS: Record<string, () => Record<string, unknown>> = {
    'POST /api/auth/sign-up/email': () => ({ email: uniqueEmail('walked'), password: 'correct-horse-9', name: 'Walked' }),
    'POST /api/auth/sign-in/email': () => ({ email: 'nobody@example.com', password: 'correct-horse-9' }),
    'POST /api/auth/update-user': () => ({ name: 'Walker' }),
    // A wrong current password, so that no walked value changes it: its refusal names currentPassword.
    'POST /api/auth/change-password': () => ({ currentPassword: 'wrong-horse-9', newPassword: 'correct-horse-10' }),
    'POST /api/auth/request-password-reset': () => ({ email: 'nobody@example.com', redirectTo: '/reset-password' }),
    'POST /api/auth/reset-password': () => ({ newPassword: 'correct-horse-10', token: 'no-such-token' }),
    'POST /api/auth/send-verification-email': () => ({ email: authEmail, callbackURL: '/' }),
  };

  it('has every route of the running app in its table', () => {
    const routed = new Set<string>();
    for (const route of app.server.app.routes) {
      if (!route.path.startsWith('/api/') || route.method === 'ALL' || route.path.includes('*')) continue;
      routed.add(`${route.method} ${route.path}`);
    }
    expect([...routed].filter((route) => !(route in endpoints))).toEqual([]);
  });

  /** Each field of the endpoint with the values to send it. */
  function walk(e: Endpoint): Array<{ where: string; field: string; values: unknown[] }> {
    const out: Array<{ where: string; field: string; values: unknown[] }> = [];
    const unique = (list: string[]) => [...new Set(list)];
    for (const field of Object.keys(e.params?.() ?? {})) out.push({ where: 'params', field, values: [NUL, ...PARAM_VALUES] });
    for (const field of unique([...Object.keys(e.query?.() ?? {}), ...fieldsOf(e.querySchema)])) {
      out.push({ where: 'query', field, values: [NUL, ...QUERY_VALUES] });
    }
    for (const field of unique([...Object.keys(e.body?.() ?? {}), ...fieldsOf(e.bodySchema)])) {
      out.push({ where: 'body', field, values: [...UNSTORABLE, ...BODY_VALUES] });
    }
    if (e.body) out.push({ where: 'whole', field: 'body', values: [[], 'text', 42, null] });
    for (const field of Object.keys(e.form?.() ?? {})) out.push({ where: 'form', field, values: [NUL, ...FORM_VALUES] });
    return out;
  }

  /**
   * Sends each walked value. `namesIt` says whether a 400 names the field: ours always must; better-auth's refusals
   * of a valid request (a wrong password, an unknown token) name their own field, which may be another one.
   */
  async function check(client: ApiClient, route: string, e: Endpoint, failures: string[], namesIt = namesField) {
    for (const { where, field, values } of walk(e)) {
      for (const value of values) {
        const sent = await send(client, route, e, { where, field, value });
        const shown = `${route} ${where} ${field}=${JSON.stringify(value)?.slice(0, 60)}`;
        const unstorable = typeof value === 'string' && UNSTORABLE.includes(value);
        if (sent.status >= 500) failures.push(`${shown} -> ${sent.status} ${sent.text.slice(0, 160)}`);
        else if (sent.status === 400 && !namesIt(sent.body, field)) failures.push(`${shown} -> 400 not naming ${field}: ${sent.text.slice(0, 160)}`);
        else if (unstorable && sent.status !== 400) failures.push(`${shown} -> ${sent.status}, not a 400: ${sent.text.slice(0, 160)}`);
      }
    }
  }

  /** better-auth: its validation (and our guard in front of it) names the field; its refusals name theirs in `fields`. */
  function authNamesField(body: any, field: string): boolean {
    if (body?.code === 'VALIDATION_ERROR' || body?.code === 'INVALID_INPUT') return namesField(body, field);
    return Array.isArray(body?.fields) && body.fields.length > 0;
  }

  it('answers every malformed field below 500, and each 400 names the field', async () => {
    const failures: string[] = [];
    for (const [route, e] of Object.entries(endpoints)) await check(trader, route, e, failures);
    expect(failures).toEqual([]);
  }, 900_000);

  it("does the same for better-auth's JSON endpoints", async () => {
    const failures: string[] = [];
    for (const [route, body] of Object.entries(AUTH_ENDPOINTS)) await check(auth, route, { body }, failures, authNamesField);
    expect(failures).toEqual([]);
  }, 300_000);

  it('logged no unhandled error while walking', () => {
    const errors = app.logs.filter((l) => (l.level as number) >= 50);
    expect(errors.map((e) => JSON.stringify(e).slice(0, 300))).toEqual([]);
  });
});
