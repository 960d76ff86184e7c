import type { DailyAggregate, TradeAggregate } from '../stats/trade-aggregate';
import { RESULT, type TradeSet } from './report-trade';

/**
 * The statistics' sums (src/domain/stats/trade-aggregate.ts: counts by result, net, gross profit and loss by the sign of
 * the net) over a set's rows, read from the columns. The definitions are the statistics'; a domain test holds these to
 * `aggregateTrades` and `aggregateTradesByDay` over the same trades.
 */
export function aggregateRows(set: TradeSet): TradeAggregate {
  const { result, pnl } = set.columns;
  let wins = 0;
  let losses = 0;
  let breakEvens = 0;
  let net = 0;
  let profit = 0;
  let loss = 0;
  for (const i of set.rows) {
    const r = result[i]!;
    if (r === RESULT.WIN) wins++;
    else if (r === RESULT.LOSS) losses++;
    else breakEvens++;
    const p = pnl[i]!;
    net += p;
    if (p > 0) profit += p;
    else if (p < 0) loss += p;
  }
  return { trades: set.rows.length, wins, losses, breakEvens, pnlCents: net, grossProfitCents: profit, grossLossCents: loss };
}

/** One aggregate per trading day, in day order (the rows are in trading order, so a day's rows are together). */
export function aggregateRowsByDay(set: TradeSet): DailyAggregate[] {
  const { day, days, result, pnl } = set.columns;
  const out: DailyAggregate[] = [];
  let current: DailyAggregate | null = null;
  let currentDay = -1;
  for (const i of set.rows) {
    if (day[i] !== currentDay) {
      currentDay = day[i]!;
      current = { date: days[currentDay]!, trades: 0, wins: 0, losses: 0, breakEvens: 0, pnlCents: 0, grossProfitCents: 0, grossLossCents: 0 };
      out.push(current);
    }
    const c = current!;
    c.trades++;
    const r = result[i]!;
    if (r === RESULT.WIN) c.wins++;
    else if (r === RESULT.LOSS) c.losses++;
    else c.breakEvens++;
    const p = pnl[i]!;
    c.pnlCents += p;
    if (p > 0) c.grossProfitCents += p;
    else if (p < 0) c.grossLossCents += p;
  }
  return out;
}

/** The rows' values of a column, in order. */
export function gather(set: TradeSet, column: Float64Array): Float64Array {
  const out = new Float64Array(set.rows.length);
  for (let k = 0; k < set.rows.length; k++) out[k] = column[set.rows[k]!]!;
  return out;
}

export function gatherResults(set: TradeSet): Uint8Array {
  const out = new Uint8Array(set.rows.length);
  for (let k = 0; k < set.rows.length; k++) out[k] = set.columns.result[set.rows[k]!]!;
  return out;
}

/**
 * The longest runs of wins and of losses in the rows' order, as calculateStreaks (src/domain/stats/streaks.ts) counts
 * them (a break-even ends a run), read from the result codes: at 100,000 trades a list of their names cost 5 ms more.
 */
export function countStreaks(set: TradeSet): { maxWinStreak: number; maxLossStreak: number } {
  const { result } = set.columns;
  let maxWinStreak = 0;
  let maxLossStreak = 0;
  let runCode: number = RESULT.BE;
  let runLength = 0;
  for (const i of set.rows) {
    const code = result[i]!;
    if (code === RESULT.BE) {
      runCode = RESULT.BE;
      runLength = 0;
      continue;
    }
    runLength = code === runCode ? runLength + 1 : 1;
    runCode = code;
    if (code === RESULT.WIN) maxWinStreak = Math.max(maxWinStreak, runLength);
    else maxLossStreak = Math.max(maxLossStreak, runLength);
  }
  return { maxWinStreak, maxLossStreak };
}

/**
 * Sums per group for a breakdown, heatmap cell or bucket: arrays indexed by group, filled row by row (`add`), the same
 * sums as a TradeAggregate per group.
 */
export class GroupSums {
  readonly trades: Float64Array;
  readonly wins: Float64Array;
  readonly losses: Float64Array;
  readonly net: Float64Array;
  readonly profit: Float64Array;
  readonly loss: Float64Array;
  /** Commissions and fees per group, absolute cents (a trade's gross P&L is its net plus its fees). */
  readonly fees: Float64Array;

  constructor(readonly groups: number) {
    this.trades = new Float64Array(groups);
    this.wins = new Float64Array(groups);
    this.losses = new Float64Array(groups);
    this.net = new Float64Array(groups);
    this.profit = new Float64Array(groups);
    this.loss = new Float64Array(groups);
    this.fees = new Float64Array(groups);
  }

  add(group: number, result: number, pnl: number, fee = 0) {
    this.trades[group]!++;
    if (result === RESULT.WIN) this.wins[group]!++;
    else if (result === RESULT.LOSS) this.losses[group]!++;
    this.net[group]! += pnl;
    if (pnl > 0) this.profit[group]! += pnl;
    else if (pnl < 0) this.loss[group]! += pnl;
    this.fees[group]! += fee;
  }

  aggregate(group: number): TradeAggregate {
    const trades = this.trades[group]!;
    const wins = this.wins[group]!;
    const losses = this.losses[group]!;
    return {
      trades,
      wins,
      losses,
      breakEvens: trades - wins - losses,
      pnlCents: this.net[group]!,
      grossProfitCents: this.profit[group]!,
      grossLossCents: this.loss[group]!,
    };
  }
}

/** The run of wins or losses the rows end on (the trader's current streak); a break-even last means none. */
export function currentStreak(set: TradeSet): { result: 'Win' | 'Loss' | null; length: number } {
  const { result } = set.columns;
  const { rows } = set;
  const last = rows.length > 0 ? result[rows[rows.length - 1]!]! : RESULT.BE;
  if (last === RESULT.BE) return { result: null, length: 0 };
  let length = 0;
  for (let k = rows.length - 1; k >= 0 && result[rows[k]!] === last; k--) length++;
  return { result: last === RESULT.WIN ? 'Win' : 'Loss', length };
}
