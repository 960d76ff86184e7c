import { overlapping, periodMs, type Bar, type Resolution } from './bars';
import type { MarketKind } from '../instruments';
import { openMillisBetween } from '../market-time';

/**
 * How long the market may go without a bar before the bars count as missing ("a gap larger than a
 * few bar periods"). A bar exists only where something traded: a quiet minute of a micro contract has none, and
 * quiet seconds are the rule, not the exception, so 1-second bars get a minute and 1-minute bars five minutes.
 * Time while the market is closed (domain/market-time) does not count.
 */
export const GAP_TOLERANCE_MS: Readonly<Record<Resolution, number>> = { 1: 60_000, 60: 5 * 60_000 };

export interface MissingRange {
  /** Epoch ms: the end of the last bar before the gap (or the start of what was asked). */
  from: number;
  /** Epoch ms: the start of the next bar (or the end of what was asked). */
  to: number;
}

/**
 * The stretches of [from, to] whose bars are missing: open-market gaps between bars longer than the tolerance, and
 * all of it when no bar overlaps it (a trade needs at least one bar of its own). Empty when the bars cover it.
 */
export function findMissingBars(bars: readonly Bar[], resolution: Resolution, from: number, to: number, kind: MarketKind): MissingRange[] {
  const [first, end] = overlapping(bars, resolution, from, to);
  if (first === end) return [{ from, to }];
  const tolerance = GAP_TOLERANCE_MS[resolution];
  const period = periodMs(resolution);
  const missing: MissingRange[] = [];
  let covered = from;
  for (let i = first; i < end; i++) {
    const bar = bars[i]!;
    if (bar.start > covered && openMillisBetween(covered, bar.start, kind, tolerance + 1) > tolerance) missing.push({ from: covered, to: bar.start });
    covered = Math.max(covered, bar.start + period);
  }
  if (to > covered && openMillisBetween(covered, to, kind, tolerance + 1) > tolerance) missing.push({ from: covered, to });
  return missing;
}
