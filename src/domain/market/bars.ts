/**
 * Price bars: one per contract, resolution and bar start in each store (a trader's own uploads, or one provider's
 * feed). Times are epoch milliseconds (UTC) of the bar's start; prices are the decimal strings the database stores,
 * read as numbers only to compare them (an extreme is then taken back as its exact decimal).
 */

import { parseInstrument } from '../instruments';

/**
 * The contract bars are stored under, from what a file or the trader names: 'MNQ DEC25', 'mnqz25' and 'MNQZ5' are all
 * MNQZ5 (the importers' normalisation), anything else upper case.
 */
export function barContractOf(text: string): string {
  return parseInstrument(text).contract;
}

/**
 * The bars a trade reads: those of its contract (MNQZ5), or of its symbol when it has none (a manual trade's NQ). The
 * SQL in src/server/core/market/excursions.ts says the same: upper(trim(coalesce(nullif(contract, ''), symbol))).
 */
export function marketKeyOf(contract: string | null, symbol: string): string {
  const text = contract !== null && contract.trim() !== '' ? contract : symbol;
  return text.trim().toUpperCase();
}

/** Seconds per bar: 1-second and 1-minute bars are kept. */
export type Resolution = 1 | 60;
export const RESOLUTIONS: readonly Resolution[] = [1, 60];

export const RESOLUTION_LABELS: Readonly<Record<Resolution, string>> = { 1: '1-second', 60: '1-minute' };

export function isResolution(value: unknown): value is Resolution {
  return value === 1 || value === 60;
}

export interface Bar {
  /** Epoch ms of the bar's start. */
  start: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string | null;
}

export const periodMs = (resolution: Resolution) => resolution * 1000;

/** Index of the first bar whose start is at or after `time` (bars sorted by start); bars.length when none. */
export function firstAtOrAfter(bars: readonly Bar[], time: number): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bars[mid]!.start < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the last bar whose start is at or before `time`; -1 when none. */
export function lastAtOrBefore(bars: readonly Bar[], time: number): number {
  return firstAtOrAfter(bars, time + 1) - 1;
}

/**
 * Bars that overlap [from, to]: a bar [start, start + period) overlaps when it starts at or before `to` and ends after
 * `from`. As [first, end) indexes into `bars`.
 */
export function overlapping(bars: readonly Bar[], resolution: Resolution, from: number, to: number): [number, number] {
  const first = firstAtOrAfter(bars, from - periodMs(resolution) + 1);
  const end = firstAtOrAfter(bars, to + 1);
  return [first, Math.max(first, end)];
}

/** The start of the bar of `resolution` that holds `time`. */
export function barStartOf(time: number, resolution: Resolution): number {
  const period = periodMs(resolution);
  return Math.floor(time / period) * period;
}
