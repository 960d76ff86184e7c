import { firstAtOrAfter, periodMs, type Bar, type Resolution } from './bars';
import type { MarketKind } from '../instruments';
import { isMarketClosed } from '../market-time';

/**
 * Whether bars cover a stretch of time, minute by minute. A figure computed from bars (MAE, MFE, the best exit, the
 * exit analysis) is only as good as its worst minute: a minute without a bar may have held the trade's best or worst
 * price, so no hole is computed over, however short. What a minute needs:
 *
 * - 1-minute bars: that minute's bar.
 * - 1-second bars: at least one bar in the part of the minute the stretch covers. Seconds without a trade have no bar
 *   by the nature of the data; a whole minute without one is a hole in the file, not a quiet market.
 * - A minute while the market is closed (domain/market-time) needs nothing.
 * - A minute inside a stretch the source vouches for (`quiet`: the trader confirmed, for an upload of a source known to
 *   leave out minutes without trades, such as Databento's OHLCV) needs nothing either: nothing traded in it. Those
 *   minutes are counted, so the figures can say they rest on that confirmation.
 */

const MINUTE = 60_000;

export interface MissingRange {
  /** Epoch ms: where the missing stretch starts (a minute's start, or the start of what was asked). */
  from: number;
  /** Epoch ms: where it ends (the end of its last minute, or the end of what was asked). */
  to: number;
}

/** Stretches in which a minute without a bar is vouched to be a minute without trades. */
export type QuietRanges = readonly MissingRange[];

export interface Coverage {
  /** The stretches without bars, clipped to what was asked; empty when every minute is covered. */
  missing: MissingRange[];
  /** Minutes without a bar taken as minutes without trades (inside a quiet stretch). */
  quietMinutes: number;
}

/** Whether `time` falls inside one of the quiet stretches. */
export function isQuiet(quiet: QuietRanges, time: number): boolean {
  for (const range of quiet) if (time >= range.from && time < range.to) return true;
  return false;
}

/** Whether a bar of the series overlaps [from, to] (a bar [start, start + period) overlaps when start <= to and its end > from). */
export function hasBarWithin(bars: readonly Bar[], resolution: Resolution, from: number, to: number): boolean {
  const index = firstAtOrAfter(bars, from - periodMs(resolution) + 1);
  return index < bars.length && bars[index]!.start <= to;
}

/**
 * Minute by minute, which parts of [from, to] have no bar (see the rules above). The first and last minutes count for
 * the part of them inside [from, to], as the figures count the bars that overlap it.
 */
export function coverageOf(
  bars: readonly Bar[],
  resolution: Resolution,
  from: number,
  to: number,
  kind: MarketKind,
  quiet: QuietRanges = [],
): Coverage {
  const missing: MissingRange[] = [];
  let quietMinutes = 0;
  if (to < from) return { missing, quietMinutes };
  for (let minute = Math.floor(from / MINUTE) * MINUTE; minute <= to; minute += MINUTE) {
    const start = Math.max(minute, from);
    const end = Math.min(minute + MINUTE, to);
    if (isMarketClosed(minute, kind)) continue;
    // The minute is [minute, minute + 1 min): its last instant is a millisecond before the next minute starts.
    if (hasBarWithin(bars, resolution, start, Math.min(end, minute + MINUTE - 1))) continue;
    if (isQuiet(quiet, minute)) {
      quietMinutes++;
      continue;
    }
    const last = missing[missing.length - 1];
    if (last && last.to === start) last.to = end;
    else missing.push({ from: start, to: end });
  }
  return { missing, quietMinutes };
}

/** The stretches of [from, to] without bars (coverageOf's), empty when every minute is covered. */
export function findMissingBars(
  bars: readonly Bar[],
  resolution: Resolution,
  from: number,
  to: number,
  kind: MarketKind,
  quiet: QuietRanges = [],
): MissingRange[] {
  return coverageOf(bars, resolution, from, to, kind, quiet).missing;
}
