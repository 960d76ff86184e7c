import type { CsvValue } from '../../../domain/reports/csv-cells';
import { saveBlob } from '../../lib/download';

export { centsForCsv, type CsvValue } from '../../../domain/reports/csv-cells';

/**
 * A report's table as a CSV file. The writer (PapaParse) is loaded when a trader exports, not with the page. Money and
 * other numbers go out as numbers a spreadsheet sums; text cells that a spreadsheet would run as a formula are escaped
 * (a tag or a setup is the trader's text, and an export must not become a spreadsheet's code).
 */
export async function downloadCsv(name: string, header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): Promise<void> {
  const { csvText } = await import('../../../domain/reports/csv-text');
  // A byte-order mark, so that Excel reads the file as UTF-8 (names with accents, the ∞ of a profit factor).
  saveBlob(new Blob(['\ufeff', csvText(header, rows)], { type: 'text/csv;charset=utf-8' }), name);
}

/** 'edgebook-breakdown-instrument-2026-11-25.csv' */
export function csvFileName(report: string, today: string): string {
  return `edgebook-${report}-${today}.csv`;
}
