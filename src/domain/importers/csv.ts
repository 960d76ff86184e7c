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
  const { headers, rawHeaders, rows, delimiter, decimalComma, dayFirstDates } = readCsvRows(text);
  return { headers, rawHeaders, rows: [...rows], delimiter, decimalComma, dayFirstDates };
}

/**
 * A file's text in a holder that its reader empties: the text is its pieces in order (the parse worker reads an upload
 * a megabyte of its bytes at a time, a piece each; a string is one piece). A CSV's reader lets each piece go once the
 * rows in it are parsed, so no more than a block or two of a large export's text (15 MB in all) is alive at once, and
 * nothing of it while its trades are built and kept. A cell is a slice of the block it was read from and holds all of
 * it: what outlives the parse is copied (detachedText).
 */
export interface TextSource {
  pieces: string[];
}

/** A string as a holder of one piece; a holder as it is. */
export function textSource(input: string | TextSource): TextSource {
  return typeof input === 'string' ? { pieces: [input] } : input;
}

/** The holder's pieces, the holder emptied. */
function takePieces(source: string | TextSource): string[] {
  if (typeof source === 'string') return [source];
  const { pieces } = source;
  source.pieces = [];
  return pieces;
}

/** The whole text, the holder emptied (a format read in one piece: a JSON backup, a statement). */
export function takeText(source: string | TextSource): string {
  const pieces = takePieces(source);
  return pieces.length === 1 ? pieces[0]! : pieces.join('');
}

/** How many characters the text has. */
export function textLength(source: TextSource): number {
  return source.pieces.reduce((sum, piece) => sum + piece.length, 0);
}

/**
 * The text's first `chars` characters (all of it when shorter), the holder left as it is: a string of its own, since a
 * slice would keep the whole first piece alive for as long as the start is kept.
 */
export function textStart(source: TextSource, chars: number): string {
  return detachedText(startOf(source.pieces, chars));
}

function startOf(pieces: readonly string[], chars: number): string {
  let start = '';
  for (const piece of pieces) {
    start += piece;
    if (start.length >= chars) break;
  }
  return start.length > chars ? start.slice(0, chars) : start;
}

/** The same characters in a string of their own, not a slice that keeps the file's whole text alive. */
export function detachedText(value: string): string {
  return value.length === 0 ? '' : JSON.parse(JSON.stringify(value));
}

/**
 * One detached copy (detachedText) for every equal text read lately: an account's name, on each of a file's fills and
 * trades, is one string instead of one slice of the file per row.
 */
export function sharedText(value: string): string {
  let shared = sharedTexts.get(value);
  if (shared === undefined) {
    if (sharedTexts.size >= SHARED_TEXTS) sharedTexts.clear();
    shared = detachedText(value);
    sharedTexts.set(shared, shared);
  }
  return shared;
}
const sharedTexts = new Map<string, string>();
const SHARED_TEXTS = 1024;

/** A CSV table whose rows are parsed as they are read (readCsvRows). */
export interface CsvReading extends Omit<CsvTable, 'rows'> {
  /** The data rows, read once: each block of the text is parsed when the rows before it have been read. */
  rows: Iterable<CsvRow>;
  /** Whether the file has a data row (known before any is read). */
  hasRows: boolean;
  /** Data rows read so far: all of them once `rows` is done. */
  readonly rowCount: number;
}

/**
 * The table of readCsv, its rows parsed a block of the text (about BLOCK_CHARS) at a time as they are read: a 15 MB
 * export's rows, all parsed at once, took 66 MB of memory and lived until the last was read (the memory of large
 * files). The same rows as one parse of the whole text: blocks end at a line break outside quotes, and the delimiter
 * and line break are guessed once, from the text's start, as PapaParse guesses them for the whole text.
 */
export function readCsvRows(source: string | TextSource, blockChars = BLOCK_CHARS): CsvReading {
  const pieces = takePieces(source);
  const head = Papa.parse<string[]>(startOf(pieces, HEAD_CHARS), {
    skipEmptyLines: false,
    delimitersToGuess: [',', '\t', ';', '|'],
    preview: 1,
  });
  const delimiter = head.meta.delimiter;
  const linebreak = head.meta.linebreak;
  // Day-first dates are decided on every record: read apart first, and only when the text has a date that could be one.
  const dayFirstDates = mayHaveDayFirstDates(pieces) && slashedDatesAreDayFirst(recordsOf(pieces, delimiter, linebreak, blockChars, false));
  // Dropped once done: a finished generator still holds its arguments.
  let records: Generator<string[], void, undefined> | null = recordsOf(pieces, delimiter, linebreak, blockChars, true);
  // The header and the 2,000 records after it (the decimal comma is decided on those) are read ahead.
  const ahead: string[][] = [];
  let headerIndex = -1;
  for (let step = records.next(); !step.done; step = records.next()) {
    ahead.push(step.value);
    if (headerIndex === -1 && !isBlank(step.value)) headerIndex = ahead.length - 1;
    if (headerIndex !== -1 && ahead.length > headerIndex + CONVENTION_ROWS) break;
  }
  if (headerIndex === -1)
    return { headers: [], rawHeaders: [], rows: [], hasRows: false, rowCount: 0, delimiter, decimalComma: false, dayFirstDates: false };
  const decimalComma = delimiter !== ',' && usesDecimalComma(ahead, headerIndex + 1);
  const rawHeaders = ahead[headerIndex]!.map((h) => detachedText(h.replace(/^\uFEFF/, '').trim()));
  const headers = rawHeaders.map(normalizeHeader);
  // The header's cells, and what is read ahead, are slices of the text: each goes once used.
  ahead.fill([], 0, headerIndex + 1);
  const cellsOf = cellReader(headers);
  let index = headerIndex;
  let rowCount = 0;
  const next = (): CsvRow | null => {
    for (;;) {
      index++;
      let record: string[] | undefined;
      if (index < ahead.length) {
        record = ahead[index]!;
        ahead[index] = [];
      } else {
        const step = records?.next();
        if (!step || step.done) {
          records = null;
          return null;
        }
        record = step.value;
      }
      if (isBlank(record)) continue;
      if (decimalComma || dayFirstDates) {
        for (let column = 0; column < record.length; column++) {
          let value = record[column]!;
          if (decimalComma) value = decimalCommaToPoint(value);
          if (dayFirstDates) value = dayFirstToIso(value);
          record[column] = value;
        }
      }
      rowCount++;
      return { row: index + 1, cells: cellsOf(record) };
    }
  };
  let first = next();
  // No `return`: a reader that stops early leaves the rest to be read (and counted) after it.
  const rows: IterableIterator<CsvRow> = {
    next() {
      const row = first ?? next();
      first = null;
      return row === null ? { done: true, value: undefined } : { done: false, value: row };
    },
    [Symbol.iterator]() {
      return this;
    },
  };
  return {
    headers: headers.filter((h) => h !== ''),
    rawHeaders: rawHeaders.filter((h) => h !== ''),
    rows,
    hasRows: first !== null,
    get rowCount() {
      return rowCount;
    },
    delimiter,
    decimalComma,
    dayFirstDates,
  };
}

/** About how much of the text is parsed at once (characters). */
const BLOCK_CHARS = 1 << 20;
/** What PapaParse reads of a text to guess its line break (and, well within it, its delimiter). */
const HEAD_CHARS = 1 << 20;
/** Records after the header that decide whether numbers have a decimal comma. */
const CONVENTION_ROWS = 2000;
/** A slashed date whose first number is above 12, anywhere: without one, no file's dates are day first. */
const MAYBE_DAY_FIRST = /(?:^|\D)(?:1[3-9]|[2-9]\d)\/\d{1,2}\/\d{2}/m;

/**
 * The text's records, as one parse of all of it gives them, parsed a block at a time as they are read: a block is the
 * text not yet parsed up to a line break outside quotes (blockEnd), the pieces it needs appended to it. With `letGo`,
 * each piece's place in the array is emptied as it is taken, so the array no longer keeps it alive.
 */
function* recordsOf(
  pieces: string[],
  delimiter: string,
  linebreak: string,
  blockChars: number,
  letGo: boolean,
): Generator<string[], void, undefined> {
  let text = '';
  let next = 0;
  const append = () => {
    const piece = pieces[next]!;
    if (letGo) pieces[next] = '';
    next++;
    text = text === '' ? piece : text + piece;
  };
  for (;;) {
    let end: number;
    for (;;) {
      const last = next >= pieces.length;
      if (!last && text.length <= blockChars) {
        append();
        continue;
      }
      end = blockEnd(text, delimiter, linebreak, blockChars);
      // No line break to end the block at yet (or quotes that are not well formed): more of the text, or all of it.
      if (end < text.length || last) break;
      append();
    }
    const cut = end < text.length;
    const records = Papa.parse<string[]>(cut ? text.slice(0, end) : text, {
      delimiter,
      newline: linebreak as Papa.ParseConfig['newline'],
      skipEmptyLines: false,
    }).data;
    // A block that ends with a line break parses into one empty record more than the text has there.
    if (cut) records.pop();
    yield* readOnce(records);
    if (!cut) return;
    text = text.slice(end);
  }
}

/**
 * A slashed date whose first number is above 12, in a piece or across the end of one: without one, no file's dates
 * are day first. (A piece's start is read as a line's start: at worst the records are read once more for nothing.)
 */
function mayHaveDayFirstDates(pieces: readonly string[]): boolean {
  return pieces.some((piece, i) => MAYBE_DAY_FIRST.test(piece) || (i > 0 && MAYBE_DAY_FIRST.test(pieces[i - 1]!.slice(-16) + piece.slice(0, 16))));
}

const QUOTE = 0x22;

/**
 * Where the block at the text's start ends: just after the first line break outside quotes once `blockChars` have
 * gone by, or the end of the text. Quotes are read as PapaParse reads well-formed ones (a field that starts with a
 * quote runs to the quote that closes it, "" being a quote inside it); where the text leaves that form (a closing quote
 * followed by anything but a delimiter or line break), the rest of the text is one block, parsed as a whole.
 */
function blockEnd(text: string, delimiter: string, linebreak: string, blockChars: number): number {
  const length = text.length;
  if (length <= blockChars || delimiter.length !== 1) return length;
  const target = blockChars;
  const delimiterCode = delimiter.charCodeAt(0);
  const breakCode = linebreak.charCodeAt(0);
  let i = 0;
  let fieldStart = true;
  while (i < length) {
    if (fieldStart && text.charCodeAt(i) === QUOTE) {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) return length;
        i = quote + 1;
        if (text.charCodeAt(i) !== QUOTE) break;
        i++;
      }
      if (i >= length) return length;
      const code = text.charCodeAt(i);
      if (code !== delimiterCode && !(code === breakCode && text.startsWith(linebreak, i))) return length;
    }
    fieldStart = false;
    const code = text.charCodeAt(i);
    if (code === delimiterCode && delimiter.length === 1) {
      fieldStart = true;
      i++;
    } else if (code === breakCode && text.startsWith(linebreak, i)) {
      i += linebreak.length;
      if (i >= target) return i;
      fieldStart = true;
    } else i++;
  }
  return length;
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
function slashedDatesAreDayFirst(records: Iterable<string[]>): boolean {
  let dayFirst = false;
  let header = false;
  for (const record of records) {
    // The records up to the header (the first that is not blank) are not data.
    if (!header) {
      header = !isBlank(record);
      continue;
    }
    for (const cell of record) {
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
export function* readOnce<T>(items: T[] | Iterable<T>, between: () => void = () => undefined): Generator<T, void, undefined> {
  if (!Array.isArray(items)) {
    // Items made as they are read (readCsvRows) are let go by their maker; `between` is called all the same.
    let index = 0;
    for (const item of items) {
      if (index++ % READ_BETWEEN === READ_BETWEEN - 1) between();
      yield item;
    }
    return;
  }
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
