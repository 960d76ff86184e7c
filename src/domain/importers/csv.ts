import Papa from 'papaparse';
import { normalizeHeader } from './parsing';
import type { CsvRow } from './types';

export interface CsvTable {
  /** Normalised header names (see normalizeHeader), in file order. */
  headers: string[];
  /** As written in the file, for messages. */
  rawHeaders: string[];
  rows: CsvRow[];
  /** The field delimiter PapaParse found. */
  delimiter: string;
  /** Numbers were written with a decimal comma (2499,5 and $36,00) and have been rewritten with a point. */
  decimalComma: boolean;
  /** Slashed dates were day first (31/12/2025) and have been rewritten as yyyy-MM-dd. */
  dayFirstDates: boolean;
}

/**
 * Parses CSV text with PapaParse (delimiter guessed among , ; tab |, quotes and CRLF handled). The first non-blank
 * record is the header; blank records (NinjaTrader pads its grid with ',,,,,' lines) are skipped. Row numbers are
 * the record's position counting the header as row 1, as a spreadsheet shows the file.
 */
export function readCsv(text: string): CsvTable {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false, delimitersToGuess: [',', '\t', ';', '|'] });
  const records = parsed.data;
  const delimiter = parsed.meta.delimiter;
  const headerIndex = records.findIndex((record) => !isBlank(record));
  if (headerIndex === -1) return { headers: [], rawHeaders: [], rows: [], delimiter, decimalComma: false, dayFirstDates: false };
  const decimalComma = delimiter !== ',' && usesDecimalComma(records, headerIndex + 1);
  const dayFirstDates = slashedDatesAreDayFirst(records, headerIndex + 1);
  if (decimalComma || dayFirstDates) {
    for (let index = headerIndex + 1; index < records.length; index++) {
      const record = records[index]!;
      for (let column = 0; column < record.length; column++) {
        let value = record[column]!;
        if (decimalComma) value = decimalCommaToPoint(value);
        if (dayFirstDates) value = dayFirstToIso(value);
        record[column] = value;
      }
    }
  }
  const rawHeaders = records[headerIndex]!.map((h) => h.replace(/^\uFEFF/, '').trim());
  const headers = rawHeaders.map(normalizeHeader);
  const cellsOf = cellReader(headers);
  const rows: CsvRow[] = [];
  for (let index = headerIndex + 1; index < records.length; index++) {
    const record = records[index]!;
    if (isBlank(record)) continue;
    rows.push({ row: index + 1, cells: cellsOf(record) });
  }
  return { headers: headers.filter((h) => h !== ''), rawHeaders: rawHeaders.filter((h) => h !== ''), rows, delimiter, decimalComma, dayFirstDates };
}

// A Tradovate export re-saved by a European Excel has semicolons and decimal commas (2499,5 and
// $36,00), sometimes thousands points (1.200,00). The delimiter is not a comma then, so a comma inside a number can
// only be a decimal or thousands mark; which one is decided by the file as a whole.

/** A number as a European spreadsheet writes it, with an optional sign, brackets and currency around it. */
const EUROPEAN_NUMBER = /^(\s*\(?\s*[-+]?\s*[$€£¥]?\s*[-+]?\s*)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?(\s*[$€£¥]?\s*(?:USD|EUR|GBP)?\s*\)?\s*)$/i;
const COMMA_DECIMAL = /^[^\d]*(?:\d{1,3}(?:\.\d{3})+,\d+|\d+,(?:\d{1,2}|\d{4,}))[^\d]*$/;
const POINT_DECIMAL = /^[^\d]*(?:\d{1,3}(?:,\d{3})+\.\d+|\d+\.(?:\d{1,2}|\d{4,}))[^\d]*$/;

/** More cells read as decimal-comma numbers than as decimal-point numbers (first 2,000 rows). */
function usesDecimalComma(records: string[][], from: number): boolean {
  let comma = 0;
  let point = 0;
  for (let index = from; index < Math.min(records.length, from + 2000); index++) {
    for (const cell of records[index]!) {
      if (cell.length > 24) continue;
      if (COMMA_DECIMAL.test(cell)) comma++;
      else if (POINT_DECIMAL.test(cell)) point++;
    }
  }
  return comma > point;
}

/** `2.499,50` -> `2499.50`, `$36,00` -> `$36.00`, `(1,5)` -> `(1.5)`; anything that is not such a number is left as it is. */
export function decimalCommaToPoint(cell: string): string {
  if (!cell.includes(',') && !/\d\.\d{3}(?!\d)/.test(cell)) return cell;
  const match = EUROPEAN_NUMBER.exec(cell);
  if (!match) return cell;
  const [, before, whole, fraction, after] = match;
  return `${before}${whole!.replace(/\./g, '')}${fraction !== undefined ? `.${fraction}` : ''}${after}`;
}

const SLASHED_DATE = /^(\s*)(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?=$|[ T,])/;

/**
 * Whether slashed dates are day first: some date's first number is above 12 and none's second is. US exports (every
 * broker we read) are month first; a European re-save turns 06/25/2026 into 25/06/2026.
 */
function slashedDatesAreDayFirst(records: string[][], from: number): boolean {
  let dayFirst = false;
  for (let index = from; index < records.length; index++) {
    for (const cell of records[index]!) {
      const match = SLASHED_DATE.exec(cell);
      if (!match) continue;
      if (Number(match[3]) > 12) return false;
      if (Number(match[2]) > 12) dayFirst = true;
    }
  }
  return dayFirst;
}

function dayFirstToIso(cell: string): string {
  return cell.replace(SLASHED_DATE, (_all, space: string, day: string, month: string, year: string) => {
    const fullYear = year.length === 2 ? `20${year}` : year;
    return `${space}${fullYear}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  });
}

/**
 * Cells keyed by header name without copying them: every row's `cells` shares one prototype whose getters read the
 * row's record by column (the first column of a repeated name wins; a short row reads ''). A 100,000-row export with
 * 32 columns then makes 100,000 small objects instead of 3.2 million properties (the import's parse time).
 */
export function cellReader(headers: string[]): (record: string[]) => Record<string, string> {
  const prototype = Object.create(null) as Record<string, string>;
  headers.forEach((name, column) => {
    if (name === '' || Object.prototype.hasOwnProperty.call(prototype, name)) return;
    Object.defineProperty(prototype, name, {
      enumerable: true,
      get(this: { [RECORD]: string[] }) {
        return this[RECORD][column] ?? '';
      },
    });
  });
  return (record) => {
    const cells = Object.create(prototype) as Record<string, string> & { [RECORD]: string[] };
    cells[RECORD] = record;
    return cells;
  };
}

const RECORD = Symbol('record');

/** How many items are read between two calls of readOnce's `between`. */
const READ_BETWEEN = 4096;

/**
 * The items one at a time, each let go (its slot emptied) as it is read, with `between` called every READ_BETWEEN
 * items: a 15 MB export's rows, and the pairs read from them, all lived until the last was read, twice the memory the
 * parse needed at any moment (the memory of large files). The array is empty afterwards.
 */
export function* readOnce<T>(items: T[], between: () => void = () => undefined): Generator<T, void, undefined> {
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    (items as Array<T | undefined>)[index] = undefined;
    if (index % READ_BETWEEN === READ_BETWEEN - 1) between();
    yield item;
  }
  items.length = 0;
}

function isBlank(record: string[]): boolean {
  return record.every((value) => value.trim() === '');
}
