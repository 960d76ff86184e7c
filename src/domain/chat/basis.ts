import { formatShortDay } from '../dates/calendar-day';

/** What an answer's figures were computed from: how many trades, their first and last trading days, the filters. */
export interface Basis {
  trades: number;
  from: string | null;
  to: string | null;
  filters: readonly string[];
}

const dayLabel = (day: string) => `${formatShortDay(day)}, ${day.slice(0, 4)}`;

/**
 * The line under an answer: 'computed from 412 trades, Jun 2, 2026 to Jun 30, 2026 (NQ, AM session)'. One wording for
 * the question's trade context and every tool, so that two sources over the same trades read the same and the answer
 * prints the line once ('Computed from 2 trades (all time, Nov 26, 2026)' stood above 'Computed from 2
 * trades, Nov 26, 2026').
 */
export function describeBasis({ trades, from, to, filters }: Basis): string {
  const span = from && to ? (from === to ? `, ${dayLabel(from)}` : `, ${dayLabel(from)} to ${dayLabel(to)}`) : '';
  return `computed from ${trades} trade${trades === 1 ? '' : 's'}${span}${filters.length ? ` (${filters.join(', ')})` : ''}`;
}
