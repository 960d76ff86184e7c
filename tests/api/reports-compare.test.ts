import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareReport } from '../../src/contract/report-compare';
import { breakdownReport, equityReport, overviewReport } from '../../src/contract/reports';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { addDays } from '../../src/domain/dates';
import { createAccount, createTrade, importTrades, newTrader } from './trades-support';

/**
 * Compare with one to four sets on both databases: each set's figures are exactly what its own Overview and Equity
 * reports answer for the same filter (the engine's scope of that set), in the order asked; another trader's
 * trades never count; a bad set is a 400 naming it. Each set's curve in R and its breakdown are its own Equity and
 * Breakdown reports' too, trades without a planned risk left out of R rather than counted as 0R.
 */
describe.each(backends())('compare of up to four sets on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;

  const at = (day: string, time: string) => `${day}T${time}:00-05:00`;
  const compare = (sets: string[]) => {
    const query = new URLSearchParams();
    sets.forEach((text, i) => query.set('abcd'[i]!, text));
    return alice.get(`/api/reports/compare?${query}`);
  };

  beforeAll(async () => {
    app = await startTestApp({ backend });
    const bob = await newTrader(app, 'compare-bob');
    alice = await newTrader(app, 'compare-alice');
    const account = await createAccount(alice, 'Compare account');
    const trades: Array<[day: string, time: string, symbol: string, side: string, pnl: number]> = [
      ['2026-03-02', '09:35', 'NQ', 'Long', 410.5],
      ['2026-03-02', '13:10', 'ES', 'Short', -125.25],
      ['2026-03-03', '10:05', 'NQ', 'Short', 220],
      ['2026-03-03', '14:40', 'NQ', 'Long', -310.75],
      ['2026-03-04', '09:50', 'ES', 'Long', 95.5],
      ['2026-03-05', '11:15', 'NQ', 'Long', 605],
      ['2026-03-05', '15:20', 'ES', 'Short', -40],
    ];
    for (const [day, time, symbol, side, pnl] of trades) {
      await createTrade(alice, { account_id: account.id, date: day, entry_time: at(day, time), symbol, side, pnl, risk_amount: 200 });
    }
    // Bob's NQ trade must be in none of Alice's sets.
    await createTrade(bob, { date: '2026-03-02', entry_time: at('2026-03-02', '09:40'), symbol: 'NQ', side: 'Long', pnl: 9999 });
  });
  afterAll(() => app?.close());

  it.each([
    ['three', ['symbol=NQ', 'symbol=ES', 'side=Long']],
    ['four', ['side=Long', 'side=Short', 'range=custom&from=2026-03-02&to=2026-03-03', 'symbol=NQ&side=Long&hour=9']],
  ])('answers %s sets, each with the figures its own Overview and Equity reports answer', async (_, sets) => {
    const answer = conforms(compareReport, await compare(sets));
    expect(answer.sets).toHaveLength(sets.length);
    for (const [i, text] of sets.entries()) {
      const own = conforms(overviewReport, await alice.get(`/api/reports/overview?${text}`));
      const equity = conforms(equityReport, await alice.get(`/api/reports/equity?${text}`));
      const { equity: curve, equityR: _r, breakdown: _breakdown, ...figures } = answer.sets[i]!;
      expect(figures, text).toEqual(own);
      // The curve trade by trade, as the Equity report draws it; the day-by-day curve is not part of four sets' answer.
      const { byDay: _days, ...byTrade } = equity.equity;
      expect(curve, text).toEqual(byTrade);
      expect(curve).not.toHaveProperty('byDay');
    }
    // The sets differ: a set's figures are its own, not the first set's repeated.
    expect(new Set(answer.sets.map((s) => s.overview.netCents)).size).toBeGreaterThan(1);
  });

  it('counts only the trader’s own trades in each set', async () => {
    const answer = conforms(compareReport, await compare(['symbol=NQ', 'symbol=ES', 'range=all-time']));
    expect(answer.sets.map((s) => s.basis.trades)).toEqual([4, 3, 7]);
    // 410.50 + 220 - 310.75 + 605, and -125.25 + 95.50 - 40.
    expect(answer.sets.map((s) => s.overview.netCents)).toEqual([92_475, -6_975, 85_500]);
  });

  it('gives each set its curve in R and, when asked, its breakdown: those its own Equity and Breakdown reports answer', async () => {
    const carol = await newTrader(app, 'compare-carol');
    const account = await createAccount(carol, 'Carol account');
    // NQ: +2R, -0.5R and a +300.00 without a planned risk; ES: -2R and a +150.00 without one.
    const trades: Array<[day: string, time: string, symbol: string, side: string, pnl: number, risk: number | null]> = [
      ['2026-03-02', '09:35', 'NQ', 'Long', 400, 200],
      ['2026-03-02', '13:10', 'ES', 'Short', -200, 100],
      ['2026-03-03', '10:05', 'NQ', 'Short', 300, null],
      ['2026-03-03', '14:40', 'NQ', 'Long', -100, 200],
      ['2026-03-04', '09:50', 'ES', 'Long', 150, null],
    ];
    for (const [day, time, symbol, side, pnl, risk] of trades) {
      await createTrade(carol, {
        account_id: account.id,
        date: day,
        entry_time: at(day, time),
        symbol,
        side,
        pnl,
        ...(risk !== null && { risk_amount: risk }),
      });
    }
    const sets = ['symbol=NQ', 'symbol=ES', 'side=Long', 'range=custom&from=2026-03-03&to=2026-03-04'];
    const query = new URLSearchParams();
    sets.forEach((text, i) => query.set('abcd'[i]!, text));
    for (const by of ['instrument', 'hour', 'weekday', 'side']) {
      const answer = conforms(compareReport, await carol.get(`/api/reports/compare?${query}&by=${by}`));
      for (const [i, text] of sets.entries()) {
        const equity = conforms(equityReport, await carol.get(`/api/reports/equity?${text}`));
        const breakdown = conforms(breakdownReport, await carol.get(`/api/reports/breakdown?${text}&by=${by}`));
        const { byDay: _days, ...inR } = equity.r;
        expect(answer.sets[i]!.equityR, `${text} in R`).toEqual(inR);
        expect(answer.sets[i]!.breakdown, `${text} by ${by}`).toEqual(breakdown.breakdown);
      }
    }
    // Without `by`, no breakdown: the request costs what it did.
    const plain = conforms(compareReport, await carol.get(`/api/reports/compare?${query}`));
    expect(plain.sets.map((s) => s.breakdown)).toEqual([undefined, undefined, undefined, undefined]);
    // The trades without a planned risk are counted apart, never as 0R: NQ ends at +1.50R over two trades, ES at -2R.
    expect(plain.sets.map((s) => [s.equityR.tradesWithRisk, s.equityR.tradesWithoutRisk, s.equityR.byTrade.at(-1)?.equityR ?? null])).toEqual([
      [2, 1, 1.5],
      [1, 1, -2],
      [2, 1, 1.5],
      [1, 2, -0.5],
    ]);
    // The sets' breakdowns differ: each set's rows are its own.
    const bySymbol = conforms(compareReport, await carol.get(`/api/reports/compare?${query}&by=instrument`));
    expect(bySymbol.sets.map((s) => s.breakdown!.rows.map((r) => [r.key, r.trades, r.netCents]))).toEqual([
      [['NQ', 3, 60_000]],
      [['ES', 2, -5_000]],
      [
        ['NQ', 2, 30_000],
        ['ES', 1, 15_000],
      ],
      [
        ['NQ', 2, 20_000],
        ['ES', 1, 15_000],
      ],
    ]);
    const bad = await carol.get(`/api/reports/compare?${query}&by=colour`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^by: /);
  });

  it('sends a long curve as the Equity report samples it: real points at their trade numbers, its peak, low and end among them', async () => {
    const dave = await newTrader(app, 'compare-dave');
    const account = await createAccount(dave, 'Dave account');
    // 2,000 trades, one a day, longs and shorts in turn; a spike and a crash in the middle. Each risks $100.
    const count = 2_000;
    const pnlOf = (i: number) => (i === 777 ? 500_000 : i === 1_333 ? -900_000 : ((i * 7_919) % 20_001) - 9_900);
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `long-curve-${i}`,
      date: addDays('2019-01-01', i),
      period: 'AM',
      side: i % 2 === 0 ? 'Long' : 'Short',
      pnl: (pnlOf(i) / 100).toFixed(2),
      risk_amount: '100.00',
    }));
    expect((await importTrades(dave, account.id, rows)).imported).toBe(count);
    const sets = ['range=all-time', 'side=Short&range=all-time'];
    const answer = conforms(compareReport, await dave.get(`/api/reports/compare?${new URLSearchParams({ a: sets[0]!, b: sets[1]! })}`));
    for (const [i, text] of sets.entries()) {
      const equity = conforms(equityReport, await dave.get(`/api/reports/equity?${text}`));
      const { byDay: _days, ...byTrade } = equity.equity;
      const { byDay: _daysR, ...inR } = equity.r;
      expect(answer.sets[i]!.equity, text).toEqual(byTrade);
      expect(answer.sets[i]!.equityR, `${text} in R`).toEqual(inR);
    }
    // The whole curve of all trades, worked out from the P&L sent: each point sent is its point at that trade number.
    const full: number[] = [];
    for (let i = 0, sum = 0; i < count; i++) full.push((sum += pnlOf(i)));
    const curve = answer.sets[0]!.equity;
    expect(curve).toMatchObject({ trades: count, days: count, sampled: true });
    expect(curve.byTrade.length).toBeLessThanOrEqual(1_500);
    expect(curve.byTrade.every((p) => p.equityCents === full[p.index - 1] && p.tradeDate === addDays('2019-01-01', p.index - 1))).toBe(true);
    const indexes = curve.byTrade.map((p) => p.index);
    expect(indexes.every((index, k) => k === 0 || index > indexes[k - 1]!)).toBe(true);
    const top = full.indexOf(Math.max(...full)) + 1;
    const bottom = full.indexOf(Math.min(...full)) + 1;
    for (const index of [1, top, bottom, count]) expect(indexes, `trade ${index}`).toContain(index);
    // In R (each trade on $100): the same trade numbers' cumulative R, the last the total.
    const inR = answer.sets[0]!.equityR;
    expect(inR).toMatchObject({ tradesWithRisk: count, tradesWithoutRisk: 0, days: count, sampled: true });
    const inRofCents = (cents: number) => (Math.sign(cents) * Math.round(Math.abs(cents) / 100)) / 100 + 0;
    expect(inR.byTrade.every((p) => p.equityR === inRofCents(full[p.index - 1]!))).toBe(true);
    expect(inR.byTrade.at(-1)).toMatchObject({ index: count, equityR: inRofCents(full.at(-1)!) });
    // The shorts, 1,000 trades: every one sent.
    expect(answer.sets[1]!.equity).toMatchObject({ trades: 1_000, sampled: false });
    expect(answer.sets[1]!.equity.byTrade.map((p) => p.index)).toEqual(Array.from({ length: 1_000 }, (_, k) => k + 1));
  }, 120_000);

  it('answers one set on its own (as the page asks for each set), the same figures, curves and breakdown as among others', async () => {
    const sets = ['side=Long', 'side=Short', 'symbol=NQ'];
    const together = conforms(compareReport, await compare(sets));
    for (const [i, text] of sets.entries()) {
      const alone = conforms(compareReport, await compare([text]));
      expect(alone.sets, text).toEqual([together.sets[i]]);
    }
    // With a breakdown: the set's own Breakdown report.
    const alone = conforms(compareReport, await alice.get(`/api/reports/compare?${new URLSearchParams({ a: 'side=Short', by: 'session' })}`));
    const breakdown = conforms(breakdownReport, await alice.get('/api/reports/breakdown?side=Short&by=session'));
    expect(alone.sets).toHaveLength(1);
    expect(alone.sets[0]!.breakdown).toEqual(breakdown.breakdown);
  });

  it('refuses no set, a gap in the letters and a bad filter with a 400 naming the set', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /^a: /],
      ['b=symbol%3DNQ', /^a: /],
      ['a=symbol%3DNQ&c=side%3DLong', /^c: give set b before set c$/],
      ['a=symbol%3DNQ&b=side%3DLong&d=side%3DShort', /^d: give set c before set d$/],
      ['a=symbol%3DNQ&b=range%3Dsomeday', /^b: range: /],
      [`a=symbol%3DNQ&b=side%3DLong&c=${'x'.repeat(4001)}`, /^c: must be at most 4000 characters$/],
    ];
    for (const [query, message] of cases) {
      const res = await alice.get(`/api/reports/compare?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toMatch(message);
    }
  });
});
