import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../dates/calendar-day';
import { formatCompactR } from './format-r';
import { summarizeR, summarizeRColumns, summarizeRPeriods, type RColumns, type RTrade } from './r-summary';

const trade = (tradeDate: string, pnlCents: number, riskCents: number | null): RTrade => ({
  tradeDate,
  pnlCents,
  riskCents,
  result: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
});

describe('R figures of a group of trades', () => {
  it('sums, averages and counts apart the trades without a planned risk (hand-computed)', () => {
    // +$800 on $400 = +2R; -$150 on $300 = -0.5R; -$100 on $100 = -1R; $0 on $200 = 0R; +$50 without a plan.
    const summary = summarizeR([
      trade('2026-05-04', 80_000, 40_000),
      trade('2026-05-04', -15_000, 30_000),
      trade('2026-05-05', -10_000, 10_000),
      trade('2026-05-05', 0, 20_000),
      trade('2026-05-05', 5_000, null),
    ]);
    expect(summary).toEqual({
      trades: 5,
      tradesWithRisk: 4,
      tradesWithoutRisk: 1,
      // 2 - 0.5 - 1 + 0 = 0.5R; over 4 trades with a risk, 0.125R, shown as 0.13R (half away from zero).
      totalR: 0.5,
      expectancyR: 0.13,
      averageWinR: 2,
      // (-0.5 + -1) / 2 = -0.75R; the scratch trade is neither a win nor a loss.
      averageLossR: -0.75,
      netCentsWithRisk: 55_000,
      // R won over R lost: 2 / 1.5 = 1.333...
      profitFactorR: 1.33,
    });
  });

  it('has the profit factor in R of the exact sums, and none without a loss', () => {
    // Won: 1/3R three times = 1R exactly; lost: -0.75R (the loss without a plan is left out). 1 / 0.75 = 1.333... -> 1.33.
    const thirds = [trade('2026-05-04', 10_000, 30_000), trade('2026-05-04', 10_000, 30_000), trade('2026-05-04', 10_000, 30_000)];
    expect(summarizeR([...thirds, trade('2026-05-05', -7_500, 10_000), trade('2026-05-05', -100, null)]).profitFactorR).toBe(1.33);
    // +$10.05 won on $10 twice against -$10 lost on $10: 2.01R / 1R.
    expect(summarizeR([trade('2026-05-04', 1_005, 1_000), trade('2026-05-04', 1_005, 1_000), trade('2026-05-04', -1_000, 1_000)]).profitFactorR).toBe(
      2.01,
    );
    expect(summarizeR([...thirds, trade('2026-05-05', -100, null)]).profitFactorR).toBeNull();
  });

  it('adds exact decimals, not floats, and rounds half away from zero only at the end', () => {
    // +$10.05 on $10 is 1.005R: as a float 1.00499999..., which would round to 1.00R.
    expect(summarizeR([trade('2026-05-04', 1_005, 1_000)]).totalR).toBe(1.01);
    // Two trades of +0.5025R: 1.005R together, 1.01R; the loss side mirrors it.
    expect(summarizeR([trade('2026-05-04', 2_010, 4_000), trade('2026-05-04', 2_010, 4_000)]).totalR).toBe(1.01);
    expect(summarizeR([trade('2026-05-04', -1_005, 1_000)]).totalR).toBe(-1.01);
    // Three hundred trades of 1/3R are 100R.
    expect(summarizeR(Array.from({ length: 300 }, () => trade('2026-05-04', 10_000, 30_000))).totalR).toBe(100);
  });

  it('has no R without a trade with a planned risk, and a risk of 0 is none', () => {
    expect(summarizeR([trade('2026-05-04', 5_000, null), trade('2026-05-04', 5_000, 0), trade('2026-05-04', 5_000, Number.NaN)])).toMatchObject({
      tradesWithRisk: 0,
      tradesWithoutRisk: 3,
      totalR: null,
      expectancyR: null,
      averageWinR: null,
      averageLossR: null,
    });
    expect(summarizeR([])).toMatchObject({ trades: 0, totalR: null });
  });

  it('by day and by calendar week (Sunday to Saturday), each from its trades', () => {
    // Sat May 2 and Sun May 3 fall in two weeks; -1/3R three times on Monday May 4 is -1R, not -0.99R.
    const periods = summarizeRPeriods([
      trade('2026-05-02', 20_000, 10_000),
      trade('2026-05-03', -5_000, 10_000),
      trade('2026-05-04', -10_000, 30_000),
      trade('2026-05-04', -10_000, 30_000),
      trade('2026-05-04', -10_000, 30_000),
      trade('2026-05-04', 7_000, null),
    ]);
    expect(periods.days).toEqual([
      { tradeDate: '2026-05-02', trades: 1, tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: 2 },
      { tradeDate: '2026-05-03', trades: 1, tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: -0.5 },
      { tradeDate: '2026-05-04', trades: 4, tradesWithRisk: 3, tradesWithoutRisk: 1, totalR: -1 },
    ]);
    expect(periods.weeks).toEqual([
      { weekStart: '2026-04-26', trades: 1, tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: 2 },
      { weekStart: '2026-05-03', trades: 5, tradesWithRisk: 4, tradesWithoutRisk: 1, totalR: -1.5 },
    ]);
    expect(periods.summary).toMatchObject({ trades: 6, tradesWithoutRisk: 1, totalR: 0.5 });
  });

  it('gives the same days and weeks when a day comes back after another (trades not in trading order)', () => {
    const inOrder = [
      trade('2026-05-02', 20_000, 10_000),
      trade('2026-05-02', -4_000, 10_000),
      trade('2026-05-04', -10_000, 30_000),
      trade('2026-05-04', 5_000, null),
    ];
    const shuffled = [inOrder[2]!, inOrder[0]!, inOrder[3]!, inOrder[1]!];
    const periods = summarizeRPeriods(shuffled);
    expect(periods).toEqual(summarizeRPeriods(inOrder));
    expect(periods.days.map((d) => [d.tradeDate, d.trades, d.totalR])).toEqual([
      ['2026-05-02', 2, 1.6],
      ['2026-05-04', 2, -0.33],
    ]);
  });
});

/** Trades in trading order as the report copy's columns, each row's risk apart (as the reports read them). */
function toColumns(trades: readonly RTrade[]): { columns: RColumns; risk: Float64Array } {
  const days = [...new Set(trades.map((t) => t.tradeDate))];
  return {
    columns: {
      days,
      day: Uint32Array.from(trades, (t) => days.indexOf(t.tradeDate)),
      pnl: Float64Array.from(trades, (t) => t.pnlCents),
      result: Uint8Array.from(trades, (t) => (t.result === 'Win' ? 1 : t.result === 'Loss' ? 2 : 0)),
    },
    risk: Float64Array.from(trades, (t) => t.riskCents ?? Number.NaN),
  };
}

describe('R by day and week over the columns', () => {
  it('has the hand-computed days and weeks, a third of an R three times being one', () => {
    const trades = [
      trade('2026-05-02', 20_000, 10_000),
      trade('2026-05-03', -5_000, 10_000),
      trade('2026-05-04', -10_000, 30_000),
      trade('2026-05-04', -10_000, 30_000),
      trade('2026-05-04', -10_000, 30_000),
      trade('2026-05-04', 7_000, null),
      // 1.005R and 0.125R: on a half hundredth, where a float sum would round down.
      trade('2026-05-05', 1_005, 1_000),
      trade('2026-05-06', 125, 1_000),
      trade('2026-05-06', 0, 0),
    ];
    const { columns, risk } = toColumns(trades);
    const periods = summarizeRColumns(columns, Uint32Array.from(trades.keys()), risk);
    expect(periods.days.map((d) => [d.tradeDate, d.trades, d.tradesWithRisk, d.totalR])).toEqual([
      ['2026-05-02', 1, 1, 2],
      ['2026-05-03', 1, 1, -0.5],
      ['2026-05-04', 4, 3, -1],
      ['2026-05-05', 1, 1, 1.01],
      ['2026-05-06', 2, 1, 0.13],
    ]);
    expect(periods.weeks).toEqual([
      { weekStart: '2026-04-26', trades: 1, tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: 2 },
      // -0.5 - 1 + 1.005 + 0.125 = -0.37R.
      { weekStart: '2026-05-03', trades: 8, tradesWithRisk: 6, tradesWithoutRisk: 2, totalR: -0.37 },
    ]);
    expect(periods.summary).toEqual(summarizeR(trades));
    // Rows left out (the Trade Log's search) are not counted: Monday's scratch trade without a plan and Wednesday's.
    const some = summarizeRColumns(columns, Uint32Array.from([0, 2, 3, 4, 6]), risk);
    expect(some.days.map((d) => [d.tradeDate, d.trades, d.totalR])).toEqual([
      ['2026-05-02', 1, 2],
      ['2026-05-04', 3, -1],
      ['2026-05-05', 1, 1.01],
    ]);
    expect(() => summarizeRColumns(columns, Uint32Array.from([2, 0]), risk)).toThrow(RangeError);
    // Figures of the whole on a half hundredth: +1.005R won against -1R lost is a total of 0.005R (0.01R; 0.0025R a
    // trade), an average win of 1.01R and a profit factor of 1.005 (1.01), where floats would give 0.00, 1.00, 1.00.
    const onHalf = [trade('2026-05-04', 1_005, 1_000), trade('2026-05-05', -1_000, 1_000)];
    const whole = summarizeRColumns(toColumns(onHalf).columns, Uint32Array.from([0, 1]), toColumns(onHalf).risk).summary;
    expect(whole).toMatchObject({ totalR: 0.01, expectancyR: 0, averageWinR: 1.01, averageLossR: -1, profitFactorR: 1.01 });
    expect(whole).toEqual(summarizeR(onHalf));
  });

  it('gives the figures of the trades as objects, on random trades', () => {
    // Risks a trader uses (and odd ones), P&L often on a half hundredth of an R (risk x k / 200), with and without plans.
    const risk = fc.oneof(fc.constantFrom(null, 0, 1_000, 3_000, 20_000, 40_000, 7_500), fc.integer({ min: 1, max: 500_000 }));
    const aTrade = fc.tuple(
      fc.integer({ min: 0, max: 40 }),
      risk,
      fc.integer({ min: -400, max: 400 }),
      fc.integer({ min: -5_000_000, max: 5_000_000 }),
      fc.boolean(),
    );
    fc.assert(
      fc.property(fc.array(aTrade, { maxLength: 300 }), fc.array(fc.boolean(), { maxLength: 300 }), (raw, keep) => {
        const trades = raw
          .map(([offset, riskCents, k, cents, onHalf]) =>
            trade(addDays('2026-04-01', offset), onHalf && riskCents ? Math.round((riskCents * k) / 200) : cents, riskCents),
          )
          .sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
        const rows = Uint32Array.from(trades.keys()).filter((i) => keep[i] ?? true);
        const { columns, risk: riskColumn } = toColumns(trades);
        expect(summarizeRColumns(columns, rows, riskColumn)).toEqual(summarizeRPeriods(Array.from(rows, (i) => trades[i]!)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("R on a phone's calendar", () => {
  it('one decimal under 10R, whole from there, half away from zero', () => {
    expect([1.5, -0.25, 0.04, 9.94, 9.95, -12.5, 0].map(formatCompactR)).toEqual(['+1.5R', '-0.3R', '0.0R', '+9.9R', '+10R', '-13R', '0.0R']);
  });
});
