import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { importFile, ownFile } from './imports-support';
import { createAccount, createTrade, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * On both databases: a manual trade's side, execution and plan; planned risk from
 * the trade or the trader's defaults, and its R-multiple; defaults owned by their trader; the bulk risk edit all or
 * nothing; imports that set the side and leave the setup to the trader or the dialog's choice.
 */
describe.each(backends())('risk and the side apart from the setup on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'risk-alice'), newTrader(app, 'risk-bob')]);
  });
  afterAll(() => app?.close());

  const get = async (client: ApiClient, id: string) => (await client.get(`/api/trades/${id}`)).body as TradeDto;

  it('keeps a manual trade’s side, execution and stop, and prices its risk and R from them', async () => {
    // 2 NQ from 18250.25 to 18271.50, stop 18240.25: risk 10 x 2 x $20 = $400; net $850 - $8.40 = $841.60 = 2.104R.
    const trade = await createTrade(alice, {
      date: '2026-03-09',
      symbol: 'NQ',
      trade_type: 'Breakout',
      side: 'long',
      quantity: 2,
      entry_price: '18250.25',
      exit_price: '18271.50',
      entry_time: '2026-03-09T14:35:00Z',
      exit_time: '2026-03-09T14:52:10Z',
      stop_price: '18240.25',
      target_price: '18280.25',
      pnl: '841.60',
      commission: '8.40',
    });
    expect(trade).toMatchObject({
      side: 'Long',
      trade_type: 'Breakout',
      quantity: '2.00000000',
      entry_price: '18250.25000000',
      exit_time: '2026-03-09T14:52:10.000Z',
      stop_price: '18240.25000000',
      risk_amount: null,
      target_price: '18280.25000000',
      planned_risk: { amount: '400.00', source: 'stop' },
      r_multiple: 2.104,
    });

    // A dollar risk replaces the stop: one plan, never two. The P&L stays, the risk is now $200.
    const switched = (await alice.patch(`/api/trades/${trade.id}`, { risk_amount: '$200' })).body as TradeDto;
    expect(switched).toMatchObject({
      stop_price: null,
      risk_amount: '200.00',
      planned_risk: { amount: '200.00', source: 'amount' },
      r_multiple: 4.208,
    });
    // Editing something else keeps the plan and the execution.
    const renamed = (await alice.patch(`/api/trades/${trade.id}`, { notes: 'held to target' })).body as TradeDto;
    expect(renamed).toMatchObject({ risk_amount: '200.00', side: 'Long', entry_price: '18250.25000000' });

    // The type sent as LONG is the side (the spec's samples), and the setup is left empty.
    const sample = await createTrade(alice, { date: '2026-03-10', symbol: 'ES', trade_type: 'SHORT', pnl: -50 });
    expect([sample.side, sample.trade_type, sample.planned_risk, sample.r_multiple]).toEqual(['Short', '', null, null]);
    const setup = (await alice.patch(`/api/trades/${sample.id}`, { trade_type: 'Reversal' })).body as TradeDto;
    expect([setup.side, setup.trade_type]).toEqual(['Short', 'Reversal']);
  });

  it('refuses a plan or an execution that cannot be, naming the field, and stores nothing', async () => {
    const base = { date: '2026-03-11', period: 'AM', symbol: 'NQ', side: 'Long', quantity: 1, entry_price: 100 };
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ stop_price: 101 }, /^stop_price: a long trade's stop must be below its entry price$/],
      [{ side: 'Short', stop_price: 99 }, /^stop_price: a short trade's stop must be above/],
      [{ stop_price: 100 }, /^stop_price: must differ from the entry price$/],
      [{ stop_price: 95, risk_amount: 100 }, /^risk_amount: give either a stop_price or a risk_amount/],
      [{ entry_price: null, stop_price: 95 }, /^stop_price: needs the entry price and the quantity/],
      [{ target_price: 90 }, /^target_price: a long trade's target must be above/],
      [{ risk_amount: -5 }, /^risk_amount: must be more than 0$/],
      [{ quantity: 0 }, /^quantity: must be more than 0$/],
      [{ side: 'Up' }, /^side: must be Long or Short$/],
      [{ entry_price: 'abc' }, /^entry_price: must be a number$/],
      [{ entry_time: '2026-03-11T15:00:00Z', exit_time: '2026-03-11T14:00:00Z' }, /^exit_time: must not be before entry_time$/],
    ];
    const before = (await listAll(alice)).length;
    for (const [patch, message] of refusals) {
      const res = await alice.post('/api/trades', { ...base, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.error, JSON.stringify(patch)).toMatch(message);
    }
    expect((await listAll(alice)).length).toBe(before);
  });

  it('applies the most specific default to trades without a plan; defaults belong to their trader', async () => {
    const trader = await newTrader(app, 'risk-defaults');
    const funded = await createAccount(trader, 'Funded');
    const put = (body: Record<string, unknown>) => trader.put('/api/risk-defaults', body);
    const any = await put({ risk_amount: 200 });
    expect(any.status).toBe(200);
    expect(any.body).toMatchObject({ account_id: null, root: null, risk_amount: '200.00', stop_points: null });
    const nq = await put({ account_id: funded.id, root: 'nqh6', stop_points: '20' });
    expect(nq.body).toMatchObject({ account_id: funded.id, root: 'NQ', stop_points: '20.00000000', risk_amount: null });

    // NQ in the funded account: 20 points x 3 x $20 = $1,200; +$600 is 0.5R. ES there: no NQ default, so $200.
    const nqTrade = await createTrade(trader, { account_id: funded.id, symbol: 'NQ', quantity: 3, pnl: 600 });
    const esTrade = await createTrade(trader, { account_id: funded.id, symbol: 'ES', pnl: -300 });
    expect([nqTrade.planned_risk, nqTrade.r_multiple]).toEqual([{ amount: '1200.00', source: 'default-stop' }, 0.5]);
    expect([esTrade.planned_risk, esTrade.r_multiple]).toEqual([{ amount: '200.00', source: 'default-amount' }, -1.5]);
    // Setting the same account and root again replaces it; the list reads most specific first.
    expect((await put({ account_id: funded.id, root: 'NQ', risk_amount: '150' })).body.risk_amount).toBe('150.00');
    const list = (await trader.get('/api/risk-defaults')).body as Array<{ id: string; root: string | null; risk_amount: string }>;
    expect(list.map((d) => [d.root, d.risk_amount])).toEqual([
      ['NQ', '150.00'],
      [null, '200.00'],
    ]);
    expect((await get(trader, nqTrade.id)).r_multiple).toBe(4);

    // Points and dollars together, or neither, are refused by name; another trader's account is no account.
    expect((await put({ stop_points: 10, risk_amount: 10 })).body.error).toMatch(/^stop_points: give either/);
    expect((await put({ root: 'ES' })).status).toBe(400);
    const bobAccount = await createAccount(bob, 'Bob only');
    expect((await put({ account_id: bobAccount.id, risk_amount: 5 })).body.error).toBe('account_id: Trading account not found');
    // Bob sees none of them, cannot delete one, and his own default prices none of the trader's trades.
    expect((await bob.get('/api/risk-defaults')).body).toEqual([]);
    expect((await bob.delete(`/api/risk-defaults/${list[0]!.id}`)).status).toBe(404);
    expect((await bob.put('/api/risk-defaults', { risk_amount: 1 })).status).toBe(200);
    expect((await get(trader, esTrade.id)).planned_risk).toEqual({ amount: '200.00', source: 'default-amount' });
    expect((await bob.get(`/api/trades/${esTrade.id}`)).status).toBe(404);

    // Deleted, the defaults no longer apply.
    for (const d of list) expect((await trader.delete(`/api/risk-defaults/${d.id}`)).status).toBe(204);
    expect((await get(trader, esTrade.id)).planned_risk).toBeNull();
  });

  it('edits the risk of selected trades all or nothing', async () => {
    const trader = await newTrader(app, 'risk-bulk');
    const long = await createTrade(trader, { symbol: 'MES', side: 'Long', quantity: 2, entry_price: '5012.50', pnl: 85 });
    const short = await createTrade(trader, { symbol: 'MES', side: 'Short', quantity: 1, entry_price: '5020', pnl: -42.5 });
    const bare = await createTrade(trader, { symbol: 'MES', pnl: 10, risk_amount: 50 });
    const bobs = await createTrade(bob, { symbol: 'NQ', pnl: 10, risk_amount: 75 });
    const bulk = (ids: string[], risk: Record<string, unknown>) => trader.post('/api/trades/bulk-risk', { ids, risk });

    // A stop 8.5 points away needs each trade's side, entry and quantity: the bare trade has none, so nothing changes.
    const refused = await bulk([long.id, short.id, bare.id], { kind: 'stop_points', points: '8.5' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      'risk: 1 of the 3 selected trades has no side, entry price or quantity to place a stop from. Nothing was changed.',
    );
    expect((await get(trader, long.id)).stop_price).toBeNull();
    expect((await get(trader, bare.id)).risk_amount).toBe('50.00');

    // Without it, each stop goes on its own losing side: 8.5 x 2 x $5 = $85 (+1R) and 8.5 x 1 x $5 = $42.50 (-1R).
    expect((await bulk([long.id, short.id], { kind: 'stop_points', points: '8.5' })).body).toEqual({ updated: 2 });
    const [l, s] = [await get(trader, long.id), await get(trader, short.id)];
    expect([l.stop_price, l.planned_risk, l.r_multiple]).toEqual(['5004.00000000', { amount: '85.00', source: 'stop' }, 1]);
    expect([s.stop_price, s.planned_risk, s.r_multiple]).toEqual(['5028.50000000', { amount: '42.50', source: 'stop' }, -1]);

    // A dollar risk for all three, and another trader's id changes nothing of theirs.
    expect((await bulk([long.id, short.id, bare.id, bobs.id], { kind: 'amount', amount: '100' })).body).toEqual({ updated: 3 });
    expect(await get(trader, long.id)).toMatchObject({ stop_price: null, risk_amount: '100.00', r_multiple: 0.85 });
    expect((await get(bob, bobs.id)).risk_amount).toBe('75.00');
    expect((await bulk([long.id], { kind: 'amount', amount: '0' })).body.error).toBe('risk.amount: must be more than 0');
    expect((await bulk([long.id], { kind: 'guess' })).status).toBe(400);

    expect((await bulk([long.id, bare.id], { kind: 'clear' })).body).toEqual({ updated: 2 });
    expect(await get(trader, bare.id)).toMatchObject({ risk_amount: null, stop_price: null, planned_risk: null });
  });

  it('imports the side from the file and the setup from the dialog, never the side as the setup', async () => {
    const trader = await newTrader(app, 'risk-import');
    const account = await createAccount(trader, 'Import');
    const csv = ownFile('fills-with-commission.csv');
    const res = await importFile(
      trader,
      { account_id: account.id, time_zone: 'America/New_York', skip_unreadable: 'true', setup: 'Opening Drive' },
      csv,
      'text/csv',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const trades = await listAll(trader);
    expect(trades.length).toBeGreaterThan(0);
    for (const t of trades) {
      expect(['Long', 'Short']).toContain(t.side);
      expect(t.trade_type).toBe('Opening Drive');
    }
    // Without a choice the setup is the trader's to fill; a side is no setup.
    const other = await createAccount(trader, 'Import 2');
    expect((await importFile(trader, { account_id: other.id, time_zone: 'America/New_York', skip_unreadable: 'true' }, csv, 'text/csv')).status).toBe(
      200,
    );
    for (const t of await listAll(trader, `account=${other.id}`)) expect(t.trade_type).toBe('');
    const sideAsSetup = await importFile(trader, { account_id: other.id, setup: 'Long' }, csv, 'text/csv');
    expect(sideAsSetup.status).toBe(400);
    expect(sideAsSetup.body.error).toMatch(/^setup: must be a setup, not a side/);
  });

  it("reports the Overview in R from the trades' plans and the trader's defaults, the others counted apart", async () => {
    const trader = await newTrader(app, 'risk-reports');
    const day = { date: '2026-04-06', period: 'AM' };
    // Stop 10 points under 2 NQ: $400 risked, +$800 is +2R. A $300 plan, -$150: -0.5R. MES with no plan: no R yet.
    await createTrade(trader, { ...day, symbol: 'NQ', side: 'Long', quantity: 2, entry_price: 18000, stop_price: 17990, pnl: 800 });
    await createTrade(trader, { ...day, symbol: 'NQ', risk_amount: 300, pnl: -150 });
    const mes = await createTrade(trader, { ...day, symbol: 'MES', quantity: 4, pnl: -100 });
    const overview = async (query = '') => (await trader.get(`/api/reports/overview${query}`)).body as { r: Record<string, unknown> };
    expect((await overview()).r).toMatchObject({
      tradesWithRisk: 2,
      tradesWithoutRisk: 1,
      totalR: 1.5,
      expectancyR: 0.75,
      averageWinR: 2,
      averageLossR: -0.5,
    });

    // A default of 5 points for MES prices the third: 5 x 4 x $5 = $100, -$100 is -1R. Bob's default changes nothing.
    expect((await bob.put('/api/risk-defaults', { root: 'MES', stop_points: 50 })).status).toBe(200);
    expect((await trader.put('/api/risk-defaults', { root: 'MES', stop_points: 5 })).status).toBe(200);
    expect((await get(trader, mes.id)).r_multiple).toBe(-1);
    const all = (await overview()).r;
    expect(all).toMatchObject({
      tradesWithRisk: 3,
      tradesWithoutRisk: 0,
      totalR: 0.5,
      expectancyR: 0.17,
      averageLossR: -0.75,
      netCentsWithRisk: 55_000,
    });
    // The report's filter applies: NQ only.
    expect((await overview('?symbol=NQ')).r).toMatchObject({ tradesWithRisk: 2, totalR: 1.5 });
  });

  it('marks tags as mistakes and reports what each cost, and the net without them; the list is its trader’s', async () => {
    const trader = await newTrader(app, 'risk-mistakes');
    const day = { date: '2026-04-07', period: 'AM', symbol: 'NQ' };
    await createTrade(trader, { ...day, pnl: 300, tags: ['A+'] });
    await createTrade(trader, { ...day, pnl: -200, tags: ['FOMO'], risk_amount: 100 });
    await createTrade(trader, { ...day, pnl: -450, tags: ['FOMO', 'Moved stop'], risk_amount: 150 });
    await createTrade(trader, { ...day, symbol: 'ES', pnl: -50 });

    expect((await trader.get('/api/mistake-tags')).body).toEqual({ tags: [] });
    // 'fomo' again is the same mistake; the list reads back in the order sent.
    const put = await trader.put('/api/mistake-tags', { tags: ['FOMO', 'Moved stop', 'fomo', 'Oversized'] });
    expect(put.body).toEqual({ tags: ['FOMO', 'Moved stop', 'Oversized'] });
    expect((await trader.put('/api/mistake-tags', { tags: ['  '] })).body.error).toMatch(
      /^tags\.0: tags: a tag name must not be empty$|a tag name must not be empty/,
    );
    // Bob's list is his own: empty, and his change leaves the trader's as it was.
    expect((await bob.get('/api/mistake-tags')).body).toEqual({ tags: [] });
    expect((await bob.put('/api/mistake-tags', { tags: ['Revenge'] })).status).toBe(200);
    // The trade options are unchanged by mistakes (not a type, session or tag of their own).
    expect(((await trader.get('/api/trade-preferences')).body as { tag: string[] }).tag).not.toContain('Oversized');

    const report = (await trader.get('/api/reports/mistakes')).body as { mistakes: Record<string, unknown>; basis: { trades: number } };
    expect(report.basis.trades).toBe(4);
    expect(report.mistakes).toEqual({
      mistakes: [
        { tag: 'FOMO', trades: 2, netCents: -65_000, totalR: -5, tradesWithoutRisk: 0 },
        { tag: 'Moved stop', trades: 1, netCents: -45_000, totalR: -3, tradesWithoutRisk: 0 },
        { tag: 'Oversized', trades: 0, netCents: 0, totalR: null, tradesWithoutRisk: 0 },
      ],
      tradesWithMistakes: 2,
      netCents: -40_000,
      netWithoutMistakesCents: 25_000,
      tradesWithoutMistakes: 2,
    });
    // The filter applies: ES has no mistake.
    expect(
      ((await trader.get('/api/reports/mistakes?symbol=ES')).body as { mistakes: { tradesWithMistakes: number; netWithoutMistakesCents: number } })
        .mistakes,
    ).toMatchObject({ tradesWithMistakes: 0, netWithoutMistakesCents: -5_000 });
  });
});
