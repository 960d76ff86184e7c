import type { Cents } from '../cents';
import type { CalendarDay } from '../dates/calendar-day';
import { aggregateTradesByDay } from '../stats/trade-aggregate';

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

/** Cumulative sums and their drawdown, in order. */
export function buildEquityPoints(steps: readonly { tradeDate: CalendarDay; pnlCents: Cents }[]): EquityPoint[] {
  const points: EquityPoint[] = [];
  let equity = 0;
  let peak = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    equity += step.pnlCents;
    if (equity > peak) peak = equity;
    points.push({ index: i + 1, tradeDate: step.tradeDate, equityCents: equity, drawdownCents: equity - peak });
  }
  return points;
}

/**
 * At most about `maxPoints` of a long curve that keep its shape: the points are cut into buckets, and of each bucket
 * the first, the highest, the lowest, the deepest under water and the last are kept, in order. No peak, no trough and
 * no drawdown low is lost, so the chart's extremes are the real ones.
 */
export function sampleEquity(points: readonly EquityPoint[], maxPoints: number): EquityPoint[] {
  if (points.length <= maxPoints) return [...points];
  const perBucket = 5;
  const buckets = Math.max(1, Math.floor(maxPoints / perBucket));
  const size = Math.ceil(points.length / buckets);
  const kept: EquityPoint[] = [];
  for (let start = 0; start < points.length; start += size) {
    const end = Math.min(points.length, start + size);
    let high = start;
    let low = start;
    let deepest = start;
    for (let i = start; i < end; i++) {
      if (points[i]!.equityCents > points[high]!.equityCents) high = i;
      if (points[i]!.equityCents < points[low]!.equityCents) low = i;
      if (points[i]!.drawdownCents < points[deepest]!.drawdownCents) deepest = i;
    }
    for (const i of [...new Set([start, high, low, deepest, end - 1])].sort((a, b) => a - b)) kept.push(points[i]!);
  }
  return kept;
}

/** Both curves of trades given in trading order. */
export function computeEquity(trades: readonly { tradeDate: CalendarDay; pnlCents: Cents; status: string }[], maxPoints = 1500): EquitySeries {
  const byTradeAll = buildEquityPoints(trades);
  const days = aggregateTradesByDay(trades);
  const byDay = buildEquityPoints(days.map((d) => ({ tradeDate: d.date, pnlCents: d.pnlCents })));
  const byTrade = sampleEquity(byTradeAll, maxPoints);
  return { byTrade, byDay, trades: trades.length, days: days.length, sampled: byTrade.length < byTradeAll.length };
}
