import Papa from 'papaparse';
import { isCsvNumber, type CsvValue } from './csv-cells';

/** Text a spreadsheet would run as a formula: it starts with =, +, -, @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A number's text for a spreadsheet; a number that is not finite has none (the caller writes '∞' itself). */
const numberText = (value: number): string => (Number.isFinite(value) ? String(value) : '');

/**
 * A report's table as CSV text (PapaParse quotes and joins). Only text cells are escaped against formula injection:
 * a leading apostrophe, inside quotes, so "=HYPERLINK(...)" shows as text. Numbers are never escaped: a negative
 * amount escaped as text ("'-211.52") would drop out of a spreadsheet's SUM.
 */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  const escaped = new Set<string>();
  const text = (value: string): string => {
    if (!FORMULA_START.test(value)) return value;
    const safe = `'${value}`;
    escaped.add(safe);
    return safe;
  };
  const data = rows.map((row) =>
    row.map((cell) => (cell === null ? '' : typeof cell === 'number' ? numberText(cell) : isCsvNumber(cell) ? cell.csvNumber : text(cell))),
  );
  return Papa.unparse(
    { fields: header.map(text), data },
    // Our own escaping above, so that PapaParse never escapes a number written as text; escaped text is quoted.
    { escapeFormulae: false, quotes: (value: unknown) => typeof value === 'string' && escaped.has(value) },
  );
}
