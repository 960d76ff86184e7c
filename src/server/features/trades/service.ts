import { toTradeDto } from '../../core/trades/dto';
import { accountsRepo } from '../../core/accounts/repo';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { BackupImportResult, TradeStats } from '../../../contract/trades';
import { centsToDecimalString, parseDecimal } from '../../../domain/money';
import { readDecimalField, readTradeExecution, type NormalizedTrade } from '../../../domain/trades';
import { checkRiskPrices, readRiskAmount, readTradePlan } from '../../../domain/risk';
import { readTradeSide } from '../../../domain/trades/side';
import { loadRiskDefaults } from '../../core/risk/repo';
import { computeTradeLogStats } from '../../../domain/reports/trade-log-stats';
import { withReportScope } from '../../core/engine/scope';
import { narrowing } from '../../core/engine/search';
import { sql, type SQL } from 'drizzle-orm';
import { hasRiskFilter, resolveReportRange, type ReportFilter } from '../../../domain/reports/filter';
import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { readBackupInWorker, type Upload } from '../../core/parse/parse-pool';
import { getPreferences, preferencesIn } from '../../core/preferences/repo';
import { readSqlTraderData, reportFilterSql } from '../../core/engine/repo';
import { loadMistakeTags } from '../../core/risk/repo';
import { playbooksRepo } from '../../core/playbooks/repo';
import { assignTradePlaybook } from '../../core/playbooks/assign';
import { decodeCursor, encodeCursor } from '../../core/trades/cursor';
import {
  tradesRepo,
  type AccountScope,
  type DayRange,
  type ListOrder,
  type ListPosition,
  type NewTradeRow,
  type TradeRow,
} from '../../core/trades/repo';
import type { BulkRiskInput, IdsQuery, ListQuery, StatsQuery, TradeInput, TradePatch } from '../../../contract/trades';
import { normalizeOrThrow, toRow } from '../../core/trades/trade-rows';
import { writeTrades } from '../../core/trades/write';
import { marketKeyOf } from '../../../domain/market/bars';
import { fillsRepo, toFillDto, toFillRecord } from '../../core/trades/fills';

/** The stored trade as raw input, so a partial update re-runs the same normalisation (result from net pnl). */
function rowAsInput(row: Omit<TradeRow, 'accountName'>): Record<string, unknown> {
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
    side: row.side,
    quantity: row.quantity,
    entry_price: row.entryPrice,
    exit_price: row.exitPrice,
    entry_time: row.entryTime && new Date(row.entryTime).toISOString(),
    exit_time: row.exitTime && new Date(row.exitTime).toISOString(),
    stop_price: row.stopPrice,
    risk_amount: row.riskAmount,
    target_price: row.targetPrice,
  };
}

/**
 * A write's execution and plan, read by the domain and checked together: a stop on the losing side of the
 * entry, a target on the winning side. The 400 names the field.
 */
function readExecutionAndPlan(raw: Record<string, unknown>, trade: NormalizedTrade, where = '') {
  const execution = readTradeExecution(raw);
  if (!execution.ok) throw badRequest(`${where}${execution.field}: ${execution.message}`);
  const plan = readTradePlan(raw);
  if (!plan.ok) throw badRequest(`${where}${plan.field}: ${plan.message}`);
  // The side as stored: the one sent, else a side sent as the type.
  const problem = checkRiskPrices({ ...execution.value, side: trade.side, ...plan.value });
  if (problem) throw badRequest(`${where}${problem.field}: ${problem.message}`);
  return {
    quantity: execution.value.quantity,
    entryPrice: execution.value.entryPrice,
    exitPrice: execution.value.exitPrice,
    entryTime: execution.value.entryTime,
    exitTime: execution.value.exitTime,
    stopPrice: plan.value.stopPrice,
    riskAmount: plan.value.riskCents === null ? null : centsToDecimalString(plan.value.riskCents),
    targetPrice: plan.value.targetPrice,
  } satisfies Partial<NewTradeRow>;
}

/**
 * A stop and a dollar risk are one plan: a PATCH that sets one replaces the other stored (a trade switched from a
 * stop to $200 keeps no stale stop), unless it sends both (then the plan's check refuses it).
 */
function replacePlan(merged: Record<string, unknown>, patch: TradePatch) {
  const sent = (value: unknown) => value !== undefined && value !== null && value !== '';
  if (sent(patch.risk_amount) && patch.stop_price === undefined) merged.stop_price = null;
  if (sent(patch.stop_price) && patch.risk_amount === undefined) merged.risk_amount = null;
}

/**
 * A filter of the reports' model as the trades repo reads it: one account (or all) and a day range, which
 * the per-day rollups can answer, and the rest in SQL (`extra`: several accounts, an instrument, hours, tags...), which
 * only the trades themselves can. Presets end today in the trader's zone, and hours are read on their clock.
 */
interface FilterScope {
  account: AccountScope;
  range: DayRange;
  extra?: SQL;
  /** The zone the range and the hours were read in. */
  timeZone: string;
  /**
   * What the R and mistake filters read besides the trades (the risk defaults, the mistake tags), which do not bump the
   * trades' version: part of the statistics cache's key.
   */
  traderKey: string;
}

async function readFilterScope(tx: Tx, userId: string, filter: ReportFilter, now: Date): Promise<FilterScope> {
  const needsZone = filter.hour.length > 0 || (filter.range !== 'custom' && filter.range !== 'all-time');
  const timeZone = needsZone ? (await preferencesIn(tx, userId)).timeZone : 'UTC';
  const resolved = resolveReportRange(filter, now, timeZone);
  const oneAccount = filter.account.length <= 1;
  const account: AccountScope = filter.account.length === 1 ? filter.account[0]! : 'all';
  const traderData = await readSqlTraderData(tx, userId, filter, () => loadMistakeTags(tx, userId));
  const extra = reportFilterSql({ ...filter, account: oneAccount ? [] : filter.account }, { from: null, to: null }, timeZone, traderData);
  const traderKey = traderData
    ? JSON.stringify([hasRiskFilter(filter) ? await loadRiskDefaults(tx, userId) : [], traderData.mistakeTags, traderData.namedMistakeTags])
    : '';
  return { account, range: { from: resolved.from ?? undefined, to: resolved.to ?? undefined }, extra, timeZone, traderKey };
}

/** The most trades one bulk action takes (its ids' limit). */
const MAX_SELECTED = 100_000;

async function timeZoneOf(db: Database, userId: string) {
  return (await getPreferences(db, userId)).timeZone;
}

export const tradesService = {
  /**
   * A page of a filter in a list order (the trading order newest first, or `sort` and `dir`): the first, the one
   * after a cursor, or the one at a position (`offset`), so the maximized table can show any row at once instead of
   * walking every page before it.
   */
  async list(db: Database, userId: string, query: ListQuery, now: Date) {
    if (query.cursor !== undefined && query.offset !== undefined) throw badRequest('offset: give either a cursor or an offset');
    const order: ListOrder = { sort: query.sort, dir: query.dir };
    const cursor = query.cursor ? decodeCursor(query.cursor, order) : undefined;
    return db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      // Asked for beside the page, not after it: on PostgreSQL's pipelined connection one round trip less for the
      // Trade Log's first page. A failure of the page is the one reported.
      const riskDefaults = loadRiskDefaults(tx, userId);
      riskDefaults.catch(() => undefined);
      const { account, range, extra } = await readFilterScope(tx, userId, query.filter, now);
      let rows: Awaited<ReturnType<typeof repo.page>>;
      // A search or a filter inside trades (an instrument, hours, tags...) is read from the trades themselves.
      const byTrade = Boolean(query.q?.trim()) || extra !== undefined;
      if (query.offset !== undefined && query.offset > 0 && !byTrade && order.sort === 'date') {
        // The trading order's position comes from the per-day rollups; a column sort or a search reads past rows.
        const key = await repo.positionAt(account, query.offset, range, order.dir);
        const at: ListPosition | undefined = key && { key, inclusive: true };
        rows = at ? await repo.page(account, undefined, query.limit + 1, at, range, { order }) : [];
      } else {
        // A search's first page counts its matches as it reads them, instead of searching a second time for the total.
        rows = await repo.page(account, query.q, query.limit + 1, cursor, range, {
          offset: query.offset,
          withTotal: byTrade && !cursor,
          withRollupTotal: !byTrade && !cursor,
          order,
          extra,
        });
      }
      const page = rows.slice(0, query.limit);
      const total = cursor?.total ?? rows[0]?.total ?? (await repo.count(account, query.q, range, extra));
      const defaults = await riskDefaults;
      return {
        trades: page.map((row) => toTradeDto(row, defaults)),
        next_cursor: rows.length > query.limit ? encodeCursor(order, page[page.length - 1]!, total) : null,
        total,
      };
    });
  },

  /**
   * Every trade id of a filter and search, in the list's order (Select All selects the filter's trades, not the rows
   * drawn). At most MAX_SELECTED, as the bulk actions take.
   */
  async ids(db: Database, userId: string, query: IdsQuery, now: Date) {
    const order: ListOrder = { sort: query.sort, dir: query.dir };
    return db.withUser(userId, async (tx) => {
      const { account, range, extra } = await readFilterScope(tx, userId, query.filter, now);
      const rows = await tradesRepo(tx, userId).page(account, query.q, MAX_SELECTED + 1, undefined, range, { order, extra });
      if (rows.length > MAX_SELECTED) throw badRequest(`q: more than ${MAX_SELECTED} trades match; narrow the filter to select them`);
      return { ids: rows.map((r) => r.id), total: rows.length };
    });
  },

  async get(db: Database, userId: string, id: string) {
    const found = await db.withUser(userId, async (tx) => {
      const row = await tradesRepo(tx, userId).find(id);
      return row && toTradeDto(row, await loadRiskDefaults(tx, userId));
    });
    if (!found) throw notFound('Trade not found');
    return found;
  },

  /**
   * Statistics for any filter, from the engine: the trader's ordered trades, the filter's among them, narrowed by the
   * list's search and its trades awaiting Undo, through the domain's formulas (the same set every report reads).
   * `days` chooses which per-day rows travel: all (default), none, or those from a day on, with the days before it
   * summed into `by_day_before` (the dashboard's charts look back months, not years).
   */
  async stats(db: Database, userId: string, query: StatsQuery, now: Date): Promise<TradeStats> {
    const narrowed = narrowing(db, userId, { q: query.q, exclude: query.exclude });
    return withReportScope(db, userId, query.filter, now, async (scope) => {
      const rows = narrowed.narrows ? await narrowed.apply(scope) : scope.set.rows;
      const stats = computeTradeLogStats(
        { columns: scope.set.columns, rows },
        query.days === 'all' ? undefined : query.days === 'none' ? null : query.days,
      );
      return {
        // JSON has no Infinity: no losses travel as null.
        summary: { ...stats.summary, profitFactor: Number.isFinite(stats.summary.profitFactor) ? stats.summary.profitFactor : null },
        by_week: stats.byWeek,
        by_weekday: stats.byWeekday,
        by_day: stats.byDay,
        by_day_before: stats.byDayBefore,
      };
    });
  },

  async create(db: Database, userId: string, input: TradeInput) {
    // The zone is read in the same transaction as the write: one transaction per request.
    return writeTrades(db, userId, async (writer) => {
      const { tx } = writer;
      const trade = normalizeOrThrow(input, (await preferencesIn(tx, userId)).timeZone);
      const execution = readExecutionAndPlan(input, trade);
      if (input.account_id && !(await accountsRepo(tx, userId).exists(input.account_id))) {
        throw badRequest('account_id: Trading account not found');
      }
      if (input.playbook_id && (await playbooksRepo(tx, userId).list(input.playbook_id)).length === 0)
        throw badRequest('playbook_id: Playbook not found');
      const id = await writer.insertOne({
        ...toRow(trade),
        ...execution,
        accountId: input.account_id ?? null,
        playbookId: input.playbook_id ?? null,
      });
      return toTradeDto((await tradesRepo(tx, userId).find(id))!, await loadRiskDefaults(tx, userId));
    });
  },

  async update(db: Database, userId: string, id: string, patch: TradePatch) {
    return writeTrades(db, userId, async (writer) => {
      const { tx } = writer;
      const timeZone = (await preferencesIn(tx, userId)).timeZone;
      const repo = tradesRepo(tx, userId);
      // Merged with the row as it is now, locked: fields a concurrent change wrote are kept, and the result (status)
      // comes from the P&L that will be stored.
      const current = await repo.lock(id);
      if (!current) throw notFound('Trade not found');
      if (patch.account_id && !(await accountsRepo(tx, userId).exists(patch.account_id))) {
        throw badRequest('account_id: Trading account not found');
      }
      const { playbook_id: playbookId, ...fields } = patch;
      const merged = { ...rowAsInput(current), ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
      // The new day under the key it was sent as, so a bad one is named as the trader sent it.
      if (patch.date !== undefined && patch.trade_date === undefined) delete merged.trade_date;
      replacePlan(merged, patch);
      // A side sent as the type (LONG) becomes the side only when no side was sent; a stored side is not a sent one.
      if (patch.side === undefined && readTradeSide(patch.trade_type)) merged.side = null;
      const trade = normalizeOrThrow(merged, timeZone);
      const execution = readExecutionAndPlan(merged, trade);
      await writer.update(id, {
        ...toRow(trade),
        ...execution,
        ...(patch.account_id !== undefined && { accountId: patch.account_id }),
      });
      // Its playbook as PUT /api/trade-playbooks sets it, without ticks: the same playbook sent again keeps them.
      if (playbookId !== undefined && playbookId !== current.playbookId) await assignTradePlaybook(writer, id, playbookId, []);
      return toTradeDto((await repo.find(id))!, await loadRiskDefaults(tx, userId));
    });
  },

  async remove(db: Database, userId: string, id: string) {
    const removed = await writeTrades(db, userId, (writer) => writer.remove([id]));
    if (removed === 0) throw notFound('Trade not found');
  },

  /** Deletes the caller's trades among `ids`; ids of other users' trades are simply not theirs to delete. */
  removeMany: (db: Database, userId: string, ids: string[]) => writeTrades(db, userId, (writer) => writer.remove(ids)),

  assign: (db: Database, userId: string, ids: string[], accountId: string) =>
    writeTrades(db, userId, async (writer) => {
      if (!(await accountsRepo(writer.tx, userId).exists(accountId))) throw badRequest('account_id: Trading account not found');
      return writer.updateMany(ids, { accountId });
    }),

  /**
   * One planned risk for the selected trades, all or nothing: a dollar amount, a stop that many points from
   * each trade's entry on its losing side, or none of their own (the defaults apply again). A stop needs each trade's
   * side, entry price and quantity: if one of the selected trades lacks them, no trade is changed. Ids of trades that
   * are not the caller's change nothing, as in the other bulk actions.
   */
  bulkRisk: (db: Database, userId: string, input: BulkRiskInput) =>
    writeTrades(db, userId, async (writer) => {
      const repo = tradesRepo(writer.tx, userId);
      const { risk } = input;
      if (risk.kind === 'clear') return writer.updateMany(input.ids, { stopPrice: null, riskAmount: null });
      if (risk.kind === 'amount') {
        const amount = readRiskAmount(risk, 'amount');
        if (!amount.ok || amount.value === null) throw badRequest(`risk.amount: ${amount.ok ? 'must be an amount in dollars' : amount.message}`);
        return writer.updateMany(input.ids, { stopPrice: null, riskAmount: centsToDecimalString(amount.value) });
      }
      const points = readDecimalField(risk, 'points', { positive: true });
      if (!points.ok || points.value === null) throw badRequest(`risk.points: ${points.ok ? 'must be more than 0' : points.message}`);
      const rows = await repo.lockExecutions(input.ids);
      const stops = rows.map((row) => ({ id: row.id, stopPrice: placeStop(row, points.value!) }));
      const unplaced = stops.filter((s) => s.stopPrice === null).length;
      if (unplaced > 0) {
        throw badRequest(
          `risk: ${unplaced} of the ${rows.length} selected trades ${unplaced === 1 ? 'has' : 'have'} no side, entry price or quantity to place a stop from. Nothing was changed.`,
          { code: 'stop-unplaced', unplaced },
        );
      }
      // Each trade's own stop, and its dollar risk cleared: one statement for all of them.
      const changed = await writer.updateEach(
        stops.map((stop) => ({ id: stop.id, stop_price: stop.stopPrice })),
        'id uuid, stop_price numeric',
        sql`stop_price = r.stop_price, risk_amount = null`,
      );
      return changed.length;
    }),

  /** Unassigned trades, less those whose delete waits for Undo (`exclude`), as the statistics leave them out. */
  unassignedCount: (db: Database, userId: string, exclude: readonly string[] = []) =>
    db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      const count = await repo.count('unassigned');
      return exclude.length > 0 ? count - (await repo.countAmong('unassigned', exclude)) : count;
    }),

  /** Every trade with its fills: the JSON backup, which a restore reads back whole. */
  exportAll: (db: Database, userId: string) =>
    db.withUser(userId, async (tx) => {
      const defaults = await loadRiskDefaults(tx, userId);
      const fills = await fillsRepo(tx, userId).all();
      return (await tradesRepo(tx, userId).all()).map((row) => ({
        ...toTradeDto(row, defaults),
        fills: (fills.get(row.id) ?? []).map((f) => toFillDto(toFillRecord(f))),
      }));
    }),

  /**
   * Imports a JSON backup (the request's body) into one account, all or nothing. Each trade keeps its original id as
   * its import key, so importing the same backup into the same account twice adds nothing the second time. The body is
   * read and checked in the parse worker (backup-file.ts), when its turn comes; the transaction only inserts, and on
   * PGlite lends its connection to other traders between chunks (yieldConnection).
   */
  async importBackup(db: Database, userId: string, upload: Upload): Promise<BackupImportResult> {
    const timeZone = await timeZoneOf(db, userId);
    const job = await readBackupInWorker(upload, { userId, timeZone, chunk: db.batch.trades });
    try {
      const { summary } = job;
      if (!summary.ok) throw new HttpError(summary.status as ContentfulStatusCode, summary.message, summary.details);
      return await writeTrades(db, userId, async (writer) => {
        const { tx } = writer;
        if (!(await accountsRepo(tx, userId).exists(summary.accountId))) throw badRequest('account_id: Trading account not found');
        // Its duplicates are those of the unique import key, which the database enforces whatever runs at the same
        // time; taken like a broker import's, so a restore and an import into one account do not interleave.
        await lockFor(tx, 'account_imports', summary.accountId);
        let imported = 0;
        // The next chunk comes from the worker while this one is inserted (left unawaited if an insert fails).
        const ask = (index: number) => {
          const asked = job.chunk(index);
          asked.catch(() => undefined);
          return asked;
        };
        let next = ask(0);
        for (let index = 0; ; index++) {
          const chunk = await next;
          if (chunk === null) break;
          next = ask(index + 1);
          if (index > 0) await writer.pause();
          // Fills follow their trades by import key: a trade restored now gets them, and so does one the account held
          // from before fills were kept; a trade that has fills keeps its own.
          imported += await writer.insertBackupChunk(chunk);
        }
        for (const span of summary.spans) {
          if (span.entryTime === null || span.exitTime === null) continue;
          writer.measureSpan(marketKeyOf(span.contract, span.symbol), Date.parse(span.entryTime), Date.parse(span.exitTime));
        }
        return { imported, skipped: summary.rows - imported };
      });
    } finally {
      job.release();
    }
  },
};

/** A stop `points` away from the entry on the losing side (below a long, above a short), or null without them. */
function placeStop(row: { side: string | null; entryPrice: string | null; quantity: string | null }, points: string): string | null {
  const side = readTradeSide(row.side);
  const entry = parseDecimal(row.entryPrice);
  if (!side || !entry || !parseDecimal(row.quantity)) return null;
  return (side === 'Long' ? entry.minus(points) : entry.plus(points)).toFixed();
}
