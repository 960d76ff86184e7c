import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { BackupImportResult, Trade, TradeStats } from '../../../contract/trades';
import { centsToDecimalString, parseDecimal, toCents } from '../../../domain/money';
import { readDecimalField, readTradeExecution, type NormalizedTrade } from '../../../domain/trades';
import { checkRiskPrices, computeRMultiple, readRiskAmount, readTradePlan, resolvePlannedRisk, type RiskDefault, type RiskTrade } from '../../../domain/risk';
import { readTradeSide } from '../../../domain/trades/side';
import { loadRiskDefaults } from '../risk/service';
import {
  buildResultsByWeek,
  buildResultsByWeekday,
  combineResultRuns,
  combineStats,
  EMPTY_RESULT_RUNS,
  streaksFromResultRuns,
  summarizeAggregate,
  summarizeResultRuns,
  type DailyAggregate,
  type ResultRuns,
} from '../../../domain/stats';
import type { SQL } from 'drizzle-orm';
import { hasRiskFilter, resolveReportRange, type ReportFilter } from '../../../domain/reports/filter';
import { yieldConnection, type Database, type Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { readBackupInWorker } from '../imports/parse-pool';
import { getPreferences, preferencesIn } from '../preferences/routes';
import { readSqlTraderData, reportFilterSql } from '../reports/repo';
import { loadMistakeTags } from '../risk/mistakes';
import { playbooksRepo } from '../playbooks/repo';
import { assignTradePlaybook } from '../playbooks/service';
import { decodeCursor, encodeCursor } from './cursor';
import { tradesRepo, type AccountScope, type DayRange, type ListOrder, type ListPosition, type NewTradeRow, type TradeRow } from './repo';
import type { BulkRiskInput, ListQuery, StatsQuery, TradeInput, TradePatch } from './schemas';
import { createStatsCache, type StatsCache } from './stats-cache';
import { normalizeOrThrow, toRow } from './trade-rows';
import { recomputeExcursions, recomputeForTrades } from '../market/excursions';
import { attachBackupFills, fillsRepo, toFillRecord } from '../market/fills';
import { toFillDto } from '../market/service';

export { toRow };

/**
 * Rows of a backup per INSERT: PGlite runs each statement on the server's thread, so there they are small enough
 * that another request waits for one of them at most (tens of milliseconds).
 */
const BACKUP_CHUNK = { pglite: 250, postgres: 5_000 } as const;

/** The trade's fields the domain prices its planned risk from (src/domain/risk). */
export function toRiskTrade(row: Omit<TradeRow, 'accountName'>): RiskTrade {
  return {
    accountId: row.accountId,
    symbol: row.symbol,
    contract: row.contract,
    side: readTradeSide(row.side),
    entryPrice: row.entryPrice,
    quantity: row.quantity,
    stopPrice: row.stopPrice,
    riskCents: row.riskAmount === null ? null : toCents(row.riskAmount),
    targetPrice: row.targetPrice,
  };
}

/**
 * The API's trade: stored columns plus the account name; money as exact decimal strings. `riskDefaults` are the
 * trader's defaults, which give a trade without its own plan its planned risk and R-multiple.
 */
export function toTradeDto(row: TradeRow, riskDefaults: readonly RiskDefault[] = []): Trade {
  const planned = resolvePlannedRisk(toRiskTrade(row), riskDefaults);
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
    // The column's check constraint allows only these three.
    status: row.status as Trade['status'],
    pnl: row.pnl,
    commission: row.commission,
    link: row.link,
    notes: row.notes,
    tags: row.tags,
    side: readTradeSide(row.side),
    contract: row.contract,
    entry_time: row.entryTime && new Date(row.entryTime).toISOString(),
    exit_time: row.exitTime && new Date(row.exitTime).toISOString(),
    entry_price: row.entryPrice,
    exit_price: row.exitPrice,
    quantity: row.quantity,
    gross_pnl: row.grossPnl,
    import_source: row.importSource,
    stop_price: row.stopPrice,
    risk_amount: row.riskAmount,
    target_price: row.targetPrice,
    planned_risk: planned && { amount: centsToDecimalString(planned.cents), source: planned.source },
    r_multiple: planned && computeRMultiple(toCents(row.pnl), planned.cents),
    mae: row.mae ?? null,
    mfe: row.mfe ?? null,
    // Against the trade: a MAE of half the planned risk is -0.5R.
    mae_r: planned && row.mae != null ? computeRMultiple(-toCents(row.mae), planned.cents) : null,
    mfe_r: planned && row.mfe != null ? computeRMultiple(toCents(row.mfe), planned.cents) : null,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
export type TradeDto = ReturnType<typeof toTradeDto>;

interface DaySums {
  date: string;
  trades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  pnlCents: string;
  grossProfitCents: string;
  grossLossCents: string;
}

function toDailyAggregate(d: DaySums): DailyAggregate {
  return {
    date: d.date,
    trades: d.trades,
    wins: d.wins,
    losses: d.losses,
    breakEvens: d.breakEvens,
    pnlCents: Number(d.pnlCents),
    grossProfitCents: Number(d.grossProfitCents),
    grossLossCents: Number(d.grossLossCents),
  };
}

const RUN = { W: 'Win', L: 'Loss' } as const;
const toRun = (code: string | null) => (code === 'W' || code === 'L' ? RUN[code] : null);

/** A rollup row's streak fields as the domain's combinable summary. */
function toResultRuns(day: {
  trades: number;
  headResult: string | null;
  headRun: number;
  tailResult: string | null;
  tailRun: number;
  maxWinRun: number;
  maxLossRun: number;
}): ResultRuns {
  return {
    count: day.trades,
    head: { result: toRun(day.headResult), length: day.headRun },
    tail: { result: toRun(day.tailResult), length: day.tailRun },
    maxWinStreak: day.maxWinRun,
    maxLossStreak: day.maxLossRun,
  };
}


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
 * A write's execution and plan (issue 27), read by the domain and checked together: a stop on the losing side of the
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
 * A filter of the reports' model (issue 26) as the trades repo reads it: one account (or all) and a day range, which
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

async function timeZoneOf(db: Database, userId: string) {
  return (await getPreferences(db, userId)).timeZone;
}

/** Per-process statistics answers of each open database (tests open several in one process). */
const statsCaches = new WeakMap<Database, StatsCache>();
function statsCacheOf(db: Database): StatsCache {
  let cache = statsCaches.get(db);
  if (!cache) statsCaches.set(db, (cache = createStatsCache()));
  return cache;
}

/** Statistics computed from the database, without the cache. */
export async function computeStats(tx: Tx, userId: string, query: StatsQuery, scope: FilterScope): Promise<TradeStats> {
  const repo = tradesRepo(tx, userId);
  const { account, range, extra } = scope;
  const q = query.q?.trim();
  let days: DailyAggregate[];
  let runs: ResultRuns;
  const exclude = query.exclude;
  const sequenceRuns = (sequence: string) => summarizeResultRuns([...sequence].map((c) => (c === 'W' ? 'Win' : c === 'L' ? 'Loss' : 'BE')));
  if (q || extra) {
    const dailyRows = await repo.dailyAggregates(account, q, range, exclude, extra);
    days = dailyRows.map(toDailyAggregate);
    runs = sequenceRuns(await repo.resultSequence(account, q, range, exclude, extra));
  } else {
    let perDay = (await repo.dayRollups(account, range)).map((day) => ({ day: toDailyAggregate(day), runs: toResultRuns(day) }));
    // A day holding a left-out trade is summed again from its trades without it; the other days keep their rollup.
    if (exclude.length > 0) {
      for (const date of await repo.daysOf(exclude, account, range)) {
        const only = { from: date, to: date };
        const [sums] = await repo.dailyAggregates(account, undefined, only, exclude);
        const again = sums && { day: toDailyAggregate(sums), runs: sequenceRuns(await repo.resultSequence(account, undefined, only, exclude)) };
        perDay = perDay.flatMap((entry) => (entry.day.date !== date ? [entry] : again ? [again] : []));
      }
    }
    days = perDay.map((entry) => entry.day);
    runs = EMPTY_RESULT_RUNS;
    for (const entry of perDay) runs = combineResultRuns(runs, entry.runs);
  }
  const summary = summarizeAggregate(combineStats(days), streaksFromResultRuns(runs));
  const listFrom = query.days === 'all' ? undefined : query.days === 'none' ? null : query.days;
  return {
    // JSON has no Infinity: no losses travel as null.
    summary: { ...summary, profitFactor: Number.isFinite(summary.profitFactor) ? summary.profitFactor : null },
    by_week: buildResultsByWeek(days),
    by_weekday: buildResultsByWeekday(days),
    by_day: listFrom === undefined ? days : listFrom === null ? [] : days.filter((d) => d.date >= listFrom),
    by_day_before: combineStats(typeof listFrom === 'string' ? days.filter((d) => d.date < listFrom) : []),
  };
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
      // Trade Log's first page (issue 31 point 1). A failure of the page is the one reported.
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

  async get(db: Database, userId: string, id: string) {
    const found = await db.withUser(userId, async (tx) => {
      const row = await tradesRepo(tx, userId).find(id);
      return row && toTradeDto(row, await loadRiskDefaults(tx, userId));
    });
    if (!found) throw notFound('Trade not found');
    return found;
  },

  /**
   * Statistics for any filter, combined by the same domain formulas the UI uses. Without a search they come from the
   * per-day rollups the database keeps (a few hundred rows however many trades); a search reads its matching trades.
   * `days` chooses which per-day rows travel: all (default), none, or those from a day on, with the days before it
   * summed into `by_day_before` (the dashboard's charts look back months, not years).
   */
  async stats(db: Database, userId: string, query: StatsQuery, now: Date): Promise<TradeStats> {
    return db.withUser(userId, async (tx) => {
      const q = query.q?.trim();
      // A search also matches notes and account names, which do not bump the trades' version: never cached.
      const version = q ? undefined : await tradesRepo(tx, userId).version();
      const scope = await readFilterScope(tx, userId, query.filter, now);
      if (version === undefined) return computeStats(tx, userId, query, scope);
      const cache = statsCacheOf(db);
      const key = JSON.stringify([scope.account, scope.range, scope.timeZone, query.filter, query.exclude, query.days, scope.traderKey]);
      const cached = cache.get(userId, version, key);
      if (cached) return cached;
      const fresh = await computeStats(tx, userId, query, scope);
      cache.set(userId, version, key, fresh);
      return fresh;
    });
  },

  async create(db: Database, userId: string, input: TradeInput) {
    // The zone is read in the same transaction as the write: one transaction per request (issue 13 point 7).
    return db.withUser(userId, async (tx) => {
      const trade = normalizeOrThrow(input, (await preferencesIn(tx, userId)).timeZone);
      const execution = readExecutionAndPlan(input, trade);
      const repo = tradesRepo(tx, userId);
      if (input.account_id && !(await repo.accountExists(input.account_id))) {
        throw badRequest('account_id: Trading account not found');
      }
      if (input.playbook_id && (await playbooksRepo(tx, userId).list(input.playbook_id)).length === 0) throw badRequest('playbook_id: Playbook not found');
      const id = await repo.insertOne({ ...toRow(trade), ...execution, accountId: input.account_id ?? null, playbookId: input.playbook_id ?? null });
      return toTradeDto((await repo.find(id))!, await loadRiskDefaults(tx, userId));
    });
  },

  async update(db: Database, userId: string, id: string, patch: TradePatch) {
    return db.withUser(userId, async (tx) => {
      const timeZone = (await preferencesIn(tx, userId)).timeZone;
      const repo = tradesRepo(tx, userId);
      // Merged with the row as it is now, locked: fields a concurrent change wrote are kept, and the result (status)
      // comes from the P&L that will be stored.
      const current = await repo.lock(id);
      if (!current) throw notFound('Trade not found');
      if (patch.account_id && !(await repo.accountExists(patch.account_id))) {
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
      await repo.update(id, {
        ...toRow(trade),
        ...execution,
        ...(patch.account_id !== undefined && { accountId: patch.account_id }),
      });
      // Its playbook as PUT /api/trade-playbooks sets it, without ticks: the same playbook sent again keeps them.
      if (playbookId !== undefined && playbookId !== current.playbookId) await assignTradePlaybook(tx, userId, id, playbookId, []);
      // A manual trade's symbol is the key of its bars, and its P&L the capture's: its figures follow (issue 29).
      await recomputeExcursions(tx, userId, { ids: [id] });
      return toTradeDto((await repo.find(id))!, await loadRiskDefaults(tx, userId));
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

  /**
   * One planned risk for the selected trades (issue 27), all or nothing: a dollar amount, a stop that many points from
   * each trade's entry on its losing side, or none of their own (the defaults apply again). A stop needs each trade's
   * side, entry price and quantity: if one of the selected trades lacks them, no trade is changed. Ids of trades that
   * are not the caller's change nothing, as in the other bulk actions.
   */
  bulkRisk: (db: Database, userId: string, input: BulkRiskInput) =>
    db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      const { risk } = input;
      if (risk.kind === 'clear') return repo.setPlan(input.ids, { stopPrice: null, riskAmount: null });
      if (risk.kind === 'amount') {
        const amount = readRiskAmount(risk, 'amount');
        if (!amount.ok) throw badRequest(`risk.amount: ${amount.message}`);
        return repo.setPlan(input.ids, { stopPrice: null, riskAmount: centsToDecimalString(amount.value!) });
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
      return repo.setStops(stops as Array<{ id: string; stopPrice: string }>);
    }),

  /** Unassigned trades, less those whose delete waits for Undo (`exclude`), as the statistics leave them out. */
  unassignedCount: (db: Database, userId: string, exclude: readonly string[] = []) =>
    db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      const count = await repo.count('unassigned');
      return exclude.length > 0 ? count - (await repo.countAmong('unassigned', exclude)) : count;
    }),

  /** Every trade with its fills (issue 29): the JSON backup, which a restore reads back whole. */
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
  async importBackup(db: Database, userId: string, body: ArrayBuffer): Promise<BackupImportResult> {
    const timeZone = await timeZoneOf(db, userId);
    const job = await readBackupInWorker(body, { userId, timeZone, chunk: BACKUP_CHUNK[db.kind] });
    try {
      const { summary } = job;
      if (!summary.ok) throw new HttpError(summary.status as ContentfulStatusCode, summary.message, summary.details);
      return await db.withUser(userId, async (tx) => {
        const repo = tradesRepo(tx, userId);
        if (!(await repo.accountExists(summary.accountId))) throw badRequest('account_id: Trading account not found');
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
          if (index > 0) await yieldConnection(tx);
          imported += await repo.insertRecords(chunk);
          // Fills follow their trades by import key: a trade restored now gets them, and so does one the account held
          // from before fills were kept (issue 29); a trade that has fills keeps its own.
          await attachBackupFills(tx, userId, chunk);
        }
        await recomputeForTrades(tx, userId, summary.spans);
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
