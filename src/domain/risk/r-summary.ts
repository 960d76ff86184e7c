import { getStartOfWeekSunday, type CalendarDay } from '../dates/calendar-day';
import { Decimal, type Cents } from '../money';

/**
 * R figures of a group of trades: the dashboard's month, the calendar's days and weeks, Reflect's
 * tables. Each R is the net P&L over the planned risk, summed as decimals (never a float sum: a thousand trades of
 * 1/3R add up to 333.33R, not 333.3299...) and rounded to two decimals, half away from zero, only at the end. Trades
 * without a planned risk are counted apart, never averaged in as 0R.
 */

export interface RTrade {
  tradeDate: CalendarDay;
  pnlCents: Cents;
  /** The planned risk in cents (src/domain/risk/planned-risk.ts); null, NaN or 0 is none. */
  riskCents: number | null;
  result: 'Win' | 'Loss' | 'BE';
}

export interface RTotals {
  trades: number;
  tradesWithRisk: number;
  /** "12 trades without a planned risk". */
  tradesWithoutRisk: number;
  /** Sum of the R of the trades with a planned risk; null when none has one. */
  totalR: number | null;
}

export interface RSummary extends RTotals {
  /** The average R of a trade with a planned risk. */
  expectancyR: number | null;
  averageWinR: number | null;
  averageLossR: number | null;
  /** Net P&L of the trades with a planned risk, in cents: what the R figures are of. */
  netCentsWithRisk: Cents;
  /** R won over R lost (the profit factor in R), two decimals; null without a losing trade with a planned risk. */
  profitFactorR: number | null;
}

const hasRisk = (risk: number | null): risk is number => risk !== null && risk > 0;
/** Two decimals, half away from zero, as R is shown; +0 for -0. */
export const toR = (sum: Decimal) => sum.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber() + 0;

/**
 * Sums R exactly and fast: the P&L of the trades that risked the same cents is added as integers, and only each
 * distinct risk's sum is divided, as a decimal (a trader risks a few amounts over and over: at 100,000 trades this is
 * a few hundred divisions, not 100,000).
 */
export class RAccumulator {
  trades = 0;
  withRisk = 0;
  wins = 0;
  losses = 0;
  net = 0;
  private readonly all = new Map<number, number>();
  private readonly won = new Map<number, number>();
  private readonly lost = new Map<number, number>();

  add(trade: RTrade) {
    this.addCents(trade.pnlCents, trade.riskCents, trade.result === 'Win' ? 1 : trade.result === 'Loss' ? 2 : 0);
  }

  /** `add` without a trade object, for loops over columns of 100,000 trades: `result` 1 a win, 2 a loss, else even. */
  addCents(pnlCents: number, riskCents: number | null, result: number) {
    this.trades++;
    if (!hasRisk(riskCents)) return;
    this.withRisk++;
    this.net += pnlCents;
    this.all.set(riskCents, (this.all.get(riskCents) ?? 0) + pnlCents);
    if (result === 1) {
      this.wins++;
      this.won.set(riskCents, (this.won.get(riskCents) ?? 0) + pnlCents);
    } else if (result === 2) {
      this.losses++;
      this.lost.set(riskCents, (this.lost.get(riskCents) ?? 0) + pnlCents);
    }
  }

  private static sum(byRisk: ReadonlyMap<number, number>): Decimal {
    let sum = new Decimal(0);
    for (const [risk, pnl] of byRisk) sum = sum.plus(new Decimal(pnl).dividedBy(risk));
    return sum;
  }

  /** The exact sum of the R of the trades with a planned risk (unrounded), for figures built on it (an average of periods). */
  exactTotalR(): Decimal {
    return RAccumulator.sum(this.all);
  }

  totals(): RTotals {
    return {
      trades: this.trades,
      tradesWithRisk: this.withRisk,
      tradesWithoutRisk: this.trades - this.withRisk,
      totalR: this.withRisk === 0 ? null : toR(RAccumulator.sum(this.all)),
    };
  }

  summary(): RSummary {
    return {
      ...this.totals(),
      expectancyR: this.withRisk === 0 ? null : toR(RAccumulator.sum(this.all).dividedBy(this.withRisk)),
      averageWinR: this.wins === 0 ? null : toR(RAccumulator.sum(this.won).dividedBy(this.wins)),
      averageLossR: this.losses === 0 ? null : toR(RAccumulator.sum(this.lost).dividedBy(this.losses)),
      netCentsWithRisk: this.net,
      profitFactorR: this.profitFactorR(),
    };
  }

  private profitFactorR(): number | null {
    const lost = RAccumulator.sum(this.lost).abs();
    return lost.isZero() ? null : toR(RAccumulator.sum(this.won).dividedBy(lost));
  }
}

export function summarizeR(trades: Iterable<RTrade>): RSummary {
  const all = new RAccumulator();
  for (const trade of trades) all.add(trade);
  return all.summary();
}

export interface RPeriods {
  summary: RSummary;
  /** Each trading day with a trade, ascending. */
  days: Array<RTotals & { tradeDate: CalendarDay }>;
  /** Each week (Sunday to Saturday, as the calendar shows them) with a trade, by the Sunday it starts on. */
  weeks: Array<RTotals & { weekStart: CalendarDay }>;
}

/** The whole, each day's and each week's R: the calendar's cells and week column (each total from the trades, not the rounded days). */
export function summarizeRPeriods(trades: Iterable<RTrade>): RPeriods {
  const all = new RAccumulator();
  const days = new Map<CalendarDay, RAccumulator>();
  const weeks = new Map<CalendarDay, RAccumulator>();
  const into = <K>(map: Map<K, RAccumulator>, key: K) => {
    let acc = map.get(key);
    if (!acc) map.set(key, (acc = new RAccumulator()));
    return acc;
  };
  // Trades come a day at a time (trading order): a day's and its week's accumulators are looked up once per day, not
  // per trade (100,000 trades: the week's date arithmetic was most of the time).
  let day: CalendarDay | undefined;
  let dayAcc = all;
  let weekAcc = all;
  for (const trade of trades) {
    all.add(trade);
    if (trade.tradeDate !== day) {
      day = trade.tradeDate;
      dayAcc = into(days, day);
      weekAcc = into(weeks, getStartOfWeekSunday(day));
    }
    dayAcc.add(trade);
    weekAcc.add(trade);
  }
  const sorted = <K extends string>(map: Map<K, RAccumulator>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    summary: all.summary(),
    days: sorted(days).map(([tradeDate, acc]) => ({ tradeDate, ...acc.totals() })),
    weeks: sorted(weeks).map(([weekStart, acc]) => ({ weekStart, ...acc.totals() })),
  };
}

/** What the R by day and week reads of a trader's trades (TradeColumns has them all). */
export interface RColumns {
  /** The distinct trading days, ascending; `day` is each row's index in it. */
  days: readonly CalendarDay[];
  day: ArrayLike<number>;
  /** Net P&L in cents. */
  pnl: ArrayLike<number>;
  /** 1 a win, 2 a loss, else even (RESULT in reports/report-trade.ts). */
  result: ArrayLike<number>;
}

/**
 * A figure in R to two decimals as `toR` rounds its exact (decimal) counterpart, from a float `value` that is at most
 * `error` from it; undefined when that leaves the rounding in doubt: next to a half hundredth (1/8R is 0.125R), where
 * the figure is summed again as decimals. The 1e-9 is far beyond the decimals' own error.
 */
export function roundWithin(value: number, error: number): number | undefined {
  const hundredths = Math.abs(value) * 100;
  if (!(hundredths < 2 ** 50)) return undefined;
  const whole = Math.floor(hundredths);
  const fraction = hundredths - whole;
  if (Math.abs(fraction - 0.5) <= error * 100 + hundredths * Number.EPSILON + 1e-9) return undefined;
  const rounded = fraction > 0.5 ? whole + 1 : whole;
  return (value < 0 ? -rounded : rounded) / 100 + 0;
}

/** A bound of the error of a float sum of `count` quotients whose sizes add up to `sizes` (~n x 2^-53 of it, twice over). */
export const sumError = (count: number, sizes: number) => (count + 4) * sizes * Number.EPSILON;

/** Float sums of R (and of their sizes, for their error): `RAccumulator`'s figures without a map per trade. */
class FloatR {
  trades = 0;
  withRisk = 0;
  wins = 0;
  losses = 0;
  net = 0;
  all = 0;
  allSizes = 0;
  won = 0;
  wonSizes = 0;
  lost = 0;
  lostSizes = 0;

  /** The summary `RAccumulator.summary` gives, or undefined when a figure's rounding is in doubt. */
  summary(): RSummary | undefined {
    const { withRisk, wins, losses } = this;
    const allError = sumError(withRisk, this.allSizes);
    const wonError = sumError(wins, this.wonSizes);
    const lostError = sumError(losses, this.lostSizes);
    const mean = (sum: number, error: number, count: number) => roundWithin(sum / count, error / count + Math.abs(sum / count) * Number.EPSILON);
    const totalR = withRisk === 0 ? null : roundWithin(this.all, allError);
    const expectancyR = withRisk === 0 ? null : mean(this.all, allError, withRisk);
    const averageWinR = wins === 0 ? null : mean(this.won, wonError, wins);
    const averageLossR = losses === 0 ? null : mean(this.lost, lostError, losses);
    let profitFactorR: number | null | undefined = null;
    if (Math.abs(this.lost) <= lostError || (this.won !== 0 && Math.abs(this.won) <= wonError)) profitFactorR = undefined;
    else if (this.lost !== 0) {
      const factor = this.won / Math.abs(this.lost);
      profitFactorR = roundWithin(
        factor,
        factor * (wonError / Math.max(Math.abs(this.won), Number.MIN_VALUE) + lostError / Math.abs(this.lost) + 2 * Number.EPSILON),
      );
    }
    // A loss side of exactly 0R (no loss with a plan) has no profit factor; the float sum of no quotient is 0 too.
    if (losses === 0) profitFactorR = null;
    if (totalR === undefined || expectancyR === undefined || averageWinR === undefined || averageLossR === undefined || profitFactorR === undefined)
      return undefined;
    return {
      trades: this.trades,
      tradesWithRisk: withRisk,
      tradesWithoutRisk: this.trades - withRisk,
      totalR,
      expectancyR,
      averageWinR,
      averageLossR,
      netCentsWithRisk: this.net,
      profitFactorR,
    };
  }
}

/**
 * `summarizeRPeriods` over the report copy's columns: the same figures, without an object per trade. `rows`
 * are the trades' indexes in trading order (a day's rows together, days ascending, as selectTrades gives them); `risk`
 * each trade's planned risk in cents by index (NaN or 0 without). Each figure is summed as floats when that rounds as
 * the exact sum (roundWithin), else again as decimals the way `summarizeRPeriods` sums it (a day's or week's rows are
 * a run of `rows`).
 */
export function summarizeRColumns(columns: RColumns, rows: ArrayLike<number>, risk: ArrayLike<number>): RPeriods {
  const all = new FloatR();
  const days: RPeriods['days'] = [];
  const weeks: RPeriods['weeks'] = [];
  /** The rows from k = from to to, summed as `summarizeRPeriods` sums them. */
  const exactly = (from: number, to: number) => {
    const acc = new RAccumulator();
    for (let k = from; k < to; k++) {
      const i = rows[k]!;
      acc.addCents(columns.pnl[i]!, risk[i]!, columns.result[i]!);
    }
    return acc;
  };
  const totalsOf = (from: number, to: number, withRisk: number, sum: number, sizes: number): RTotals => ({
    trades: to - from,
    tradesWithRisk: withRisk,
    tradesWithoutRisk: to - from - withRisk,
    totalR: withRisk === 0 ? null : (roundWithin(sum, sumError(withRisk, sizes)) ?? toR(exactly(from, to).exactTotalR())),
  });
  let dayIndex = -1;
  let dayFrom = 0;
  let daySum = 0;
  let daySizes = 0;
  let dayWithRisk = 0;
  let week: CalendarDay | null = null;
  let weekFrom = 0;
  let weekSum = 0;
  let weekSizes = 0;
  let weekWithRisk = 0;
  const n = rows.length;
  for (let k = 0; k <= n; k++) {
    const i = k < n ? rows[k]! : -1;
    const d = k < n ? columns.day[i]! : -1;
    if (d !== dayIndex) {
      if (k < n && d < dayIndex) throw new RangeError('summarizeRColumns: rows must be in trading order');
      if (dayIndex >= 0) days.push({ tradeDate: columns.days[dayIndex]!, ...totalsOf(dayFrom, k, dayWithRisk, daySum, daySizes) });
      const nextWeek = k < n ? getStartOfWeekSunday(columns.days[d]!) : null;
      if (nextWeek !== week) {
        if (week !== null) weeks.push({ weekStart: week, ...totalsOf(weekFrom, k, weekWithRisk, weekSum, weekSizes) });
        week = nextWeek;
        weekFrom = k;
        weekSum = weekSizes = weekWithRisk = 0;
      }
      dayIndex = d;
      dayFrom = k;
      daySum = daySizes = dayWithRisk = 0;
    }
    if (k === n) break;
    const pnl = columns.pnl[i]!;
    const r = risk[i]!;
    all.trades++;
    if (r > 0) {
      const R = pnl / r;
      const size = Math.abs(R);
      all.withRisk++;
      all.net += pnl;
      all.all += R;
      all.allSizes += size;
      const result = columns.result[i]!;
      if (result === 1) {
        all.wins++;
        all.won += R;
        all.wonSizes += size;
      } else if (result === 2) {
        all.losses++;
        all.lost += R;
        all.lostSizes += size;
      }
      daySum += R;
      daySizes += size;
      dayWithRisk++;
      weekSum += R;
      weekSizes += size;
      weekWithRisk++;
    }
  }
  return { summary: all.summary() ?? exactly(0, n).summary(), days, weeks };
}
