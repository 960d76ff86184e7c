import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakdownReport, depthReport } from '../../src/contract/reports';
import { BREAKDOWNS } from '../../src/domain/reports/breakdown';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Gross P&L and fees beside the net in every breakdown row, and the depth drawdown per account, over the API on both
 * databases.
 */
describe.each(backends())('breakdown columns and drawdown per account on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let apex: { id: string };
  let demo: { id: string };

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'columns'), newTrader(app, 'columns-other')]);
    apex = await createAccount(alice, 'Apex', { starting_balance: '50000' });
    demo = await createAccount(alice, 'Demo', { starting_balance: '0' });
    // Net after fees: +150.00 (4.20 paid), -60.10 (4.20), +0.01 (2.13), -200.00 (0.00) and a fee-only loss of 1.99.
    const rows: Array<[string, string, number, number, string, string]> = [
      [apex.id, '2026-03-02', 150, 4.2, 'NQ', 'New York'],
      [apex.id, '2026-03-03', -60.1, 4.2, 'ES', 'London'],
      [demo.id, '2026-03-03', 0.01, 2.13, 'NQ', 'Asia'],
      [apex.id, '2026-03-04', -200, 0, 'NQ', 'New York'],
      [demo.id, '2026-03-05', -1.99, 1.99, 'ES', 'London'],
    ];
    for (const [account_id, date, pnl, commission, symbol, period] of rows) {
      await createTrade(alice, {
        account_id,
        date,
        symbol,
        pnl,
        commission,
        period,
        side: 'Long',
        quantity: 1,
        entry_time: `${date}T14:35:00Z`,
        exit_time: `${date}T14:40:00Z`,
      });
    }
    await createTrade(bob, { date: '2026-03-03', symbol: 'NQ', pnl: -999, commission: 50 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('gives every row of every dimension its gross and fees in exact cents, gross less fees being its net', async () => {
    for (const by of BREAKDOWNS) {
      const { breakdown } = conforms(breakdownReport, await alice.get(`/api/reports/breakdown?by=${by}`));
      for (const row of breakdown.rows) expect(row.grossCents - row.feesCents, `${by} ${row.label}`).toBe(row.netCents);
      if (by === 'tag' || breakdown.excluded > 0) continue;
      // Every trade in one row (none lacks these dimensions): the fees add up to all 12.52 paid.
      expect(
        breakdown.rows.reduce((sum, r) => sum + r.feesCents, 0),
        by,
      ).toBe(1_252);
    }
    const { breakdown } = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=instrument'));
    expect(breakdown.rows.map((r) => [r.key, r.netCents, r.feesCents, r.grossCents])).toEqual([
      ['NQ', -4_999, 633, -4_366],
      ['ES', -6_209, 619, -5_590],
    ]);
  });

  it('orders the sessions as the trading day runs', async () => {
    const { breakdown } = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=session'));
    expect(breakdown.rows.map((r) => r.key)).toEqual(['Asia', 'London', 'New York']);
  });

  it('gives each filtered account its drawdown and its share of the account’s own starting balance, none on a balance of 0', async () => {
    const { depth } = conforms(depthReport, await alice.get(`/api/reports/depth?account=${apex.id}&account=${demo.id}`));
    expect(depth.accounts.map((a) => [a.label, a.trades, a.maxDrawdownCents, a.startingBalanceCents, a.maxDrawdownPercent])).toEqual([
      // Apex: +150.00, then -60.10 and -200.00: 260.10 below the peak, 0.5% of 50,000.00.
      ['Apex', 3, 26_010, 5_000_000, 0.5],
      ['Demo', 2, 199, 0, null],
    ]);
  });
});
