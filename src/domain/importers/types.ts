import type { Cents } from '../money';
import type { Fill, ImportIssue, OpenPosition, ParsedTrade } from '../fills/types';

/**
 * The contracts of the file formats. Parsers turn a file's rows into fills (or, for files that only carry finished
 * trades, into trades: domain/fills has those shapes and turns fills into round trips); `parseImport` (index.ts) ties
 * it together into the preview the import dialog shows and the server inserts.
 */

export interface ParseOptions {
  /** IANA zone in which naive times of the file (Tradovate, NinjaTrader, ...) are read. */
  timeZone: string;
  /** Counts the times read without an offset (naive) and with one (zoned); filled in by the parsers' time reading. */
  clock?: { naive: number; zoned: number };
}

/** What one format module returns. Parsers never throw on bad rows: they report them in `issues`. */
export interface FormatParseResult {
  fills: Fill[];
  trades: ParsedTrade[];
  openPositions: OpenPosition[];
  issues: ImportIssue[];
  /** Rows deliberately left out (cancelled orders, totals), counted per reason. */
  ignored: Record<string, number>;
  /**
   * P&L the file itself reports for closed pairs, per account and contract, to cross-check the point values:
   * a difference becomes a warning.
   */
  reportedGross?: Map<string, { cents: Cents; rows: number[] }>;
  /** The file's times have minutes only (no seconds anywhere): same-minute fills may be in either order. */
  minutePrecision?: boolean;
  /** Instants (read in the chosen zone) for which the file names the exchange trading day, to check the zone. */
  fileDays?: { time: number; day: string }[];
  /**
   * The file carries commissions and fees (or P&L net of them). False for exports without any cost (Tradovate's
   * Performance, Position History and Orders; TopstepX orders): the account's fee schedule is applied (fees.ts).
   */
  costsInFile?: boolean;
}

/** A data row handed to a parser: cells keyed by normalised header, plus its spreadsheet row number. */
export interface CsvRow {
  row: number;
  cells: Record<string, string>;
}

export interface Importer {
  id: string;
  label: string;
  /** Columns the format needs, for the Trade Import Guide and error messages. */
  columns: string[];
  /** Recognises the format from the normalised header row (lower case, trimmed, BOM stripped). */
  detect(headers: string[]): boolean;
  /**
   * Reads the rows once, in order: an import hands each over as it is read and lets it go (readOnce), so a parser
   * neither looks back nor reads them twice.
   */
  parse(rows: Iterable<CsvRow>, options: ParseOptions): FormatParseResult;
}

/**
 * A broker statement of several sections (Interactive Brokers' activity statement, thinkorswim's account statement):
 * no single header row, so it is recognised from its text and reads its own sections.
 */
export interface StatementImporter {
  id: string;
  label: string;
  columns: string[];
  /** Recognises the statement from the start of its text (BOM stripped): its first 65,536 characters, or all of a shorter text. */
  detectText(start: string): boolean;
  parseText(text: string, options: ParseOptions): FormatParseResult & { rowCount: number };
}
