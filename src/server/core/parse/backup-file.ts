import { importInput } from '../../../contract/trades';
import { badRequest, HttpError } from '../../http/errors';
import { parseOrThrow } from '../../http/validate';
import { marketKeyOf } from '../../../domain/market/bars';
import type { FillRecord } from '../trades/fills';
import type { NewTradeRow } from '../trades/repo';
import { backupRows } from '../trades/trade-rows';

/**
 * A JSON backup as POST /api/trades/import receives it, read in the parse worker: a 30,000-row
 * backup took 12 s of the server's own thread (JSON, the checks of every row, the rows for the database), and every
 * other request, /api/health included, waited for it. Here it is read off that thread, with the same checks and the
 * same messages as before, into the INSERT parameters themselves: JSON arrays of records as jsonb_to_recordset reads
 * them (the trades write module's insertBackupChunk), so the request thread only passes strings to the database.
 */

/** The first and last instant of a contract's restored trades: their MAE and MFE are computed again. */
export interface BackupSpan {
  contract: string | null;
  symbol: string;
  entryTime: string;
  exitTime: string;
}

export type BackupSummary =
  | { ok: true; accountId: string; rows: number; spans: BackupSpan[] }
  | { ok: false; status: number; message: string; details?: Record<string, unknown> };

/** The checked backup: its summary, and its rows as INSERT parameters of `chunk` rows each. */
export function readBackup(
  bytes: Uint8Array,
  options: { userId: string; timeZone: string; chunk: number },
): { summary: BackupSummary; chunks: string[] } {
  try {
    const input = parseBody(bytes);
    const { account_id: accountId, trades } = input;
    const rows = backupRows(trades, accountId, options.timeZone);
    // The parsed file is no longer needed: only the rows' text is kept, a fraction of its objects' memory.
    trades.length = 0;
    const chunks: string[] = [];
    for (let i = 0; i < rows.length; i += options.chunk) {
      chunks.push(JSON.stringify(rows.slice(i, i + options.chunk).map((row) => toRecord(row, options.userId))));
    }
    return { summary: { ok: true, accountId, rows: rows.length, spans: spansOf(rows) }, chunks };
  } catch (error) {
    if (error instanceof HttpError) {
      return { summary: { ok: false, status: error.status, message: error.message, ...(error.details && { details: error.details }) }, chunks: [] };
    }
    throw error;
  }
}

/** Per contract, one span from its earliest entry to its latest exit (recomputeForTrades reads them so). */
function spansOf(rows: readonly NewTradeRow[]): BackupSpan[] {
  const byKey = new Map<string, BackupSpan>();
  for (const row of rows) {
    if (!row.entryTime || !row.exitTime) continue;
    const key = marketKeyOf(row.contract ?? null, row.symbol ?? '');
    const span = byKey.get(key);
    if (!span) byKey.set(key, { contract: row.contract ?? null, symbol: row.symbol ?? '', entryTime: row.entryTime, exitTime: row.exitTime });
    else {
      if (Date.parse(row.entryTime) < Date.parse(span.entryTime)) span.entryTime = row.entryTime;
      if (Date.parse(row.exitTime) > Date.parse(span.exitTime)) span.exitTime = row.exitTime;
    }
  }
  return [...byKey.values()];
}

/** The body as readJson() reads a request: UTF-8 JSON, then the request's schema (which refuses unstorable text). */
function parseBody(bytes: Uint8Array) {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw badRequest('Request body must be JSON', { fields: [{ field: 'body', message: 'must be JSON' }] });
  }
  return parseOrThrow(importInput, body, 'body');
}

/** The columns as jsonb_to_recordset reads them (snake_case, decimals as strings, tags as a JSON array). */
function toRecord(row: NewTradeRow & { fills: FillRecord[] | null }, userId: string) {
  return {
    user_id: userId,
    account_id: row.accountId,
    trade_date: row.tradeDate,
    day_of_week: row.dayOfWeek,
    symbol: row.symbol,
    period: row.period,
    trade_type: row.tradeType,
    status: row.status,
    pnl: row.pnl,
    commission: row.commission,
    link: row.link,
    notes: row.notes,
    tags: row.tags,
    side: row.side,
    contract: row.contract,
    entry_time: row.entryTime,
    exit_time: row.exitTime,
    entry_price: row.entryPrice,
    exit_price: row.exitPrice,
    quantity: row.quantity,
    gross_pnl: row.grossPnl,
    // The trade's own plan, as the backup wrote it.
    stop_price: row.stopPrice ?? null,
    risk_amount: row.riskAmount ?? null,
    target_price: row.targetPrice ?? null,
    import_source: row.importSource,
    import_key: row.importKey,
    created_at: row.createdAt ?? null,
    // Read by the write module's insertBackupChunk for the fills; the trades' INSERT reads only its own columns.
    // Short keys, as market/fills.ts FILL_JSON_COLUMNS reads them.
    fills: row.fills ? row.fills.map((f, n) => ({ n, t: f.time, s: f.side, q: f.quantity, p: f.price, c: f.commission, i: null })) : null,
  };
}
