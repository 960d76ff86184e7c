import {
  parseImport,
  type ImportedTrade,
  type ImportIssue,
  type ImportOptions,
  type ImportPreview,
  type OpenPosition,
  type TimeZoneCheck,
  type ColumnMapping,
  type TextSource,
} from '../../../domain/importers';
import { centsToDecimalString, Decimal } from '../../../domain/money';
import { toFillJson, type FillJson, type FillRecord } from '../trades/fills';
import { readTradeSide, separateSideFromSetup } from '../../../domain/trades/side';
import type { NewTradeRow } from '../trades/repo';

/**
 * The pure half of an import on the server: bytes -> text -> the domain's preview -> plain records (strings for
 * every decimal) that cross from the parse worker to the request thread and go to the database as they are. No
 * database, no request: this runs in a worker thread (parse-pool.ts), so a 25 MB file never holds up the server.
 */

/**
 * Bytes to text. UTF-8 by default (its BOM, which TopstepX writes, is dropped); UTF-16 when the file starts with its
 * byte-order mark, as Excel's "Unicode text" does. Invalid UTF-8 becomes U+FFFD, which the parser counts as binary.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

/** numeric(24,8) holds 16 integer digits; money is integer cents that must stay exact in a JS number. */
const PRICE_LIMIT = new Decimal(1e16);
const PRICE_FLOOR = PRICE_LIMIT.negated();
const tooLarge = (value: Decimal | null) => value !== null && (value.gte(PRICE_LIMIT) || value.lte(PRICE_FLOOR));

/**
 * Why a trade cannot be stored as it is, or null. Nothing is made to check a trade that can be (each of a large file's
 * trades once made six numbers to compare, 40 MB of garbage that took the parse worker's heap to 150 MB).
 */
function unstorable(t: ImportedTrade): string | null {
  // trade_date is required; the parsers report undated rows themselves, this is the net under that rule.
  if (!t.tradeDate) return 'The trade has no date or time';
  if (!Number.isSafeInteger(t.grossPnl) || !Number.isSafeInteger(t.commission) || !Number.isSafeInteger(t.netPnl)) {
    return 'The P&L or commission is too large to be a real amount';
  }
  if (tooLarge(t.entryPrice) || tooLarge(t.exitPrice) || tooLarge(t.quantity)) return 'A price or quantity is too large to be real';
  return null;
}

/**
 * Trades the database could not hold (no date, absurd amounts from a corrupted cell) become unreadable rows with their
 * row numbers, like every other bad row, instead of failing the whole insert.
 */
export function withStorableTrades(preview: ImportPreview): ImportPreview {
  const problems = preview.trades.map(unstorable);
  if (problems.every((p) => p === null)) return preview;
  const issues: ImportIssue[] = [...preview.issues];
  preview.trades.forEach((t, i) => {
    if (problems[i]) issues.push({ row: t.rows[0] ?? 0, severity: 'error', message: problems[i]! });
  });
  issues.sort((a, b) => a.row - b.row);
  return { ...preview, trades: preview.trades.filter((_, i) => problems[i] === null), issues };
}

const decimalText = (value: { toFixed(): string } | null): string | null => (value === null ? null : value.toFixed());

/**
 * Stored columns of an imported trade: symbol is the root (MNQ) and contract the month (MNQZ5);
 * pnl is net of commission and status follows from it; period is the session of the entry. The side is
 * the side; the type is the setup the file names (a backup), else empty, for the trader or the import dialog's
 * choice to fill (a side is never a setup).
 */
export function toTradeRow(t: ImportedTrade, accountId: string | null, source: string): NewTradeRow {
  const { side, setup } = separateSideFromSetup(t.side, t.tradeType ?? '');
  return {
    accountId,
    symbol: t.symbol || 'Unknown',
    contract: t.contract || null,
    side,
    tradeDate: t.tradeDate,
    dayOfWeek: t.dayOfWeek,
    period: t.session,
    tradeType: setup,
    status: t.result,
    pnl: centsToDecimalString(t.netPnl),
    commission: centsToDecimalString(t.commission),
    grossPnl: centsToDecimalString(t.grossPnl),
    entryTime: t.entryTime,
    exitTime: t.exitTime,
    entryPrice: decimalText(t.entryPrice),
    exitPrice: decimalText(t.exitPrice),
    quantity: decimalText(t.quantity),
    tags: t.tags,
    notes: t.notes ?? '',
    link: t.link ?? '',
    importSource: source,
    importKey: t.importKey,
  };
}

/**
 * A trade as the preview shows it and the trades API names its fields; money as exact decimal strings, plus the
 * cents the server adds up. This is also what the parse worker hands back and what is inserted.
 */
export function toImportTrade(t: ImportedTrade) {
  const row = toTradeRow(t, null, '');
  return {
    import_key: t.importKey,
    rows: t.rows,
    file_account: t.account,
    date: t.tradingDay,
    trade_date: row.tradeDate!,
    day_of_week: row.dayOfWeek!,
    symbol: row.symbol!,
    contract: row.contract ?? null,
    side: readTradeSide(row.side),
    period: row.period!,
    trade_type: row.tradeType!,
    status: t.result,
    entry_time: t.entryTime,
    exit_time: t.exitTime,
    quantity: row.quantity ?? null,
    entry_price: row.entryPrice ?? null,
    exit_price: row.exitPrice ?? null,
    gross_pnl: row.grossPnl!,
    commission: row.commission!,
    pnl: row.pnl!,
    gross_cents: t.grossPnl,
    commission_cents: t.commission,
    net_cents: t.netPnl,
    tags: t.tags,
    notes: row.notes!,
    link: row.link!,
    fills: { entry: t.entryFills, exit: t.exitFills },
    ambiguity: t.ambiguity ?? null,
    /** 'schedule' once the account's fee schedule set the commission (the file had none). */
    commission_source: null as 'schedule' | null,
    /** The trade's fills in the order traded, as the INSERT reads them; null when the file has none. */
    fill_rows: t.fills && t.fills.length > 0 ? toFillRows(t.fills) : null,
  };
}

/** A built trade's fills as storage keeps them (the trades write module stores them with the trade). */
export function toFillRecords(fills: NonNullable<ImportedTrade['fills']>): FillRecord[] {
  return fills.map((fill) => ({
    time: new Date(fill.time).toISOString(),
    side: fill.side,
    quantity: fill.quantity.toFixed(),
    price: fill.price.toFixed(),
    commission: fill.commission === null ? null : centsToDecimalString(fill.commission),
    brokerId: fill.id ?? null,
  }));
}

const toFillRows = (fills: NonNullable<ImportedTrade['fills']>): FillJson[] => toFillJson(toFillRecords(fills));
export type ImportTrade = ReturnType<typeof toImportTrade>;

export function toOpenPositionDto(p: OpenPosition) {
  return {
    file_account: p.account,
    symbol: p.symbol,
    contract: p.contract,
    side: p.side,
    quantity: p.quantity.toFixed(),
    average_price: p.averagePrice.toFixed(),
    opened_at: p.openedAt,
    rows: p.rows,
  };
}
export type OpenPositionDto = ReturnType<typeof toOpenPositionDto>;

export type ParsedFile =
  | {
      ok: true;
      format: { id: string; label: string };
      detectedFormat: { id: string; label: string } | null;
      timeZone: string;
      rowCount: number;
      issues: ImportIssue[];
      ignored: Record<string, number>;
      openPositions: OpenPositionDto[];
      trades: ImportedTrade[];
      timeZoneCheck: TimeZoneCheck | null;
      costsInFile: boolean;
      minutePrecision: boolean;
      headers: string[];
      mapping: ColumnMapping | null;
    }
  | { ok: false; code: string; message: string; headers?: string[] };

/**
 * What the parse worker does with one upload's text (decodeText): every step to storable trades (`tidy`: see
 * parseImport). The trades stay the domain's: each is made a record (toImportTrade) only where a request needs it, a
 * preview's page or an INSERT's chunk, so the file's trades are never held in both forms at once (the memory of large
 * files).
 */
export function parseFile(text: string | TextSource, options: ImportOptions, tidy: () => void = () => undefined): ParsedFile {
  const result = parseImport(text, options, tidy);
  if (!result.ok) return result;
  const preview = withStorableTrades(result);
  return {
    ok: true,
    format: preview.format,
    detectedFormat: preview.detectedFormat,
    timeZone: preview.timeZone,
    rowCount: preview.rowCount,
    issues: preview.issues,
    ignored: preview.ignored,
    openPositions: preview.openPositions.map(toOpenPositionDto),
    trades: preview.trades,
    timeZoneCheck: preview.timeZoneCheck,
    costsInFile: preview.costsInFile,
    minutePrecision: preview.minutePrecision,
    headers: preview.headers,
    mapping: preview.mapping,
  };
}
