import {
  parseImport,
  type ImportedTrade,
  type ImportFailure,
  type ImportIssue,
  type ImportPreview,
  type OpenPosition,
  type TradingDayRule,
} from '../../../domain/importers';
import { centsToDecimalString, type Cents } from '../../../domain/money';
import type { Database } from '../../db/client';
import { badRequest, HttpError } from '../../http/errors';
import { getPreferences } from '../preferences/routes';
import { tradesRepo, type NewTradeRow } from '../trades/repo';
import { importsRepo } from './repo';
import type { ImportQuery, PreviewQuery } from './schemas';

/**
 * Broker imports over HTTP (issue 4). The browser sends the file as it is; everything is read again here with the
 * same pure parser the tests check field by field, so what is stored never depends on what a browser claims.
 */

export const ACCOUNT_NOT_FOUND_MESSAGE = 'account_id: Trading account not found';

/** The parse failed as a whole (empty, binary, not an array, unknown format...): a 400 with the parser's words. */
function failure(result: ImportFailure): HttpError {
  return badRequest(result.message, { code: result.code, ...(result.headers && { headers: result.headers }) });
}

async function parse(db: Database, userId: string, text: string, query: { format?: string; time_zone?: string }) {
  const preferences = await getPreferences(db, userId);
  // Naive times in the file are read in the zone the trader chose in the dialog, by default their own; days follow the
  // trader's trading-day setting (issue 12).
  const timeZone = query.time_zone ?? preferences.timeZone;
  const tradingDay = preferences.tradingDay as TradingDayRule;
  const result = parseImport(text, { timeZone, tradingDay, ...(query.format !== undefined && { format: query.format }) });
  if (!result.ok) throw failure(result);
  return withStorableTrades(result);
}

/** numeric(24,8) holds 16 integer digits; money is integer cents that must stay exact in a JS number. */
const PRICE_LIMIT = 1e16;

/** Why a trade cannot be stored as it is, or null. */
function unstorable(t: ImportedTrade): string | null {
  // trade_date is required; the parsers report undated rows themselves, this is the net under that rule.
  if (!t.tradeDate) return 'The trade has no date or time';
  if (![t.grossPnl, t.commission, t.netPnl].every(Number.isSafeInteger)) return 'The P&L or commission is too large to be a real amount';
  for (const value of [t.entryPrice, t.exitPrice, t.quantity]) {
    if (value !== null && value.abs().gte(PRICE_LIMIT)) return 'A price or quantity is too large to be real';
  }
  return null;
}

/**
 * Trades the database could not hold (no date, absurd amounts from a corrupted cell) become unreadable rows with their
 * row numbers, like every other bad row, instead of failing the whole insert.
 */
function withStorableTrades(preview: ImportPreview): ImportPreview {
  const problems = preview.trades.map(unstorable);
  if (problems.every((p) => p === null)) return preview;
  const issues: ImportIssue[] = [...preview.issues];
  preview.trades.forEach((t, i) => {
    if (problems[i]) issues.push({ row: t.rows[0] ?? 0, severity: 'error', message: problems[i]! });
  });
  issues.sort((a, b) => a.row - b.row);
  return { ...preview, trades: preview.trades.filter((_, i) => problems[i] === null), issues };
}

async function assertAccount(db: Database, userId: string, accountId: string) {
  const exists = await db.withUser(userId, (tx) => tradesRepo(tx, userId).accountExists(accountId));
  if (!exists) throw badRequest(ACCOUNT_NOT_FOUND_MESSAGE, { code: 'account-not-found' });
}

function totalsOf(trades: ImportedTrade[]) {
  let gross: Cents = 0;
  let commission: Cents = 0;
  for (const t of trades) {
    gross += t.grossPnl;
    commission += t.commission;
  }
  return {
    trades: trades.length,
    gross_pnl: centsToDecimalString(gross),
    commission: centsToDecimalString(commission),
    net_pnl: centsToDecimalString(gross - commission),
  };
}

/** A trade as the preview shows it and the trades API names its fields; money as exact decimal strings. */
export function toPreviewTradeDto(t: ImportedTrade) {
  const row = toTradeRow(t, null, '');
  return {
    import_key: t.importKey,
    rows: t.rows,
    file_account: t.account,
    date: t.tradingDay,
    trade_date: row.tradeDate,
    day_of_week: row.dayOfWeek,
    symbol: row.symbol,
    contract: row.contract,
    side: row.side,
    period: row.period,
    trade_type: row.tradeType,
    status: row.status,
    entry_time: row.entryTime,
    exit_time: row.exitTime,
    quantity: row.quantity,
    entry_price: row.entryPrice,
    exit_price: row.exitPrice,
    gross_pnl: row.grossPnl,
    commission: row.commission,
    pnl: row.pnl,
    tags: row.tags,
    notes: row.notes,
    link: row.link,
    fills: { entry: t.entryFills, exit: t.exitFills },
  };
}
export type PreviewTradeDto = ReturnType<typeof toPreviewTradeDto>;

function toOpenPositionDto(p: OpenPosition) {
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

const decimalText = (value: { toFixed(): string } | null): string | null => (value === null ? null : value.toFixed());

/**
 * Stored columns of an imported trade (spec part 2 §3, §7): symbol is the root (MNQ) and contract the month (MNQZ5);
 * pnl is net of commission and status follows from it (part 2 §4); period is the session of the entry; the type is
 * what the file says (a backup) or else the side, which is the "type" the spec's import tags name.
 */
export function toTradeRow(t: ImportedTrade, accountId: string | null, source: string): NewTradeRow {
  return {
    accountId,
    symbol: t.symbol || 'Unknown',
    contract: t.contract || null,
    side: t.side,
    tradeDate: t.tradeDate,
    dayOfWeek: t.dayOfWeek,
    period: t.session,
    tradeType: t.tradeType ?? t.side ?? '',
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

const errorsOf = (issues: ImportIssue[]) => issues.filter((i) => i.severity === 'error');

/** 'numeric field overflow' and friends: a value in the file the columns cannot hold. */
function isValueOutOfRange(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '22003' || code === '22008' || code === '22007') return true;
  }
  return false;
}

export const importsService = {
  /**
   * What confirming would do: the detected format, the trades to be created (minus those the account already has),
   * duplicates, open positions, every unreadable row with its number, ignored rows and totals. Writes nothing.
   */
  async preview(db: Database, userId: string, text: string, query: PreviewQuery) {
    if (query.account_id) await assertAccount(db, userId, query.account_id);
    const preview = await parse(db, userId, text, query);
    const known = query.account_id
      ? await db.withUser(userId, (tx) => importsRepo(tx, userId).existingKeys(query.account_id!, preview.trades.map((t) => t.importKey)))
      : new Set<string>();
    const fresh = preview.trades.filter((t) => !known.has(t.importKey));
    const errors = errorsOf(preview.issues);
    return {
      format: preview.format,
      detected_format: preview.detectedFormat,
      time_zone: preview.timeZone,
      account_id: query.account_id ?? null,
      row_count: preview.rowCount,
      file_accounts: [...new Set(preview.trades.map((t) => t.account).filter(Boolean))],
      total_trades: preview.trades.length,
      new_trades: fresh.length,
      duplicates: preview.trades.length - fresh.length,
      trades: fresh.slice(0, query.limit).map(toPreviewTradeDto),
      trades_truncated: fresh.length > query.limit,
      open_positions: preview.openPositions.map(toOpenPositionDto),
      issues: preview.issues,
      unreadable_rows: errors.length,
      ignored: preview.ignored,
      totals: totalsOf(fresh),
    };
  },

  /**
   * Inserts the file's trades into one account in ONE transaction: trades whose import key the account already has
   * are skipped by the unique index (so a re-import or an overlapping export adds nothing twice), and any failure
   * leaves the account as it was. A file with unreadable rows is refused unless the trader confirmed skipping them.
   */
  async import(db: Database, userId: string, text: string, query: ImportQuery) {
    await assertAccount(db, userId, query.account_id);
    const preview = await parse(db, userId, text, query);
    const errors = errorsOf(preview.issues);
    if (errors.length > 0 && !query.skip_unreadable) {
      throw new HttpError(
        422,
        `${errors.length} ${errors.length === 1 ? 'row' : 'rows'} of the file could not be read (first: row ${errors[0]!.row}: ${errors[0]!.message}). Review them in the preview, then confirm to import the other trades.`,
        { code: 'unreadable-rows', unreadable_rows: errors.length, issues: errors.slice(0, 1000) },
      );
    }
    const rows = preview.trades.map((t) => toTradeRow(t, query.account_id, preview.format.id));
    let imported: number;
    try {
      imported = await db.withUser(userId, async (tx) => {
        // Checked again inside the transaction: the account cannot be deleted between the check and the insert.
        if (!(await tradesRepo(tx, userId).accountExists(query.account_id))) throw badRequest(ACCOUNT_NOT_FOUND_MESSAGE);
        return importsRepo(tx, userId).insertImported(rows);
      });
    } catch (error) {
      if (isValueOutOfRange(error)) {
        throw badRequest('Failed to import trades: a price, quantity or amount in the file is too large to store. Nothing was imported.', {
          code: 'value-out-of-range',
        });
      }
      throw error;
    }
    return {
      imported,
      duplicates: rows.length - imported,
      total_trades: rows.length,
      open_positions: preview.openPositions.length,
      skipped_rows: errors.length,
      format: preview.format,
      time_zone: preview.timeZone,
      account_id: query.account_id,
    };
  },
};
