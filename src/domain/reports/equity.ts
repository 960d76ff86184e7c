import type { Cents } from '../cents';
import type { CalendarDay } from '../dates/calendar-day';
import { aggregateRowsByDay } from './aggregate-rows';
import { dayOf, type TradeSet } from './report-trade';

/**
 * Equity (issue 26 point 3): cumulative net P&L trade by trade and day by day, each point with its drawdown, the
 * distance below the running peak ("underwater"; 0 at a new high, negative below it). The curve starts at 0, the
 * range's opening, which counts as a peak.
 */
export interface EquityPoint {
  /** Trade number (1 = the first trade) or the day's position. */
  index: number;
  tradeDate: CalendarDay;
  equityCents: Cents;
  drawdownCents: Cents;
}

export interface EquitySeries {
  /** Points by trade: every trade up to `maxPoints`, beyond it a shape-keeping sample (see `sampleEquity`). */
  byTrade: EquityPoint[];
  byDay: EquityPoint[];
  trades: number;
  days: number;
  /** Whether byTrade holds fewer points than there were trades. */
  sampled: boolean;
}

/** Cumulative sums and their drawdown, in order: point k is after step k (`pnl[k]` on day `dayOf(k)`). */
export function buildEquityPoints(pnl: ArrayLike<number>, dayOf: (k: number) => CalendarDay, keep?: ArrayLike<number>): EquityPoint[] {
  const points: EquityPoint[] = [];
  let equity = 0;
  let peak = 0;
  let next = 0;
  for (let k = 0; k < pnl.length; k++) {
    equity += pnl[k]!;
    if (equity > peak) peak = equity;
    if (keep === undefined || keep[next] === k) {
      points.push({ index: k + 1, tradeDate: dayOf(k), equityCents: equity, drawdownCents: equity - peak });
      next++;
    }
  }
  return points;
}

/**
 * The steps of a long curve to draw, at most about `maxPoints`, that keep its shape: the steps are cut into buckets, and
 * of each bucket the first, the highest, the lowest, the deepest under water and the last are kept, in order. No peak,
 * no trough and no drawdown low is lost, so the chart's extremes are the real ones. Returns the kept steps' indexes.
 */
export function sampleEquitySteps(pnl: ArrayLike<number>, maxPoints: number): Uint32Array {
  const n = pnl.length;
  if (n <= maxPoints) return Uint32Array.from({ length: n }, (_, k) => k);
  const equity = new Float64Array(n);
  const drawdown = new Float64Array(n);
  let running = 0;
  let peak = 0;
  for (let k = 0; k < n; k++) {
    running += pnl[k]!;
    if (running > peak) peak = running;
    equity[k] = running;
    drawdown[k] = running - peak;
  }
  const buckets = Math.max(1, Math.floor(maxPoints / 5));
  const size = Math.ceil(n / buckets);
  const kept: number[] = [];
  for (let start = 0; start < n; start += size) {
    const end = Math.min(n, start + size);
    let high = start;
    let low = start;
    let deepest = start;
    for (let k = start; k < end; k++) {
      if (equity[k]! > equity[high]!) high = k;
      if (equity[k]! < equity[low]!) low = k;
      if (drawdown[k]! < drawdown[deepest]!) deepest = k;
    }
    for (const k of [...new Set([start, high, low, deepest, end - 1])].sort((a, b) => a - b)) kept.push(k);
  }
  return Uint32Array.from(kept);
}

/** Both curves of a set of trades (in trading order). */
export function computeEquity(set: TradeSet, maxPoints = 1500): EquitySeries {
  const { columns: c, rows } = set;
  const pnl = new Float64Array(rows.length);
  for (let k = 0; k < rows.length; k++) pnl[k] = c.pnl[rows[k]!]!;
  const keep = sampleEquitySteps(pnl, maxPoints);
  const byTrade = buildEquityPoints(pnl, (k) => dayOf(c, rows[k]!), keep);
  const days = aggregateRowsByDay(set);
  const byDay = buildEquityPoints(
    days.map((d) => d.pnlCents),
    (k) => days[k]!.date,
  );
  return { byTrade, byDay, trades: rows.length, days: days.length, sampled: byTrade.length < rows.length };
}

/** At most about `maxPoints` of a curve's points, by the same shape-keeping rule (a table of a long curve). */
export function sampleEquity(points: readonly EquityPoint[], maxPoints: number): EquityPoint[] {
  const steps = points.map((p, k) => p.equityCents - (k === 0 ? 0 : points[k - 1]!.equityCents));
  return Array.from(sampleEquitySteps(steps, maxPoints), (k) => points[k]!);
}
