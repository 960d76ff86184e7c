import type { Cents } from '../money';

/**
 * The daily journal's day list: trading days newest
 * first, each with the day's summed P&L, and also days that have a journal note but no trades. A day is the trade's
 * stored trading day (trade_date), as the PnL calendar counts it.
 */
export interface TradingDayTotal {
  /** yyyy-MM-dd */
  date: string;
  trades: number;
  pnlCents: Cents;
}

export interface JournalDay extends TradingDayTotal {
  hasNote: boolean;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Merges trading days and journal-note days into one list, newest first. With a date filter only that day is
 * listed, and it is listed even when it has neither trades nor a note yet, so the trader can write about any day.
 */
export function buildJournalDays(tradingDays: readonly TradingDayTotal[], noteDates: readonly string[], filterDate?: string | null): JournalDay[] {
  const byDate = new Map<string, JournalDay>();
  for (const day of tradingDays) {
    const existing = byDate.get(day.date);
    if (existing) {
      existing.trades += day.trades;
      existing.pnlCents += day.pnlCents;
    } else {
      byDate.set(day.date, { date: day.date, trades: day.trades, pnlCents: day.pnlCents, hasNote: false });
    }
  }
  for (const date of noteDates) {
    const existing = byDate.get(date);
    if (existing) existing.hasNote = true;
    else byDate.set(date, { date, trades: 0, pnlCents: 0, hasNote: true });
  }
  if (filterDate && DAY.test(filterDate)) {
    return [byDate.get(filterDate) ?? { date: filterDate, trades: 0, pnlCents: 0, hasNote: false }];
  }
  // yyyy-MM-dd sorts as text.
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

/** The first date is selected when none is (or when the chosen one is no longer listed). */
export function selectJournalDate(days: ReadonlyArray<{ date: string }>, selected: string | null | undefined): string | null {
  if (selected && days.some((d) => d.date === selected)) return selected;
  return days[0]?.date ?? null;
}

/** The journal note's title: the date string, yyyy-MM-dd. */
export function journalNoteTitle(date: string): string {
  return date;
}

/** One note per date, in this folder (created when missing). */
export const JOURNAL_FOLDER_NAME = 'Daily Journal';
