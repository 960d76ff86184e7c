import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, importTrades, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * JSON export and import (`trades-backup-{date}.json`, every field; must be an array; all-or-nothing;
 * "Export then import into a new account gives back identical trades").
 */
const FIELDS = [
  'date',
  'trade_date',
  'day_of_week',
  'symbol',
  'period',
  'trade_type',
  'status',
  'pnl',
  'commission',
  'link',
  'notes',
  'tags',
] as const;
const fields = (t: TradeDto) => Object.fromEntries(FIELDS.map((f) => [f, t[f]]));

describe.each(backends())('trades export and import on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let aliceTrades: TradeDto[];

  beforeAll(async () => {
    app = await startTestApp({ backend });
    alice = await newTrader(app, 'alice');
    const eval1 = await createAccount(alice, 'Eval');
    const live = await createAccount(alice, 'Live');
    // Several trades on one day with mixed results: their order (and so the streaks) must survive the round trip.
    const inputs: Array<Record<string, unknown>> = [
      { date: '2025-03-03', symbol: 'NQ', pnl: -120.5, commission: 4.2, account_id: eval1.id, trade_type: 'A/A+', tags: ['Scalp', 'NQ'] },
      { date: '2025-03-03', symbol: 'NQ', pnl: 80, commission: 4.2, account_id: eval1.id, notes: 'second entry' },
      { date: '2025-03-03', symbol: 'ES', pnl: 45.25, commission: 2.1, period: 'PM', link: 'https://tv.example/x?a=1&b=2' },
      { date: '2025-03-03', symbol: 'ES', pnl: 10, commission: 2.1, account_id: live.id },
      { date: '2025-03-03', symbol: 'ES', pnl: 0, commission: 2.1, notes: 'scratch' },
      { date: '2025-03-03', symbol: 'NQ', pnl: 15, account_id: live.id },
      { date: '2025-03-03', symbol: 'NQ', pnl: 15.01, account_id: live.id },
      { date: '2025-03-03', symbol: 'NQ', pnl: -300, account_id: live.id },
      { date: '2025-03-08', symbol: 'BTC', pnl: '1234567.89', commission: '12.34', period: 'After Hours', notes: 'weekend — “quotes” ✓\nline 2' },
      { date: '2024-12-31', symbol: 'CL', pnl: -0.01, trade_type: 'Reversal', tags: 'Day Trade, Loser' },
      { date: '2025-01-02', symbol: 'GC', pnl: 99.99, commission: 0.01 },
      // Planned risk: a stop and a target, and a dollar risk; a restore must keep both.
      { date: '2025-03-05', symbol: 'NQ', pnl: 200, side: 'Long', entry_price: '18000', stop_price: '17990', target_price: '18040', quantity: '1' },
      { date: '2025-03-05', symbol: 'ES', pnl: -75, risk_amount: '150' },
    ];
    for (const input of inputs) await createTrade(alice, input);
    // Trades from an earlier import share one created_at: only the id orders them within their day.
    await importTrades(
      alice,
      live.id,
      [25, 30, -40, 12, 0, 18, 22, -5, 7, 9].map((pnl, i) => ({
        id: `csv-${i}`,
        date: '2025-03-04',
        period: 'AM',
        symbol: 'MES',
        pnl,
        side: i % 2 ? 'Long' : 'Short',
        entry_time: `2025-03-04T14:3${i}:00Z`,
        entry_price: '5800.25',
        quantity: '2',
      })),
    );
    aliceTrades = await listAll(alice);
  });
  afterAll(() => app?.close());

  async function exportOf(client: ApiClient) {
    const res = await client.request('GET', '/api/trades/export');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="trades-backup-${today}.json"`);
    return (await res.json()) as TradeDto[];
  }

  it('exports every trade with every field, in list order, and its fills (none for these trades)', async () => {
    const exported = await exportOf(alice);
    expect(exported).toHaveLength(aliceTrades.length);
    expect(exported).toEqual(aliceTrades.map((trade) => ({ ...trade, fills: [] })));
  });

  it('import into a new account of a new trader gives back the same trades, in the same order, with the same statistics', async () => {
    const exported = await exportOf(alice);
    const bob = await newTrader(app, 'bob');
    const restored = await createAccount(bob, 'Restored');
    expect(await importTrades(bob, restored.id, exported)).toEqual({ imported: exported.length, skipped: 0 });

    const bobTrades = await listAll(bob);
    expect(bobTrades.map(fields)).toEqual(aliceTrades.map(fields));
    expect(bobTrades.every((t) => t.account_id === restored.id && t.account_name === 'Restored')).toBe(true);
    const executions = (t: TradeDto) => [t.side, t.entry_time, t.entry_price, t.quantity];
    expect(bobTrades.map(executions)).toEqual(aliceTrades.map(executions));
    const plans = (t: TradeDto) => [t.stop_price, t.risk_amount, t.target_price, t.planned_risk, t.r_multiple];
    expect(aliceTrades.filter((t) => t.planned_risk !== null).map(plans)).toEqual([
      [null, '150.00', null, { amount: '150.00', source: 'amount' }, -0.5],
      ['17990.00000000', null, '18040.00000000', { amount: '200.00', source: 'stop' }, 1],
    ]);
    expect(bobTrades.map(plans), 'the restored trades lost their plans').toEqual(aliceTrades.map(plans));
    // New rows, not Alice's.
    expect(bobTrades.some((t) => aliceTrades.some((a) => a.id === t.id))).toBe(false);

    const [aliceStats, bobStats] = [(await alice.get('/api/trades/stats')).body, (await bob.get('/api/trades/stats')).body];
    expect(bobStats).toEqual(aliceStats);
    // Alice is untouched.
    expect(await listAll(alice)).toEqual(aliceTrades);
  });

  it('importing the same file twice into the same account imports nothing the second time', async () => {
    const exported = await exportOf(alice);
    const carol = await newTrader(app, 'carol');
    const acct = await createAccount(carol, 'Twice');
    expect(await importTrades(carol, acct.id, exported)).toEqual({ imported: exported.length, skipped: 0 });
    expect(await importTrades(carol, acct.id, exported)).toEqual({ imported: 0, skipped: exported.length });
    expect((await carol.get('/api/trades?limit=1')).body.total).toBe(exported.length);
  });

  it('refuses a body that is not an array of trades with the spec message, and imports nothing', async () => {
    const dave = await newTrader(app, 'dave');
    const acct = await createAccount(dave, 'D');
    for (const trades of [{ date: '2025-03-03', period: 'AM' }, 'trades', null, 42]) {
      const res = await dave.post('/api/trades/import', { account_id: acct.id, trades });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/Invalid file format: The file does not contain an array of trade data$/);
    }
    const notRows = await dave.post('/api/trades/import', { account_id: acct.id, trades: [{ date: '2025-03-03', period: 'AM' }, 7] });
    expect(notRows.status).toBe(400);
    expect((await dave.get('/api/trades?limit=1')).body.total).toBe(0);
  });

  it('a bad row refuses the whole file naming the row (Row 3), and nothing is imported', async () => {
    const erin = await newTrader(app, 'erin');
    const acct = await createAccount(erin, 'E');
    const rows = [
      { id: 'r1', date: '2025-03-03', period: 'AM', pnl: 10 },
      { id: 'r2', date: '2025-03-04', period: 'AM', pnl: -10 },
      { id: 'r3', period: 'AM', pnl: 5 },
      { id: 'r4', date: '2025-03-05', period: 'AM', pnl: 1 },
    ];
    const res = await erin.post('/api/trades/import', { account_id: acct.id, trades: rows });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Row 3: Please fill in all required fields.');
    expect(res.body.fields).toEqual([{ field: 'trades.2.trade_date', message: 'Please fill in all required fields.' }]);
    expect((await erin.get('/api/trades?limit=1')).body.total).toBe(0);
  });

  it('a row the database would refuse (unreadable entry_time, pnl beyond the column) is a 400 naming the row, and nothing is imported', async () => {
    const fay = await newTrader(app, 'fay');
    const acct = await createAccount(fay, 'F');
    const good = { date: '2025-03-03', period: 'AM', pnl: 10 };
    const badTime = await fay.post('/api/trades/import', { account_id: acct.id, trades: [good, { ...good, entry_time: 'yesterday-ish' }] });
    expect(badTime.status).toBe(400);
    expect(badTime.body.error).toMatch(/^Row 2: .*entry_time/);
    const huge = await fay.post('/api/trades/import', { account_id: acct.id, trades: [good, good, { ...good, pnl: '1e20' }] });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatch(/^Row 3: .*pnl/);
    expect((await fay.get('/api/trades?limit=1')).body.total).toBe(0);
  });

  it("refuses to import into another trader's account or a malformed one, and imports nothing anywhere", async () => {
    const gus = await newTrader(app, 'gus');
    const aliceAccount = (await alice.get('/api/accounts')).body[0].id;
    const before = await listAll(alice);
    const res = await gus.post('/api/trades/import', { account_id: aliceAccount, trades: [{ date: '2025-03-03', period: 'AM', pnl: 1 }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^account_id: /);
    const malformed = await gus.post('/api/trades/import', { account_id: 'x', trades: [] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^account_id: /);
    expect((await gus.get('/api/trades?limit=1')).body.total).toBe(0);
    expect(await listAll(alice)).toEqual(before);
  });

  it("export holds only the caller's trades", async () => {
    const hal = await newTrader(app, 'hal');
    await createTrade(hal, { pnl: 1, notes: 'hal only' });
    const exported = await exportOf(hal);
    expect(exported.map((t) => t.notes)).toEqual(['hal only']);
  });
});
