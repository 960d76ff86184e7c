import type { Cents } from '../cents';

/** `value / unit` rounded half away from zero, on integers only (cents are whole numbers, exact in a double). */
function roundedUnits(abs: number, unit: number): number {
  return Math.floor((abs + unit / 2) / unit);
}

/**
 * An amount for a phone's calendar cell (~32 px wide): '$421', '$1.8k', '$12k', '$1.3M'.
 * Rounded, never cut ($1,791.90 showed '$1.7k', a $7,190.30 week '$7.1k'), half away from zero as the
 * cents are. A figure that rounds up to the next size is written in that size ($999.60 is '$1.0k', $9,960 '$10k').
 * An amount that rounds to nothing is '$0' without a sign: a 40-cent loss is not '-$0'.
 */
export function formatCompactUsd(cents: Cents): string {
  const abs = Math.abs(cents);
  const dollars = roundedUnits(abs, 100);
  if (dollars === 0) return '$0';
  const sign = cents < 0 ? '-' : '';
  if (dollars < 1000) return `${sign}$${dollars}`;
  const tenthsOfK = roundedUnits(abs, 10_000);
  if (tenthsOfK < 100) return `${sign}$${Math.floor(tenthsOfK / 10)}.${tenthsOfK % 10}k`;
  const thousands = roundedUnits(abs, 100_000);
  if (thousands < 1000) return `${sign}$${thousands}k`;
  const tenthsOfM = roundedUnits(abs, 10_000_000);
  if (tenthsOfM < 100) return `${sign}$${Math.floor(tenthsOfM / 10)}.${tenthsOfM % 10}M`;
  return `${sign}$${roundedUnits(abs, 100_000_000)}M`;
}

/**
 * A day's win rate in a phone's calendar cell: whole percent ('67%', '100%'), the one-decimal rate rounded half up;
 * '—' when nothing was won or lost (the cell's `winRate` is then null).
 */
export function formatCompactWinRate(winRate: number | null): string {
  return winRate === null ? '—' : `${Math.round(winRate)}%`;
}
