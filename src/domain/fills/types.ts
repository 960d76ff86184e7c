import type { Cents, Decimal } from '../money';
import type { TradeSide } from '../trades/side';

/**
 * The shapes of trades made from fills, wherever the fills come from (a broker's file, a connection to a broker's API,
 * a manual trade's fills): the fills, the round trips `buildTrades` makes of them (FIFO), the positions left open and
 * the rows that could not be used.
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
 * One fill of a round trip, as the trade keeps it: a fill that FIFO splits between two trades (it
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
  /** Commission and fees, >= 0 (stored absolute). */
  commission: Cents;
  /** grossPnl - commission; the trade's `pnl` (net of commission). */
  netPnl: Cents;
  result: TradeResult;
  /** yyyy-MM-dd in the market time zone of the entry. */
  tradingDay: string;
  /** Monday ... Sunday. */
  dayOfWeek: string;
  /** The trading day at 12:00 UTC, as trade dates are stored, ISO-8601. */
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
  /** Rows summed into this trade (generic P&L): more than one makes it Multi-Position. */
  entryFills?: number;
  session?: string;
  tradeType?: string;
  tags?: string[];
  notes?: string;
  link?: string;
  /** The fills a backup kept with the trade. */
  fills?: TradeFill[];
}
