import type { YearCalendar } from './calendar';

/**
 * A number a report writes to a spreadsheet as this exact decimal text ("-211.52"): money goes out as dollars with
 * its cents, never through a float, and a spreadsheet reads it as a number (sums, charts).
 */
export interface CsvNumber {
  readonly csvNumber: string;
}

/**
 * One cell of an exported report. Numbers (counts, rates, R) and CsvNumbers are written as plain numbers; a string is
 * the trader's or our text (a tag, a setup, a label) and is escaped when a spreadsheet would run it as a formula.
 */
export type CsvValue = string | number | CsvNumber | null;

export const isCsvNumber = (value: CsvValue): value is CsvNumber => typeof value === 'object' && value !== null;

/** Cents as dollars for a spreadsheet: 123456 -> 1234.56, -21152 -> -211.52 (exact decimal text, no float). */
export function centsForCsv(cents: number | null): CsvNumber | null {
  if (cents === null) return null;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return { csvNumber: `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}` };
}

export interface CsvTable {
  header: string[];
  rows: CsvValue[][];
}

/** The year calendar's export: one row per trading day, in dollars or (on the R switch) in R. */
export function calendarCsv(calendar: YearCalendar | undefined, inR: boolean): CsvTable {
  const days = calendar?.days ?? [];
  return inR
    ? {
        header: ['Trading day', 'Trades', 'Total R', 'Without a planned risk'],
        rows: days.map((d) => [d.tradeDate, d.trades, d.r.totalR, d.r.tradesWithoutRisk]),
      }
    : { header: ['Trading day', 'Trades', 'Net P&L'], rows: days.map((d) => [d.tradeDate, d.trades, centsForCsv(d.netCents)]) };
}
