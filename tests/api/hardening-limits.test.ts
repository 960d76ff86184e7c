import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { fieldsOf, namesField, send, startWalkedApp, type Endpoint, type WalkedApp } from './endpoints-support';
import { importFile, previewFile } from './imports-support';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * What the database itself refuses: numbers beyond a numeric column's range or that round to nothing at its scale,
 * text it cannot hold, days and times outside its calendar, zones it does not know. Each is checked before the
 * database sees it, so that the answer is a 400 naming the field, never a 500 from the database's refusal.
 *
 * The sweep sends every field of every endpoint (the walk of hardening-fields.test.ts, reaching into nested objects
 * and lists) each edge below, one at a time, into an otherwise valid request.
 */

/** Numbers at the edges of numeric(16,2) money, numeric(24,8) prices, int4, doubles and their subnormals. */
const NUMBER_EDGES: unknown[] = [
  1e15,
  -1e15,
  1e16,
  9_999_999_999_999_999,
  1e-320,
  5e-324,
  -1e-320,
  1e-9,
  1e308,
  -1e308,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  99_999_999_999.995,
];

/** The same as text, and the text no column holds or that a parser reads as no number at all. */
const TEXT_EDGES = [
  '1e15',
  '1e16',
  '-1e15',
  '1e400',
  '1e-320',
  '0.000000001',
  '0.000000005',
  '9999999999999999.99999999',
  '99999999999999.995',
  'NaN',
  'Infinity',
  '-Infinity',
  '',
  '   ',
  'a\udc00b',
  'a\u0000b',
  'x'.repeat(200_000),
];

/** Days and times outside what PostgreSQL's date and timestamptz hold, or just inside. */
const TIME_EDGES = [
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '10000-01-01',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '+010000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
];

/** Zones Node reads and PostgreSQL does not know, or knows under another spelling. */
const ZONE_EDGES = ['US/Pacific-New', 'Canada/East-Saskatchewan', 'america/new_york', 'Factory', 'localtime', 'posixrules'];

const STRING_EDGES = [...TEXT_EDGES, ...TIME_EDGES, ...ZONE_EDGES];
const BODY_EDGES = [...NUMBER_EDGES, ...STRING_EDGES];
/** A URL or a form cannot carry a lone surrogate (only JSON can), nor a path 200,000 characters long. */
const URL_EDGES = STRING_EDGES.filter((value) => !value.includes('\udc00') && value.length < 10_000);

type Def = { type: string; shape?: Record<string, unknown>; element?: unknown; in?: unknown; innerType?: unknown; options?: unknown[] };
const defOf = (schema: unknown): Def | null => (schema as { _zod?: { def: Def } } | undefined)?._zod?.def ?? null;

/** The dotted paths of every field a schema describes, into nested objects, lists (their first element) and unions. */
function schemaPaths(schema: unknown, prefix = '', depth = 0): string[] {
  const def = defOf(schema);
  if (!def || depth > 6) return [];
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, field]) => {
        const path = prefix ? `${prefix}.${key}` : key;
        return [path, ...schemaPaths(field, path, depth + 1)];
      });
    case 'array':
      return schemaPaths(def.element, `${prefix}.0`, depth + 1);
    case 'union':
      return (def.options ?? []).flatMap((option) => schemaPaths(option, prefix, depth + 1));
    case 'pipe':
      return schemaPaths(def.in, prefix, depth);
    default:
      return def.innerType ? schemaPaths(def.innerType, prefix, depth) : [];
  }
}

/** The dotted paths of every value in a valid body (the fields a request really carries). */
function samplePaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return prefix ? [prefix] : [];
  const entries = Array.isArray(value) ? value.slice(0, 2).map((item, i) => [String(i), item] as const) : Object.entries(value);
  return [...(prefix ? [prefix] : []), ...entries.flatMap(([key, item]) => samplePaths(item, prefix ? `${prefix}.${key}` : key))];
}

/** The other name of a field the API takes under two (a trade's `date` is its `trade_date`). */
const ALIASES: Record<string, string> = { date: 'trade_date' };

/**
 * A 400 names the field: its path, the key itself, or the field it belongs to (`fills` for `fills.0.price`), in its
 * message or, where the message is the spec's own words, in `fields` or `missing`.
 */
function namesPath(body: any, path: string): boolean {
  const parts = path.split('.');
  const names = [path, parts[0]!, parts.at(-1)!, ...parts.map((part) => ALIASES[part] ?? part)].filter((name) => !/^\d+$/.test(name));
  if (names.some((name) => namesField(body, name))) return true;
  const listed = [
    ...(Array.isArray(body?.fields) ? body.fields.map((f: { field: string }) => f.field) : []),
    ...(Array.isArray(body?.missing) ? body.missing : []),
  ];
  return listed.some((field: string) => names.some((name) => field === name || field.startsWith(`${name}.`) || name.startsWith(`${field}.`)));
}

describe.each(backends())('every field of every endpoint at the database’s edges, on %s', (backend) => {
  let walked: WalkedApp;
  let app: TestApp;

  beforeAll(async () => {
    walked = await startWalkedApp(backend);
    app = walked.app;
  });
  afterAll(() => walked?.close());

  function edgesOf(e: Endpoint): Array<{ where: string; field: string; values: unknown[] }> {
    const unique = (list: string[]) => [...new Set(list)];
    const out: Array<{ where: string; field: string; values: unknown[] }> = [];
    for (const field of Object.keys(e.params?.() ?? {})) out.push({ where: 'params', field, values: URL_EDGES });
    for (const field of unique([...Object.keys(e.query?.() ?? {}), ...fieldsOf(e.querySchema)]))
      out.push({ where: 'query', field, values: URL_EDGES });
    for (const field of unique([...samplePaths(e.body?.()), ...schemaPaths(e.bodySchema as z.ZodType | undefined)])) {
      out.push({ where: 'body', field, values: BODY_EDGES });
    }
    for (const field of Object.keys(e.form?.() ?? {})) out.push({ where: 'form', field, values: URL_EDGES });
    return out;
  }

  it('answers every edge below 500, and each 400 names the field', async () => {
    const failures: string[] = [];
    let sentCount = 0;
    for (const [route, e] of Object.entries(walked.endpoints)) {
      for (const { where, field, values } of edgesOf(e)) {
        for (const value of values) {
          const shown = `${route} ${where} ${field}=${JSON.stringify(value)?.slice(0, 40)}`;
          const sent = await send(walked.trader, route, e, { where, field, value }).catch((error: unknown) => {
            failures.push(`${shown} -> ${String(error)}`);
            return null;
          });
          sentCount++;
          if (!sent) continue;
          if (sent.status >= 500) failures.push(`${shown} -> ${sent.status} ${sent.text.slice(0, 160)}`);
          else if (sent.status === 400 && !namesPath(sent.body, field))
            failures.push(`${shown} -> 400 not naming ${field}: ${sent.text.slice(0, 160)}`);
        }
      }
    }
    // The walk reached into the nested fields (a fill's price, a rule's limit), not only the top-level ones.
    expect(sentCount).toBeGreaterThan(5_000);
    expect(failures).toEqual([]);
  }, 1_200_000);

  it('logged no unhandled error at the edges', () => {
    const errors = app.logs.filter((l) => (l.level as number) >= 50);
    expect(errors.map((e) => JSON.stringify(e).slice(0, 300))).toEqual([]);
  });
});

describe.each(backends())('requests that were a 500 at the database’s limits, on %s', (backend) => {
  let app: TestApp;
  let trader: ApiClient;
  let accountId: string;
  let tradeId: string;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    trader = await newTrader(app, 'limits');
    accountId = (await createAccount(trader, 'Limits')).id;
    tradeId = (await createTrade(trader, { account_id: accountId, symbol: 'NQ', pnl: 10 })).id;
  });
  afterAll(() => app?.close());

  const errorOf = (res: { body: any }) => String(res.body?.error ?? '');

  it('a bulk dollar risk left blank is a 400 naming it, and changes nothing', async () => {
    for (const amount of ['', '   ']) {
      const res = await trader.post('/api/trades/bulk-risk', { ids: [tradeId], risk: { kind: 'amount', amount } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(errorOf(res)).toMatch(/^risk\.amount: /);
    }
    expect((await trader.get(`/api/trades/${tradeId}`)).body.risk_amount).toBeNull();
  });

  it('fills whose P&L no money column holds are a 400 naming the fills; the trade keeps its figures', async () => {
    const fills = (price: unknown) => ({
      fills: [
        { time: '2025-03-03T14:35:00Z', side: 'Buy', quantity: '1', price },
        { time: '2025-03-03T14:40:00Z', side: 'Sell', quantity: '1', price: '20010' },
      ],
    });
    for (const price of [1e15, '1e15', '9999999999999999']) {
      const res = await trader.put(`/api/trades/${tradeId}/fills`, fills(price));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(errorOf(res)).toMatch(/^fills(\.\d+\.price)?: /);
    }
    const trade = (await trader.get(`/api/trades/${tradeId}`)).body;
    expect({ pnl: trade.pnl, gross_pnl: trade.gross_pnl }).toEqual({ pnl: '10.00', gross_pnl: null });
    // A real trade's fills still save.
    expect((await trader.put(`/api/trades/${tradeId}/fills`, fills('20000'))).status).toBe(200);
  });

  it('a default stop that rounds to 0 points at the stored scale is a 400 naming stop_points', async () => {
    for (const stop of ['0.000000001', 1e-320, '0.000000004']) {
      const res = await trader.put('/api/risk-defaults', { account_id: accountId, root: 'NQ', stop_points: stop });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(errorOf(res)).toMatch(/^stop_points: /);
    }
    // The smallest step it stores is taken.
    const smallest = await trader.put('/api/risk-defaults', { account_id: accountId, root: 'NQ', stop_points: '0.00000001' });
    expect(smallest.status, JSON.stringify(smallest.body)).toBe(200);
    expect(smallest.body.stop_points).toBe('0.00000001');
  });

  it('a JSON import whose text holds a lone surrogate says which row and field; nothing is stored', async () => {
    const account = await createAccount(trader, 'Surrogates');
    const file = '[{"id":"s1","date":"2025-03-03","instrument":"NQ","pnl":5,"notes":"a\\udc00b"}]';
    const preview = await previewFile(trader, { account_id: account.id }, file, 'application/json');
    expect(preview.status).toBe(200);
    expect(preview.body.issues.map((i: { row: number; message: string }) => [i.row, i.message])).toEqual([
      [1, expect.stringMatching(/^Unreadable notes: /)],
    ]);
    const res = await importFile(trader, { account_id: account.id }, file, 'application/json');
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect((await trader.get(`/api/trades?account=${account.id}`)).body.total).toBe(0);
  });

  it('a zone PostgreSQL does not know is refused by name; one it knows is stored as it spells it', async () => {
    const before = (await trader.get('/api/preferences')).body.time_zone;
    for (const zone of ['US/Pacific-New', 'Canada/East-Saskatchewan', 'Factory']) {
      const res = await trader.patch('/api/preferences', { time_zone: zone });
      expect(res.status, `${zone} ${JSON.stringify(res.body)}`).toBe(400);
      expect(errorOf(res)).toMatch(/^time_zone: /);
    }
    expect((await trader.get('/api/preferences')).body.time_zone).toBe(before);
    expect((await trader.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-03')).status).toBe(200);
    expect((await trader.get('/api/market/bars/coverage?contract=MNQH5')).status).toBe(200);

    const typed = await trader.patch('/api/preferences', { time_zone: 'america/new_york' });
    expect(typed.status).toBe(200);
    expect(typed.body.time_zone).toBe('America/New_York');
    expect((await trader.patch('/api/preferences', { time_zone: 'asia/kolkata' })).body.time_zone).toBe('Asia/Kolkata');
    // The other places a zone is given: an import's and a bar file's.
    for (const path of ['/api/imports/preview?time_zone=US%2FPacific-New', '/api/market/bars/preview?contract=MNQH5&time_zone=US%2FPacific-New']) {
      const res = await trader.send('POST', path, 'time,open,high,low,close\n', { 'content-type': 'text/csv' });
      expect(res.status, path).toBe(400);
      expect(errorOf({ body: await res.json() })).toMatch(/^time_zone: /);
    }
  });

  it('logged no unhandled error', () => {
    const errors = app.logs.filter((l) => (l.level as number) >= 50);
    expect(errors.map((e) => JSON.stringify(e).slice(0, 300))).toEqual([]);
  });
});
