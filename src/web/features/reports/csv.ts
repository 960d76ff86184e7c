import { saveBlob } from '../../lib/download';

export type CsvValue = string | number | null;

/**
 * A report's table as a CSV file, written by PapaParse (loaded when a trader exports, not with the
 * page). Cells that a spreadsheet would run as a formula (=, +, -, @ at the start of text) are escaped: a tag or a
 * setup is the trader's text, and an export must not become a spreadsheet's code.
 */
export async function downloadCsv(name: string, header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): Promise<void> {
  const { default: Papa } = await import('papaparse');
  const text = Papa.unparse({ fields: [...header], data: rows.map((row) => row.map((cell) => (cell === null ? '' : cell))) }, { escapeFormulae: true });
  // A byte-order mark, so that Excel reads the file as UTF-8 (names with accents, the ∞ of a profit factor).
  saveBlob(new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' }), name);
}

/** Cents as dollars for a spreadsheet: 123456 -> "1234.56" (exact, no float). */
export function centsForCsv(cents: number | null): string | null {
  if (cents === null) return null;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 'edgebook-breakdown-instrument-2026-11-25.csv' */
export function csvFileName(report: string, today: string): string {
  return `edgebook-${report}-${today}.csv`;
}
