import type { Cents } from '../cents';
import { addDays, differenceInDays, getStartOfWeekMonday, type CalendarDay } from '../dates/calendar-day';
import { getMinuteOfDay } from '../dates/clock';
import type { DailyAggregate } from '../stats/trade-aggregate';
import { aggregateRowsByDay } from './aggregate-rows';
import { labelBreakdownKey } from './breakdown';
import { computeEquityR } from './equity';
import { UNASSIGNED } from './filter';
import { toPercent } from './formulas';
import { RESULT, type TradeSet } from './report-trade';

/**
 * Depth figures of a filter's trades: P&L by week, by time of entry in 15- or 30-minute buckets, drawdown as figures,
 * streaks of winning and losing days, and the ratios (Sortino, SQN, Kelly). Money is summed in integer cents; the ratios
 * are computed from cents and are null where they are not defined (never Infinity or NaN).
 */

export interface WeekFigure {
  /** The Monday that opens the week (a week across a month end is one week). */
  weekStart: CalendarDay;
  /** Its last day, Sunday. */
  weekEnd: CalendarDay;
  tradingDays: number;
  trades: number;
  netCents: Cents;
}

/** Net P&L by week, Monday to Sunday, of the weeks with trades, oldest first (`days`: the set's days, when already summed). */
export function computePnlByWeek(set: TradeSet, days: readonly DailyAggregate[] = aggregateRowsByDay(set)): WeekFigure[] {
  const out: WeekFigure[] = [];
  for (const day of days) {
    const weekStart = getStartOfWeekMonday(day.date);
    let week = out[out.length - 1];
    if (!week || week.weekStart !== weekStart) {
      week = { weekStart, weekEnd: addDays(weekStart, 6), tradingDays: 0, trades: 0, netCents: 0 };
      out.push(week);
    }
    week.tradingDays++;
    week.trades += day.trades;
    week.netCents += day.pnlCents;
  }
  return out;
}

export interface TimeBucket {
  /** Minutes after midnight on the trader's clock where the bucket opens. */
  fromMinute: number;
  /** '09:30-09:45' */
  label: string;
  trades: number;
  wins: number;
  losses: number;
  netCents: Cents;
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/**
 * Net P&L by the time of entry on the trader's clock, in buckets of `minutes` (15 or 30), those with trades in time
 * order; `excluded` counts trades without an entry time.
 */
export function computeTimeBuckets(set: TradeSet, minutes: 15 | 30, timeZone: string): { buckets: TimeBucket[]; excluded: number } {
  const { entry, result, pnl } = set.columns;
  const byStart = new Map<number, TimeBucket>();
  let excluded = 0;
  for (const i of set.rows) {
    const ms = entry[i]!;
    if (Number.isNaN(ms)) {
      excluded++;
      continue;
    }
    const from = Math.floor(getMinuteOfDay(ms, timeZone) / minutes) * minutes;
    let bucket = byStart.get(from);
    if (!bucket) {
      bucket = { fromMinute: from, label: bucketLabel(from, minutes), trades: 0, wins: 0, losses: 0, netCents: 0 };
      byStart.set(from, bucket);
    }
    bucket.trades++;
    if (result[i] === RESULT.WIN) bucket.wins++;
    else if (result[i] === RESULT.LOSS) bucket.losses++;
    bucket.netCents += pnl[i]!;
  }
  return { buckets: [...byStart.values()].sort((a, b) => a.fromMinute - b.fromMinute), excluded };
}

const bucketLabel = (from: number, minutes: number) => `${hhmm(from)}-${hhmm(from + minutes)}`;

/** Buckets of 30 minutes from those of 15 (each the sum of its two halves): the trades are read once for both. */
export function mergeTimeBuckets(fifteen: { buckets: readonly TimeBucket[]; excluded: number }): { buckets: TimeBucket[]; excluded: number } {
  const byStart = new Map<number, TimeBucket>();
  for (const quarter of fifteen.buckets) {
    const from = Math.floor(quarter.fromMinute / 30) * 30;
    const bucket = byStart.get(from);
    if (!bucket) byStart.set(from, { ...quarter, fromMinute: from, label: bucketLabel(from, 30) });
    else {
      bucket.trades += quarter.trades;
      bucket.wins += quarter.wins;
      bucket.losses += quarter.losses;
      bucket.netCents += quarter.netCents;
    }
  }
  return { buckets: [...byStart.values()].sort((a, b) => a.fromMinute - b.fromMinute), excluded: fifteen.excluded };
}

export interface DrawdownFigures {
  /** The largest fall of the cumulative net P&L (by trading day) from a peak, as a positive amount; 0 without one. */
  maxDrawdownCents: Cents;
  /** How far the last day is below the highest peak before it; 0 at a new high. */
  currentDrawdownCents: Cents;
  /**
   * The longest time under water in calendar days (weekends and holidays count): from the day a peak was set to the
   * day the cumulative P&L first reached it again, or to the last trading day while still under.
   */
  longestUnderwaterDays: number;
  /** Still under water: the days since the peak, to the last trading day; 0 at a new high. */
  currentUnderwaterDays: number;
  /** Net P&L over the maximum drawdown; null without a drawdown (not defined). */
  recoveryFactor: number | null;
  netCents: Cents;
}

/**
 * Drawdown of the cumulative net P&L by trading day, from 0 before the first day. Time under water runs from the last
 * day at the peak (the first trading day, for a fall from the start) to the day the peak is reached again.
 */
export function computeDrawdownFigures(days: readonly Pick<DailyAggregate, 'date' | 'pnlCents'>[]): DrawdownFigures {
  let equity = 0;
  let peak = 0;
  let peakDay: CalendarDay | null = days[0]?.date ?? null;
  let under = false;
  let maxDrawdown = 0;
  let longest = 0;
  for (const day of days) {
    equity += day.pnlCents;
    if (equity >= peak) {
      if (under) longest = Math.max(longest, differenceInDays(day.date, peakDay!));
      under = false;
      peak = equity;
      peakDay = day.date;
    } else {
      under = true;
      maxDrawdown = Math.max(maxDrawdown, peak - equity);
    }
  }
  const last = days[days.length - 1];
  const currentDays = under && last ? differenceInDays(last.date, peakDay!) : 0;
  return {
    maxDrawdownCents: maxDrawdown,
    currentDrawdownCents: peak - equity,
    longestUnderwaterDays: Math.max(longest, currentDays),
    currentUnderwaterDays: currentDays,
    recoveryFactor: maxDrawdown > 0 ? equity / maxDrawdown : null,
    netCents: equity,
  };
}

export interface DayStreaks {
  longestWinningDays: number;
  longestLosingDays: number;
  /** The streak the last trading day belongs to: winning or losing days, and how many; a flat day ends both. */
  current: { kind: 'winning' | 'losing' | null; days: number };
}

/** Streaks of winning days (net above 0) and losing days (below 0), in day order; a flat day breaks both. */
export function computeDayStreaks(days: readonly Pick<DailyAggregate, 'pnlCents'>[]): DayStreaks {
  let win = 0;
  let loss = 0;
  let longestWin = 0;
  let longestLoss = 0;
  for (const day of days) {
    if (day.pnlCents > 0) {
      win++;
      loss = 0;
    } else if (day.pnlCents < 0) {
      loss++;
      win = 0;
    } else {
      win = 0;
      loss = 0;
    }
    longestWin = Math.max(longestWin, win);
    longestLoss = Math.max(longestLoss, loss);
  }
  return {
    longestWinningDays: longestWin,
    longestLosingDays: longestLoss,
    current: win > 0 ? { kind: 'winning', days: win } : loss > 0 ? { kind: 'losing', days: loss } : { kind: null, days: 0 },
  };
}

export interface RatioFigures {
  /**
   * Mean daily net P&L over the downside deviation (the root mean square of the losing days' amounts, over every
   * trading day), not annualised; null without a losing day (not defined).
   */
  sortino: number | null;
  /** System quality number: the square root of the trades times their mean net P&L over its standard deviation. */
  sqn: number | null;
  /** The trades SQN was computed from (it means little under 30 or so). */
  sqnSample: number;
  /**
   * Kelly fraction from the win rate W and the payoff ratio R (average win over average loss): W - (1 - W) / R. A
   * share of the account to risk a trade, by the formula, not advice; null without both wins and losses.
   */
  kelly: number | null;
}

/** Sortino over trading days, SQN and Kelly over trades: sums of cents in integers, one division at the end. */
export function computeRatioFigures(set: TradeSet, days: readonly DailyAggregate[] = aggregateRowsByDay(set)): RatioFigures {
  // Sortino: sums of integer cents and of their squares (exact in doubles up to ~9e15 cents squared in total).
  let dayNet = 0;
  let downsideSquares = 0;
  let losingDays = 0;
  for (const day of days) {
    dayNet += day.pnlCents;
    if (day.pnlCents < 0) {
      losingDays++;
      downsideSquares += day.pnlCents * day.pnlCents;
    }
  }
  const sortino = losingDays > 0 ? dayNet / days.length / Math.sqrt(downsideSquares / days.length) : null;

  const { pnl, result } = set.columns;
  const n = set.rows.length;
  let sum = 0;
  let wins = 0;
  let losses = 0;
  let winSum = 0;
  let lossSum = 0;
  for (const i of set.rows) {
    const p = pnl[i]!;
    sum += p;
    if (result[i] === RESULT.WIN && p > 0) {
      wins++;
      winSum += p;
    } else if (result[i] === RESULT.LOSS && p < 0) {
      losses++;
      lossSum -= p;
    }
  }
  let sqn: number | null = null;
  if (n >= 2) {
    const mean = sum / n;
    let squares = 0;
    for (const i of set.rows) squares += (pnl[i]! - mean) ** 2;
    const sd = Math.sqrt(squares / (n - 1));
    sqn = sd > 0 ? (Math.sqrt(n) * mean) / sd : null;
  }
  const decided = wins + losses;
  const kelly = wins > 0 && losses > 0 ? wins / decided - losses / decided / (winSum / wins / (lossSum / losses)) : null;
  return { sortino, sqn, sqnSample: n, kelly };
}

/** Drawdown in R: of the cumulative R (by trading day) of the trades with a planned risk, the others counted apart. */
export interface DrawdownInR {
  /** The largest fall from a peak, a positive number of R; null without a trade with a planned risk. */
  maxDrawdownR: number | null;
  /** How far the last day is below the highest peak before it; null as above. */
  currentDrawdownR: number | null;
  tradesWithRisk: number;
  tradesWithoutRisk: number;
}

/** Drawdown in R of a set, from the equity curve in R by day (its exact sums). */
export function computeDrawdownInR(set: TradeSet, risk: Float64Array): DrawdownInR {
  // One point by trade is enough: only the curve by day is read.
  const curve = computeEquityR(set, risk, 1);
  if (curve.byDay.length === 0) return { maxDrawdownR: null, currentDrawdownR: null, tradesWithRisk: 0, tradesWithoutRisk: curve.tradesWithoutRisk };
  let deepest = 0;
  for (const point of curve.byDay) deepest = Math.min(deepest, point.drawdownR);
  return {
    maxDrawdownR: -deepest + 0,
    currentDrawdownR: -curve.byDay[curve.byDay.length - 1]!.drawdownR + 0,
    tradesWithRisk: curve.tradesWithRisk,
    tradesWithoutRisk: curve.tradesWithoutRisk,
  };
}

/** A drawdown as a share of a starting balance, in percent to a tenth; null without a balance above 0 (no share to give). */
export const drawdownPercent = (drawdownCents: Cents, startingBalanceCents: Cents | null): number | null =>
  startingBalanceCents !== null && startingBalanceCents > 0 ? toPercent(drawdownCents, startingBalanceCents) : null;

/** One account's drawdown: the figures of its own trades in the filter, in R, and as a share of its starting balance. */
export interface AccountDrawdown extends DrawdownFigures {
  /** The account's id as the filter writes it ('unassigned' for trades without an account). */
  key: string;
  label: string;
  trades: number;
  /** Null for trades without an account, or an account without a starting balance. */
  startingBalanceCents: Cents | null;
  maxDrawdownPercent: number | null;
  currentDrawdownPercent: number | null;
  r: DrawdownInR;
}

export interface DepthContext {
  /** Every trade's planned risk in cents, NaN without (the trader's defaults applied); the trades' own plans when left out. */
  risk?: Float64Array;
  /** Each account's starting balance in cents, by id; an account not here has none. */
  startingBalances?: ReadonlyMap<string, Cents>;
  accountName?: (id: string) => string | undefined;
  /** The accounts the filter names: each has a row, with or without trades in the set. */
  accounts?: readonly string[];
}

/**
 * Drawdown per account: one row per account of the filter (or per account with trades in the set when the filter
 * names none), each from that account's trades alone, in the order of the trader's account names.
 */
export function computeAccountDrawdowns(set: TradeSet, context: DepthContext = {}): AccountDrawdown[] {
  const c = set.columns;
  const risk = context.risk ?? c.ownRisk;
  const rowsByAccount = new Map<string, number[]>();
  for (const id of context.accounts ?? []) rowsByAccount.set(id, []);
  for (const i of set.rows) {
    const key = c.account.values[c.account.codes[i]!] ?? UNASSIGNED;
    let rows = rowsByAccount.get(key);
    if (!rows) rowsByAccount.set(key, (rows = []));
    rows.push(i);
  }
  const out: AccountDrawdown[] = [];
  for (const [key, rows] of rowsByAccount) {
    const own: TradeSet = { columns: c, rows: Uint32Array.from(rows) };
    const figures = computeDrawdownFigures(aggregateRowsByDay(own));
    const balance = key === UNASSIGNED ? null : (context.startingBalances?.get(key) ?? null);
    out.push({
      key,
      label: labelBreakdownKey('account', key, context.accountName),
      trades: rows.length,
      ...figures,
      startingBalanceCents: balance,
      maxDrawdownPercent: drawdownPercent(figures.maxDrawdownCents, balance),
      currentDrawdownPercent: drawdownPercent(figures.currentDrawdownCents, balance),
      r: computeDrawdownInR(own, risk),
    });
  }
  // Unassigned trades last; the accounts by name.
  return out.sort((a, b) => Number(a.key === UNASSIGNED) - Number(b.key === UNASSIGNED) || a.label.localeCompare(b.label));
}

export interface DepthReport {
  weeks: WeekFigure[];
  buckets15: { buckets: TimeBucket[]; excluded: number };
  buckets30: { buckets: TimeBucket[]; excluded: number };
  drawdown: DrawdownFigures;
  /** The set's drawdown in R. */
  drawdownR: DrawdownInR;
  /**
   * The set's drawdown as a share of its accounts' starting balances added up; null when a trade has no account or an
   * account has no starting balance (a share of part of the money would read as the whole's).
   */
  drawdownPercent: { startingBalanceCents: Cents | null; maxDrawdownPercent: number | null; currentDrawdownPercent: number | null };
  accounts: AccountDrawdown[];
  streaks: DayStreaks;
  ratios: RatioFigures;
}

/** Every depth figure of a filter's trades. */
export function computeDepth(set: TradeSet, timeZone: string, context: DepthContext = {}): DepthReport {
  // The days are summed once and shared by every figure made of them.
  const days = aggregateRowsByDay(set);
  const buckets15 = computeTimeBuckets(set, 15, timeZone);
  const drawdown = computeDrawdownFigures(days);
  const accounts = computeAccountDrawdowns(set, context);
  let startingBalanceCents: Cents | null = accounts.length > 0 ? 0 : null;
  for (const account of accounts)
    startingBalanceCents =
      startingBalanceCents === null || account.startingBalanceCents === null ? null : startingBalanceCents + account.startingBalanceCents;
  return {
    weeks: computePnlByWeek(set, days),
    buckets15,
    buckets30: mergeTimeBuckets(buckets15),
    drawdown,
    drawdownR: computeDrawdownInR(set, context.risk ?? set.columns.ownRisk),
    drawdownPercent: {
      startingBalanceCents,
      maxDrawdownPercent: drawdownPercent(drawdown.maxDrawdownCents, startingBalanceCents),
      currentDrawdownPercent: drawdownPercent(drawdown.currentDrawdownCents, startingBalanceCents),
    },
    accounts,
    streaks: computeDayStreaks(days),
    ratios: computeRatioFigures(set, days),
  };
}
