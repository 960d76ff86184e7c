import type { Cents, Decimal } from '../money';
import type { TradeSide } from '../trades/side';

/**
 * Shared shapes of the importers (issue 4). Parsers turn a file's rows into fills (or, for files that only carry
 * finished trades, into trades); `buildTrades` turns fills into round trips; `parseImport` (index.ts) ties it together
 * into the preview the import dialog shows and the server inserts.
 */

export type Side = 'Buy' | 'Sell';
export type TradeResult = 'Win' | 'Loss' | 'BE';

export type IssueSeverity = 'error' | 'warning';

/**
 * A row the importer could not use (error) or used with a caveat (warning). `row` is the 1-based row of the file as a
 * spreadsheet shows it (the header is row 1, the first data row is row 2); 0 means the file as a whole.
 */
export interface ImportIssue {
  row: number;
  message: string;
  severity: IssueSeverity;
}

/** One execution (or one filled order) read from a file. */
export interface Fill {
  /** Source rows (1-based, header = 1) this fill was read from; several when a broker splits one fill over pairs. */
  rows: number[];
  /** The account named in the file, '' when the file has none. */
  account: string;
  /** Normalised contract code, e.g. MNQZ5 (from 'MNQZ5', 'MNQ DEC25', 'MNQ 12-25'); the symbol for non-futures. */
  contract: string;
  /** Instrument root, e.g. MNQ. */
  root: string;
  side: Side;
  /** Always positive. */
  quantity: Decimal;
  price: Decimal;
  /** Epoch milliseconds (UTC). */
  time: number;
  /** Commission plus fees charged on this fill, in cents, >= 0. */
  commission: Cents;
  /** The broker's own id of the fill or order, when the file has one. */
  id?: string;
  /**
   * Tie-breaker among fills of one account and contract at the same `time` (lower first). Parsers set it when the
   * file tells the order (ids, pair order); otherwise the order of the rows is used.
   */
  seq?: number;
  /** The file says this fill opened (or added to) a position: the entry leg of a pair (paired exports only). */
  opening?: boolean;
  /** Dollars per point when the file states it (IBKR's multiplier); else the instrument table's, by root. */
  pointValue?: Decimal;
}

/**
 * One fill of a round trip, as the trade keeps it (issue 29, point 1): a fill that FIFO splits between two trades (it
 * closes one and opens the next) appears in each with its share of the quantity and of the costs.
 */
export interface TradeFill {
  /** Epoch milliseconds (UTC). */
  time: number;
  side: Side;
  quantity: Decimal;
  price: Decimal;
  /** This share's commission and fees in cents; null when the file has no costs at all. */
  commission: Cents | null;
  /** The broker's id of the fill or order, when the file has one. */
  id?: string;
}

/** A finished round trip, ready to be shown in the preview and inserted. */
export interface ImportedTrade {
  /**
   * Stable key: the same trade read again (same file, or an overlapping export of the same format) gets the same key;
   * two identical trades in one file get different keys. The server stores it per account and skips known keys.
   */
  importKey: string;
  account: string;
  /** Instrument root, e.g. MNQ: the trade's `symbol`. */
  symbol: string;
  /** The contract traded, e.g. MNQZ5 ('' when the file does not say). */
  contract: string;
  /** null when the file only has P&L per day (generic P&L format) or the backup did not record it. */
  side: TradeSide | null;
  /** ISO-8601 UTC instants; null when the file has no times. */
  entryTime: string | null;
  exitTime: string | null;
  /** Contracts opened (the largest position is not the same thing when there are partial exits and re-adds). */
  quantity: Decimal | null;
  /** Volume-weighted average prices. */
  entryPrice: Decimal | null;
  exitPrice: Decimal | null;
  grossPnl: Cents;
  /** Commission and fees, >= 0 (spec part 2 §5: stored absolute). */
  commission: Cents;
  /** grossPnl - commission; the trade's `pnl` (spec part 2 §3: net of commission). */
  netPnl: Cents;
  result: TradeResult;
  /** yyyy-MM-dd in the market time zone of the entry. */
  tradingDay: string;
  /** Monday ... Sunday. */
  dayOfWeek: string;
  /** The trading day at 12:00 UTC (spec part 2 §9), ISO-8601. */
  tradeDate: string;
  session: string;
  tags: string[];
  /** Number of fills that added to / took from the position. */
  entryFills: number;
  exitFills: number;
  /** Source rows, so the preview can point at them. */
  rows: number[];
  /** Point value used for grossPnl (null for P&L-only formats). */
  pointValue: Decimal | null;
  /** Set by formats that carry them (the JSON backup). */
  tradeType?: string;
  notes?: string;
  link?: string;
  /** Why the file leaves this trade's reading uncertain (minute-precision times), shown in the preview. */
  ambiguity?: string;
  /** The fills in the order traded (formats that carry fills, and backups that kept them); absent otherwise. */
  fills?: TradeFill[];
}

/** A position that had not returned to flat at the end of the file: reported, not imported. */
export interface OpenPosition {
  account: string;
  symbol: string;
  contract: string;
  side: TradeSide;
  quantity: Decimal;
  averagePrice: Decimal;
  /** ISO-8601 UTC, null when the file does not say. */
  openedAt: string | null;
  rows: number[];
}

export interface ParseOptions {
  /** IANA zone in which naive times of the file (Tradovate, NinjaTrader, ...) are read. */
  timeZone: string;
  /** Counts the times read without an offset (naive) and with one (zoned); filled in by the parsers' time reading. */
  clock?: { naive: number; zoned: number };
}

/** A trade-level record for formats that carry finished trades instead of fills. */
export interface ParsedTrade {
  rows: number[];
  account: string;
  contract: string;
  root: string;
  side: TradeSide | null;
  entryTime: number | null;
  exitTime: number | null;
  /** When there is no entry time, the trading day as yyyy-MM-dd. */
  day?: string;
  quantity: Decimal | null;
  entryPrice: Decimal | null;
  exitPrice: Decimal | null;
  grossPnl: Cents;
  commission: Cents;
  /** Key material from the file (an id), else the importer derives one from the content. */
  id?: string;
  /** Rows summed into this trade (generic P&L): more than one makes it Multi-Position (spec part 2 §7). */
  entryFills?: number;
  session?: string;
  tradeType?: string;
  tags?: string[];
  notes?: string;
  link?: string;
  /** The fills a backup kept with the trade. */
  fills?: TradeFill[];
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
  parse(rows: CsvRow[], options: ParseOptions): FormatParseResult;
}

/**
 * A broker statement of several sections (Interactive Brokers' activity statement, thinkorswim's account statement):
 * no single header row, so it is recognised from its text and reads its own sections.
 */
export interface StatementImporter {
  id: string;
  label: string;
  columns: string[];
  /** Recognises the statement from the start of its text (BOM stripped). */
  detectText(text: string): boolean;
  parseText(text: string, options: ParseOptions): FormatParseResult & { rowCount: number };
}
