import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakdownReport } from '../../src/contract/reports';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createAccount, createTrade, listAll, newTrader } from './trades-support';

/**
 * Micros counted with their full-size contract (markets=grouped), on both databases: the instrument breakdown, the
 * Trade Log's list (filtered in SQL) and its statistics (filtered by the engine) take NQ and MNQ as one market, and
 * agree on its trades; without the switch each instrument stays apart.
 */
describe.each(backends())('markets grouped on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    alice = await newTrader(app, 'markets');
    const account = await createAccount(alice, 'Markets');
    const rows: Array<[string, number]> = [
      ['NQ', 120.5],
      ['MNQ', -30.25],
      ['MNQ', 12],
      ['ES', 50],
      ['MES', -7.75],
      ['M2K', 3],
      ['CL', 40],
    ];
    for (const [i, [symbol, pnl]] of rows.entries()) {
      await createTrade(alice, { account_id: account.id, date: `2025-04-0${i + 1}`, symbol, pnl, commission: 0 });
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('breaks down by market: NQ with MNQ, ES with MES, RTY with M2K, to the cent', async () => {
    const separate = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=instrument')).breakdown.rows;
    expect(separate.map((r) => r.key).sort()).toEqual(['CL', 'ES', 'M2K', 'MES', 'MNQ', 'NQ']);
    const grouped = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=instrument&markets=grouped'));
    expect(Object.fromEntries(grouped.breakdown.rows.map((r) => [r.key, [r.trades, r.netCents]]))).toEqual({
      NQ: [3, 12050 - 3025 + 1200],
      ES: [2, 5000 - 775],
      RTY: [1, 300],
      CL: [1, 4000],
    });
    expect(grouped.basis.filter.markets).toBe('grouped');
  });

  it('filters the Trade Log (SQL) and its statistics (engine) by the whole market, and they agree', async () => {
    for (const symbol of ['NQ', 'MNQ']) {
      const listed = await listAll(alice, `symbol=${symbol}&markets=grouped`);
      expect(listed.map((t) => t.symbol).sort()).toEqual(['MNQ', 'MNQ', 'NQ']);
      const stats = (await alice.get(`/api/trades/stats?symbol=${symbol}&markets=grouped&days=none`)).body;
      expect(stats.summary.trades).toBe(3);
      expect(stats.summary.pnlCents).toBe(12050 - 3025 + 1200);
    }
    expect((await listAll(alice, 'symbol=MNQ')).length).toBe(2);
    const ids = (await alice.get('/api/trades/ids?symbol=ES&markets=grouped')).body;
    expect(ids.total).toBe(2);
    const bad = await alice.get('/api/reports/breakdown?by=instrument&markets=merged');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^markets/);
  });
});
