import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depthReport } from '../../src/contract/reports';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createAccount, createTrade, newTrader } from './trades-support';

/** The depth figures over the API, on both databases: a week across a month end, the drawdown and the ratios. */
describe.each(backends())('depth report on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'depth'), newTrader(app, 'depth-other')]);
    const account = await createAccount(alice, 'Depth');
    const rows: Array<[string, number, string]> = [
      ['2026-04-30', 100, '2026-04-30T13:35:00Z'],
      ['2026-05-01', -40.5, '2026-05-01T13:50:00Z'],
      ['2026-05-04', 10.25, '2026-05-04T14:05:00Z'],
    ];
    for (const [date, pnl, entry] of rows) {
      await createTrade(alice, {
        account_id: account.id,
        date,
        symbol: 'NQ',
        pnl,
        commission: 0,
        side: 'Long',
        quantity: 1,
        entry_price: 100,
        exit_price: 101,
        entry_time: entry,
        exit_time: entry,
      });
    }
    await createTrade(bob, { date: '2026-05-01', symbol: 'NQ', pnl: -999 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('answers weeks across a month end, drawdown and ratios from the trader own trades', async () => {
    const { depth } = conforms(depthReport, await alice.get('/api/reports/depth'));
    expect(depth.weeks).toEqual([
      { weekStart: '2026-04-27', weekEnd: '2026-05-03', tradingDays: 2, trades: 2, netCents: 5_950 },
      { weekStart: '2026-05-04', weekEnd: '2026-05-10', tradingDays: 1, trades: 1, netCents: 1_025 },
    ]);
    expect(depth.drawdown).toMatchObject({ maxDrawdownCents: 4_050, currentDrawdownCents: 3_025, netCents: 6_975 });
    expect(depth.streaks).toEqual({ longestWinningDays: 1, longestLosingDays: 1, current: { kind: 'winning', days: 1 } });
    expect(depth.ratios.sqnSample).toBe(3);
    expect(depth.ratios.kelly).not.toBeNull();
    // New York (UTC-4 in May): entries at 09:35, 09:50 and 10:05.
    expect(depth.buckets30.buckets.map((b) => [b.label, b.trades])).toEqual([
      ['09:30-10:00', 2],
      ['10:00-10:30', 1],
    ]);
    const winners = conforms(depthReport, await alice.get('/api/reports/depth?result=Win'));
    expect(winners.depth.ratios.sortino).toBeNull();
  });
});
