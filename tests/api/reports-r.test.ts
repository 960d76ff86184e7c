import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarReport, equityReport, heatmapReport, overviewReport } from '../../src/contract/reports';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Equity, the heatmap and the year calendar in R over HTTP on both databases: hand-computed figures
 * of a week of trades with and without a planned risk, the same R as the Overview's for the same filter, the trader's
 * own risk defaults (never another's), and another trader's trades never counted.
 */
describe.each(backends())('the reports in R on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let bobAccount: string;

  // Mon Mar 2 to Thu Mar 5, 2026: New York is UTC-5. A trader's clock is New York until they pick another.
  const at = (day: string, time: string) => `${day}T${time}:00-05:00`;
  const trade = (client: ApiClient, day: string, time: string, input: Record<string, unknown>) =>
    createTrade(client, { date: day, period: 'AM', entry_time: at(day, time), ...input });

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'r-reports-alice'), newTrader(app, 'r-reports-bob')]);
    // +2R on a $100 plan, 0R on a $100 plan, and a MES trade without a plan, Monday at 09:40, 09:50 and 09:58.
    await trade(alice, '2026-03-02', '09:40', { symbol: 'NQ', risk_amount: 100, pnl: 200 });
    await trade(alice, '2026-03-02', '09:50', { symbol: 'NQ', risk_amount: 100, pnl: 0 });
    await trade(alice, '2026-03-02', '09:58', { symbol: 'MES', quantity: 1, pnl: -50 });
    // Tuesday: a stop 7.5 points under a long NQ ($150 risked) lost $150, -1R; -$100 on a $300 plan, -1/3R.
    await trade(alice, '2026-03-03', '10:05', { symbol: 'NQ', side: 'Long', quantity: 1, entry_price: 18000, stop_price: 17992.5, pnl: -150 });
    await trade(alice, '2026-03-03', '10:20', { symbol: 'NQ', risk_amount: 300, pnl: -100 });
    // Wednesday: only a MES trade without a plan. Thursday: +3R.
    await trade(alice, '2026-03-04', '11:00', { symbol: 'MES', quantity: 1, pnl: 500 });
    await trade(alice, '2026-03-05', '09:35', { symbol: 'NQ', risk_amount: 100, pnl: 300 });
    // Bob trades the same days and hours, in R that would show in every figure: -10R and +10R.
    bobAccount = (await createAccount(bob, 'Bob 50K')).id;
    await trade(bob, '2026-03-02', '09:40', { symbol: 'NQ', risk_amount: 50, pnl: -500, account_id: bobAccount });
    await trade(bob, '2026-03-04', '11:00', { symbol: 'MES', risk_amount: 100, pnl: 1000, account_id: bobAccount });
  });
  afterAll(() => app?.close());

  const read = async (client: ApiClient, query = '') => ({
    overview: conforms(overviewReport, await client.get(`/api/reports/overview${query}`)).r,
    equity: conforms(equityReport, await client.get(`/api/reports/equity${query}`)).r,
    heatmap: conforms(heatmapReport, await client.get(`/api/reports/heatmap${query}`)).heatmap,
    calendar: conforms(calendarReport, await client.get(`/api/reports/calendar${query}${query ? '&' : '?'}year=2026`)).calendar,
  });

  it('the week in R: the curve and its drawdown, each cell and each day, the trades without a plan counted apart', async () => {
    const { overview, equity, heatmap, calendar } = await read(alice);
    expect(overview).toMatchObject({ tradesWithRisk: 5, tradesWithoutRisk: 2, totalR: 3.67 });

    expect(equity.byTrade.map((p) => [p.index, p.tradeDate, p.equityR, p.drawdownR])).toEqual([
      [1, '2026-03-02', 2, 0],
      [2, '2026-03-02', 2, 0],
      [3, '2026-03-03', 1, -1],
      [4, '2026-03-03', 0.67, -1.33],
      [5, '2026-03-05', 3.67, 0],
    ]);
    // Wednesday had only a trade without a plan: no point on the curve by day.
    expect(equity.byDay.map((p) => [p.tradeDate, p.equityR, p.drawdownR])).toEqual([
      ['2026-03-02', 2, 0],
      ['2026-03-03', 0.67, -1.33],
      ['2026-03-05', 3.67, 0],
    ]);
    expect(equity).toMatchObject({ tradesWithRisk: 5, tradesWithoutRisk: 2, days: 3, sampled: false });

    const cell = (weekday: number, hour: number) => heatmap.cells.find((c) => c.weekday === weekday && c.hour === hour)?.r;
    expect(cell(1, 9)).toEqual({ tradesWithRisk: 2, tradesWithoutRisk: 1, totalR: 2, expectancyR: 1 });
    expect(cell(2, 10)).toEqual({ tradesWithRisk: 2, tradesWithoutRisk: 0, totalR: -1.33, expectancyR: -0.67 });
    expect(cell(3, 11)).toEqual({ tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null, expectancyR: null });
    expect(cell(4, 9)).toEqual({ tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: 3, expectancyR: 3 });
    expect(heatmap.tradesWithoutRisk).toBe(2);

    expect(calendar.days.map((d) => [d.tradeDate, d.r.totalR, d.r.tradesWithoutRisk])).toEqual([
      ['2026-03-02', 2, 1],
      ['2026-03-03', -1.33, 0],
      ['2026-03-04', null, 1],
      ['2026-03-05', 3, 0],
    ]);
    // The month and the year from the trades: the Overview's R.
    expect(calendar.months[2]!.r).toEqual({ tradesWithRisk: 5, tradesWithoutRisk: 2, totalR: 3.67 });
    expect(calendar.r).toEqual({ tradesWithRisk: overview.tradesWithRisk, tradesWithoutRisk: overview.tradesWithoutRisk, totalR: overview.totalR });
  });

  it('agrees with the Overview in R for the same filter: NQ only, Tuesday to Wednesday, an hour, the trades with a plan', async () => {
    for (const query of ['?symbol=NQ', '?range=custom&from=2026-03-03&to=2026-03-04', '?hour=9', '?risk=with', '?rMin=0']) {
      const { overview, equity, heatmap, calendar } = await read(alice, query);
      const cellsR = heatmap.cells.reduce((sum, c) => sum + Math.round((c.r.totalR ?? 0) * 100), 0) / 100;
      expect([equity.byTrade.at(-1)?.equityR ?? null, equity.byDay.at(-1)?.equityR ?? null, cellsR, calendar.r.totalR], query).toEqual([
        overview.totalR,
        overview.totalR,
        overview.totalR ?? 0,
        overview.totalR,
      ]);
      expect([equity.tradesWithRisk, equity.tradesWithoutRisk, calendar.r.tradesWithoutRisk], query).toEqual([
        overview.tradesWithRisk,
        overview.tradesWithoutRisk,
        overview.tradesWithoutRisk,
      ]);
    }
    // Tuesday and Wednesday: under water from the opening, Wednesday's trade without a plan counted apart.
    const { equity } = await read(alice, '?range=custom&from=2026-03-03&to=2026-03-04');
    expect(equity.byTrade.map((p) => [p.equityR, p.drawdownR])).toEqual([
      [-1, -1],
      [-1.33, -1.33],
    ]);
    expect(equity.tradesWithoutRisk).toBe(1);
  });

  it("the trader's own risk default gives the MES trades their R; another trader's default and trades never count", async () => {
    // Bob's $10 default for MES would make Alice's MES trades -5R and +50R: it is his, and changes nothing of hers.
    expect((await bob.put('/api/risk-defaults', { root: 'MES', risk_amount: 10 })).status).toBe(200);
    expect((await read(alice)).equity.byTrade.at(-1)?.equityR).toBe(3.67);
    // Alice's $25 for MES: -$50 is -2R, +$500 is +20R; Wednesday is on the curve now.
    expect((await alice.put('/api/risk-defaults', { root: 'MES', risk_amount: 25 })).status).toBe(200);
    const { overview, equity, heatmap, calendar } = await read(alice);
    expect(overview).toMatchObject({ tradesWithRisk: 7, tradesWithoutRisk: 0, totalR: 21.67 });
    expect(equity.byDay.map((p) => [p.tradeDate, p.equityR, p.drawdownR])).toEqual([
      ['2026-03-02', 0, 0],
      ['2026-03-03', -1.33, -1.33],
      ['2026-03-04', 18.67, 0],
      ['2026-03-05', 21.67, 0],
    ]);
    expect(heatmap.cells.find((c) => c.weekday === 3)?.r).toEqual({ tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: 20, expectancyR: 20 });
    expect(calendar.days.find((d) => d.tradeDate === '2026-03-04')?.r.totalR).toBe(20);

    // Bob's account in Alice's filter matches none of her trades; Bob sees only his own.
    const none = await read(alice, `?account=${bobAccount}`);
    expect([none.equity.byTrade, none.equity.tradesWithRisk, none.heatmap.cells, none.calendar.r.totalR]).toEqual([[], 0, [], null]);
    const his = await read(bob);
    expect(his.equity.byTrade.map((p) => [p.equityR, p.drawdownR])).toEqual([
      [-10, -10],
      [0, 0],
    ]);
    expect(his.calendar.r).toEqual({ tradesWithRisk: 2, tradesWithoutRisk: 0, totalR: 0 });
  });
});
