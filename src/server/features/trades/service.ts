import { centsToDecimalString, toCents } from '../../../domain/money';
import { normalizeTradeInput, type NormalizedTrade } from '../../../domain/trades';
import { calculateStreaks, buildResultsByWeek, buildResultsByWeekday, combineStats, summarizeAggregate, type DailyAggregate } from '../../../domain/stats';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import { getPreferences } from '../preferences/routes';
import { tradesRepo, type Cursor, type NewTradeRow, type TradeRow } from './repo';
import type { ListQuery, StatsQuery, TradeInput, TradePatch } from './schemas';

/** The API's trade: stored columns plus the account name; money as exact decimal strings. */
export function toTradeDto(row: TradeRow) {
  return {
    id: row.id,
    account_id: row.accountId,
    account_name: row.accountName,
    trade_date: new Date(row.tradeDate).toISOString(),
    date: new Date(row.tradeDate).toISOString().slice(0, 10),
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
    entry_time: row.entryTime && new Date(row.entryTime).toISOString(),
    exit_time: row.exitTime && new Date(row.exitTime).toISOString(),
    entry_price: row.entryPrice,
    exit_price: row.exitPrice,
    quantity: row.quantity,
    gross_pnl: row.grossPnl,
    import_source: row.importSource,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
export type TradeDto = ReturnType<typeof toTradeDto>;

function encodeCursor(row: TradeRow): string {
  return Buffer.from(JSON.stringify([row.tradeDate, row.createdAt, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): Cursor {
  try {
    const [tradeDate, createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as string[];
    if (typeof tradeDate !== 'string' || typeof createdAt !== 'string' || typeof id !== 'string') throw new Error();
    return { tradeDate, createdAt, id };
  } catch {
    throw badRequest('cursor: invalid page cursor');
  }
}

/** Stored columns from a normalized trade. */
export function toRow(trade: NormalizedTrade): NewTradeRow {
  return {
    symbol: trade.symbol,
    tradeDate: trade.tradeDate,
    dayOfWeek: trade.dayOfWeek,
    period: trade.period,
    tradeType: trade.tradeType,
    status: trade.status,
    pnl: centsToDecimalString(trade.pnlCents),
    commission: centsToDecimalString(trade.commissionCents),
    link: trade.link,
    notes: trade.notes,
    tags: trade.tags,
  };
}

function normalizeOrThrow(raw: Record<string, unknown>, timeZone: string, where = ''): NormalizedTrade {
  const result = normalizeTradeInput(raw, { pnlBasis: 'net', timeZone });
  if (!result.ok) throw badRequest(`${where}${result.error}`, { missing: result.missing });
  return result.trade;
}

/** The stored trade as raw input, so a partial update re-runs the same normalisation (result from net pnl). */
function rowAsInput(row: TradeRow): Record<string, unknown> {
  return {
    trade_date: new Date(row.tradeDate).toISOString(),
    symbol: row.symbol,
    period: row.period,
    trade_type: row.tradeType,
    pnl: row.pnl,
    commission: row.commission,
    link: row.link,
    notes: row.notes,
    tags: row.tags,
  };
}

async function timeZoneOf(db: Database, userId: string) {
  return (await getPreferences(db, userId)).timeZone;
}

export const tradesService = {
  async list(db: Database, userId: string, query: ListQuery) {
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    return db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      const rows = await repo.page(query.account, query.q, query.limit + 1, cursor);
      const page = rows.slice(0, query.limit);
      return {
        trades: page.map(toTradeDto),
        next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
        total: await repo.count(query.account, query.q),
      };
    });
  },

  async get(db: Database, userId: string, id: string) {
    const row = await db.withUser(userId, (tx) => tradesRepo(tx, userId).find(id));
    if (!row) throw notFound('Trade not found');
    return toTradeDto(row);
  },

  /** Statistics for any filter: per-day sums from SQL, combined by the same domain formulas the UI uses. */
  async stats(db: Database, userId: string, query: StatsQuery) {
    return db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      const range = { from: query.from, to: query.to };
      const dailyRows = await repo.dailyAggregates(query.account, query.q, range);
      const sequence = await repo.resultSequence(query.account, query.q, range);
      const days: DailyAggregate[] = dailyRows.map((d) => ({
        date: d.date,
        trades: d.trades,
        wins: d.wins,
        losses: d.losses,
        breakEvens: d.breakEvens,
        pnlCents: Number(d.pnlCents),
        grossProfitCents: Number(d.grossProfitCents),
        grossLossCents: Number(d.grossLossCents),
      }));
      const results = [...sequence].map((c) => (c === 'W' ? 'Win' : c === 'L' ? 'Loss' : 'BE'));
      const summary = summarizeAggregate(combineStats(days), calculateStreaks(results));
      return {
        summary,
        by_week: buildResultsByWeek(days),
        by_weekday: buildResultsByWeekday(days),
        by_day: days,
      };
    });
  },

  async create(db: Database, userId: string, input: TradeInput) {
    const trade = normalizeOrThrow(input, await timeZoneOf(db, userId));
    return db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      if (input.account_id && !(await repo.accountExists(input.account_id))) {
        throw badRequest('account_id: Trading account not found');
      }
      const id = await repo.insertOne({ ...toRow(trade), accountId: input.account_id ?? null });
      return toTradeDto((await repo.find(id))!);
    });
  },

  async update(db: Database, userId: string, id: string, patch: TradePatch) {
    const timeZone = await timeZoneOf(db, userId);
    return db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      const current = await repo.find(id);
      if (!current) throw notFound('Trade not found');
      if (patch.account_id && !(await repo.accountExists(patch.account_id))) {
        throw badRequest('account_id: Trading account not found');
      }
      const merged = { ...rowAsInput(current), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      if (patch.date !== undefined && patch.trade_date === undefined) merged.trade_date = patch.date;
      const trade = normalizeOrThrow(merged, timeZone);
      await repo.update(id, {
        ...toRow(trade),
        ...(patch.account_id !== undefined && { accountId: patch.account_id }),
      });
      return toTradeDto((await repo.find(id))!);
    });
  },

  async remove(db: Database, userId: string, id: string) {
    const removed = await db.withUser(userId, (tx) => tradesRepo(tx, userId).removeMany([id]));
    if (removed === 0) throw notFound('Trade not found');
  },

  /** Deletes the caller's trades among `ids`; ids of other users' trades are simply not theirs to delete. */
  removeMany: (db: Database, userId: string, ids: string[]) =>
    db.withUser(userId, (tx) => tradesRepo(tx, userId).removeMany(ids)),

  assign: (db: Database, userId: string, ids: string[], accountId: string) =>
    db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      if (!(await repo.accountExists(accountId))) throw badRequest('account_id: Trading account not found');
      return repo.assign(ids, accountId);
    }),

  unassignedCount: (db: Database, userId: string) =>
    db.withUser(userId, (tx) => tradesRepo(tx, userId).count('unassigned')),

  async exportAll(db: Database, userId: string) {
    const rows = await db.withUser(userId, (tx) => tradesRepo(tx, userId).all());
    return rows.map(toTradeDto);
  },

  /**
   * Imports a JSON backup into one account, all or nothing. Each trade keeps its original id as its import key,
   * so importing the same backup into the same account twice adds nothing the second time.
   */
  async importBackup(db: Database, userId: string, accountId: string, items: Array<Record<string, unknown>>) {
    const timeZone = await timeZoneOf(db, userId);
    const rows: NewTradeRow[] = items.map((item, index) => {
      const trade = normalizeOrThrow(item, timeZone, `Row ${index + 1}: `);
      const originalId = typeof item.id === 'string' && item.id ? item.id : null;
      return {
        ...toRow(trade),
        accountId,
        side: typeof item.side === 'string' ? item.side : null,
        contract: typeof item.contract === 'string' ? item.contract : null,
        entryTime: typeof item.entry_time === 'string' ? item.entry_time : null,
        exitTime: typeof item.exit_time === 'string' ? item.exit_time : null,
        entryPrice: decimalOrNull(item.entry_price),
        exitPrice: decimalOrNull(item.exit_price),
        quantity: decimalOrNull(item.quantity),
        grossPnl: item.gross_pnl == null ? null : centsToDecimalString(toCents(item.gross_pnl)),
        importSource: typeof item.import_source === 'string' ? item.import_source : 'json-backup',
        importKey: originalId ? `backup:${originalId}` : null,
      };
    });
    return db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      if (!(await repo.accountExists(accountId))) throw badRequest('account_id: Trading account not found');
      const imported = await repo.insertMany(rows, { skipDuplicates: true });
      return { imported, skipped: rows.length - imported };
    });
  },
};

function decimalOrNull(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value).trim();
  return /^-?\d+(\.\d+)?$/.test(text) ? text : null;
}
