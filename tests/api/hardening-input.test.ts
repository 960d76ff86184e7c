import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { PNG_BYTES } from './notes-support';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Every bad input answers 400 naming the field, on both databases; a 500 is a
 * bug. Each case here answered 500 before (and logged the trader's data with the SQL parameters).
 * tests/api/hardening-fields.test.ts walks the same classes through every field of every endpoint.
 */
describe.each(backends())('bad input gets a 400 naming the field on %s', (backend) => {
  let app: TestApp;
  let trader: ApiClient;
  let accountId: string;
  let tradeId: string;

  beforeAll(async () => {
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: '1000' } });
    trader = await newTrader(app);
    accountId = (await createAccount(trader, 'Main')).id;
    tradeId = (await createTrade(trader, { symbol: 'NQ', pnl: 10 })).id;
  });
  afterAll(() => app?.close());

  /** Asserts a 400 whose error names `field`, and that nothing the server logged at error level carries `secret`. */
  async function expect400(res: Promise<{ status: number; body: any }>, field: string | RegExp) {
    const { status, body } = await res;
    expect(status, JSON.stringify(body)?.slice(0, 300)).toBe(400);
    expect(body.error ?? body.message).toMatch(typeof field === 'string' ? new RegExp(`(^|\\W)${field.replace(/[.[\]]/g, '\\$&')}\\b`) : field);
  }

  const NUL = 'bad\u0000text';
  const LONE_SURROGATE = 'bad\ud800text';

  it('refuses a NUL character in any text field and in the search query', async () => {
    await expect400(trader.post('/api/accounts', { name: NUL }), 'name');
    await expect400(trader.post('/api/accounts', { name: 'ok', description: NUL }), 'description');
    await expect400(trader.post('/api/trades', { date: '2025-03-03', period: 'AM', notes: NUL }), 'notes');
    await expect400(trader.post('/api/trades', { date: '2025-03-03', period: 'AM', symbol: NUL }), 'symbol');
    await expect400(trader.post('/api/trades', { date: '2025-03-03', period: 'AM', tags: ['x', NUL] }), 'tags.1');
    await expect400(trader.patch(`/api/trades/${tradeId}`, { link: NUL }), 'link');
    await expect400(trader.post('/api/tasks', { title: NUL, task_date: '2025-03-03' }), 'title');
    await expect400(trader.patch('/api/preferences', { quick_note: NUL }), 'quick_note');
    await expect400(trader.patch('/api/preferences', { widgets: { a: [NUL] } }), 'widgets.a.0');
    await expect400(trader.patch('/api/profile', { display_name: NUL }), 'display_name');
    await expect400(trader.post('/api/trade-preferences', { type: 'tag', value: NUL }), 'value');
    await expect400(trader.get(`/api/trades?q=${encodeURIComponent(NUL)}`), 'q');
    await expect400(trader.get(`/api/trades/stats?q=${encodeURIComponent(NUL)}`), 'q');
    await expect400(
      trader.post('/api/trades/import', { account_id: accountId, trades: [{ date: '2025-03-03', period: 'AM', notes: NUL }] }),
      'trades.0.notes',
    );
  });

  it('refuses a NUL character in the text fields of a multipart upload (a 500)', async () => {
    const note = (await trader.post('/api/notes', { title: 'Chart' })).body;
    const upload = async (fields: Record<string, string>) => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(PNG_BYTES)], { type: 'image/png' }), 'chart.png');
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      const res = await fetch(`${trader.baseUrl}/api/attachments/upload`, {
        method: 'POST',
        headers: { cookie: trader.cookieHeader, origin: trader.baseUrl },
        body: form,
      });
      return { status: res.status, body: await res.json() };
    };
    await expect400(upload({ note_id: note.id, caption: NUL }), 'caption');
    await expect400(upload({ note_id: `${note.id}\u0000` }), 'note_id');
    expect((await trader.get(`/api/notes/${note.id}`)).body.attachments).toEqual([]);
    expect((await upload({ note_id: note.id, caption: 'Entry' })).status).toBe(201);
  });

  it('refuses year 0 in the daily journal (GET days, GET and PUT a day were 500s)', async () => {
    await expect400(trader.get('/api/journal/days?date=0000-01-01'), 'date');
    await expect400(trader.get('/api/journal/0000-01-01'), 'date');
    await expect400(trader.put('/api/journal/0000-01-01', { content: 'Plan' }), 'date');
    // The first and last days PostgreSQL and the journal both know still work.
    expect((await trader.get('/api/journal/0001-01-01')).status).toBe(200);
    expect((await trader.put('/api/journal/9999-12-31', { content: 'Far' })).status).toBe(200);
  });

  it('refuses forged notes cursors whose time PostgreSQL refuses (500s)', async () => {
    const note = (await trader.post('/api/notes', { title: 'Cursor' })).body;
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const time of ['1', '2026', '2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '0000-01-01T00:00:00Z', '2026-01-01T24:00:00Z']) {
      await expect400(trader.get(`/api/notes?cursor=${forge([time, note.id])}`), 'cursor');
    }
    // A cursor the server wrote still pages.
    await trader.post('/api/notes', { title: 'Cursor 2' });
    const first = await trader.get('/api/notes?limit=1');
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect((await trader.get(`/api/notes?limit=1&cursor=${first.body.next_cursor}`)).status).toBe(200);
  });

  it('refuses backup times that Date.parse takes and PostgreSQL refuses, naming the row and field', async () => {
    const row = { date: '2025-03-03', period: 'AM' };
    const importing = (trade: Record<string, unknown>) =>
      trader.post('/api/trades/import', { account_id: accountId, trades: [{ ...row, ...trade }] });
    await expect400(importing({ entry_time: '0000-01-01T00:00:00Z' }), /Row 1: entry_time/);
    await expect400(importing({ exit_time: '2026-02-30T10:00:00Z' }), /Row 1: exit_time/);
    await expect400(importing({ trade_date: '0000-01-01T00:00:00Z' }), /Row 1: trade_date/);
    await expect400(trader.post('/api/trades', { date: '0000-01-01T00:00:00Z', period: 'AM' }), 'date');
    await expect400(trader.patch(`/api/trades/${tradeId}`, { trade_date: '2026-02-30T10:00:00Z' }), 'trade_date');
  });

  it('reads a JSON backup sent as a file without a 500: a NUL makes its row unreadable, year 0 times are left out', async () => {
    // A trader of its own: the tests below count this one's trades.
    const owner = await newTrader(app);
    const account = (await createAccount(owner, 'Backup')).id;
    const row = { trade_date: '2025-01-06T12:00:00.000Z', instrument: 'NQ', session: 'AM', pnl: 1 };
    const send = (path: string, trades: unknown[]) =>
      owner
        .send('POST', `${path}?account_id=${account}`, JSON.stringify(trades), { 'content-type': 'application/json' })
        .then(async (res) => ({ status: res.status, body: await res.json() }));
    for (const path of ['/api/imports/preview', '/api/imports']) {
      const nul = await send(path, [{ ...row, notes: 'bad\u0000text' }]);
      expect(nul.status, JSON.stringify(nul.body)).toBeLessThan(500);
      const times = await send(path, [{ ...row, entry_time: '0000-01-01T00:00:00Z', exit_time: '2026-02-30T10:00:00Z' }]);
      expect(times.status, JSON.stringify(times.body)).toBe(200);
    }
    const refused = await send('/api/imports', [{ ...row, notes: 'bad\u0000text' }]);
    expect(refused.body.issues).toEqual([{ row: 1, severity: 'error', message: 'Unreadable notes: it contains a NUL character' }]);
    const restored = (await owner.get('/api/trades?limit=500')).body.trades.find((t: { date: string }) => t.date === '2025-01-06');
    expect(restored).toMatchObject({ entry_time: null, exit_time: null });
  });

  it('refuses a lone surrogate (not Unicode text) in text and in JSON settings', async () => {
    await expect400(trader.patch('/api/preferences', { widgets: [LONE_SURROGATE] }), 'widgets.0');
    await expect400(trader.patch('/api/preferences', { layout: { [LONE_SURROGATE]: 1 } }), 'layout');
    await expect400(trader.post('/api/trades', { date: '2025-03-03', period: 'AM', notes: LONE_SURROGATE }), 'notes');
  });

  it('refuses JSON nested deeper than any setting needs', async () => {
    // Written out by hand: JSON.stringify itself overflows its stack on 5,000 levels (and so did the server's).
    const nested = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    const res = await trader.send('PATCH', '/api/preferences', `{"widgets":${nested}}`, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^widgets(\.0)+: must not be nested more than 32 levels deep$/);
    // What a real layout nests is accepted.
    expect((await trader.patch('/api/preferences', { layout: { a: { b: { c: [[[[1]]]] } } } })).status).toBe(200);
  });

  it('refuses dates that look like yyyy-MM-dd but do not exist', async () => {
    await expect400(trader.get('/api/tasks?date=2026-02-30'), 'date');
    await expect400(trader.get('/api/tasks?date=0000-01-01'), 'date');
    await expect400(trader.get('/api/tasks/status?from=2026-01-01&to=2026-13-45'), 'to');
    await expect400(trader.get('/api/trades/stats?to=2026-13-45'), 'to');
    await expect400(trader.get('/api/trades?from=2026-02-31'), 'from');
    await expect400(trader.post('/api/tasks', { title: 'Plan', task_date: '2026-02-30' }), 'task_date');
    await expect400(trader.post('/api/trades', { trade_date: '0000-01-01', period: 'AM' }), 'trade_date');
    await expect400(trader.post('/api/trades', { date: '0000-01-01T12:00:00Z', period: 'AM' }), 'date');
    await expect400(trader.patch(`/api/trades/${tradeId}`, { trade_date: '0000-06-15' }), 'trade_date');
    await expect400(
      trader.post('/api/trades/import', { account_id: accountId, trades: [{ trade_date: '0000-01-01', period: 'AM' }] }),
      /Row 1: trade_date/,
    );
  });

  it('refuses a forged page cursor', async () => {
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of [
      forge(['not a date', '2025-01-01T00:00:00Z', '00000000-0000-0000-0000-000000000000', 1]),
      forge(['2025-01-01T12:00:00Z', '2025-13-01', '00000000-0000-0000-0000-000000000000', 1]),
      forge(['2025-01-01T12:00:00Z', '2025-01-01T12:00:00Z', 'not-a-uuid', 1]),
      forge(['2025-01-01T12:00:00Z', '2025-01-01T12:00:00Z', '00000000-0000-0000-0000-000000000000', -5]),
      forge({ a: 1 }),
      '!!!',
    ]) {
      await expect400(trader.get(`/api/trades?cursor=${encodeURIComponent(cursor)}`), 'cursor');
    }
  });

  it('refuses money amounts no database column can hold', async () => {
    const account = (await trader.post('/api/accounts', { name: 'Huge balances' })).body;
    await expect400(trader.patch(`/api/accounts/${account.id}`, { starting_balance: '1e20' }), 'starting_balance');
    await expect400(trader.patch(`/api/accounts/${account.id}`, { starting_balance: 1e300 }), 'starting_balance');
    await expect400(trader.post('/api/trades', { date: '2025-03-03', period: 'AM', pnl: '1e20' }), 'pnl');
    expect((await trader.patch(`/api/accounts/${account.id}`, { starting_balance: '25000.50' })).body.starting_balance).toBe('25000.50');
  });

  it('applies the trade field limits to the backup import too, and bounds its ids', async () => {
    const big = 'x'.repeat(1_000_000);
    const row = { date: '2025-03-03', period: 'AM' };
    const importing = (trade: Record<string, unknown>) =>
      trader.post('/api/trades/import', { account_id: accountId, trades: [row, { ...row, ...trade }] });
    await expect400(importing({ id: big }), /Row 2: id/);
    await expect400(importing({ symbol: big }), /Row 2: symbol/);
    await expect400(importing({ notes: big }), /Row 2: notes/);
    await expect400(importing({ link: big }), /Row 2: link/);
    await expect400(importing({ period: big }), /Row 2: period/);
    await expect400(importing({ trade_type: big }), /Row 2: trade_type/);
    await expect400(importing({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), /Row 2: tags/);
    await expect400(importing({ side: big }), /Row 2: side/);
    await expect400(importing({ contract: big }), /Row 2: contract/);
    await expect400(importing({ import_source: big }), /Row 2: import_source/);
    // Nothing was written by any of them: each import is all or nothing.
    expect((await trader.get('/api/trades')).body.total).toBe(1);
  });

  it("refuses better-auth's update-user with a null or oversized name", async () => {
    await expect400(trader.post('/api/auth/update-user', { name: null }), 'name');
    await expect400(trader.post('/api/auth/update-user', { name: 'x'.repeat(10_000) }), 'name');
    await expect400(trader.post('/api/auth/update-user', { name: NUL }), 'name');
    expect((await trader.post('/api/auth/update-user', { name: 'Still Me' })).status).toBe(200);
  });

  it('never writes request data into the error log', async () => {
    // Whatever went wrong above, an error-level line must not carry what the trader sent.
    const errors = app.logs.filter((l) => (l.level as number) >= 50);
    const text = JSON.stringify(errors);
    for (const secret of ['bad', 'xxxxxxxxxx', 'Still Me']) expect(text).not.toContain(secret);
  });
});
