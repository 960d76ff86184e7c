import type { BackupImportResult, Trade, TradeStats } from '../../../contract/trades';
import { parseInstant } from '../../../domain/dates';
import { centsToDecimalString, parseDecimal, toCents } from '../../../domain/money';
import { normalizeTradeInput, readDecimalField, readTradeExecution, type NormalizedTrade } from '../../../domain/trades';
import { checkRiskPrices, computeRMultiple, readRiskAmount, readTradePlan, readTradeSide, resolvePlannedRisk, type RiskDefault, type RiskTrade } from '../../../domain/risk';
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
import { resolveReportRange, type ReportFilter } from '../../../domain/reports/filter';
import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { badRequest, notFound } from '../../http/errors';
import { getPreferences, preferencesIn } from '../preferences/routes';
import { reportFilterSql } from '../reports/repo';
import { decodeCursor, encodeCursor } from './cursor';
import { tradesRepo, type AccountScope, type DayRange, type ListOrder, type ListPosition, type NewTradeRow, type TradeRow } from './repo';
import { backupTradeRow, type BulkRiskInput, type ListQuery, type StatsQuery, type TradeInput, type TradePatch } from './schemas';

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

/** Stored columns from a normalized trade. */
export function toRow(trade: NormalizedTrade): NewTradeRow {
  return {
    symbol: trade.symbol,
    tradeDate: trade.tradeDate,
    dayOfWeek: trade.dayOfWeek,
    period: trade.period,
    tradeType: trade.tradeType,
    side: trade.side,
    status: trade.status,
    pnl: centsToDecimalString(trade.pnlCents),
    commission: centsToDecimalString(trade.commissionCents),
    link: trade.link,
    notes: trade.notes,
    tags: trade.tags,
  };
}

/**
 * The largest money amount a trade may carry: far beyond any real trade, and small enough that sums of 100,000 trades
 * stay exact integers in JavaScript and fit `numeric(16,2)` (a larger value was a database error, a 500).
 */
const MAX_MONEY_CENTS = 99_999_999_999; // 999,999,999.99
const MONEY_RANGE = 'must be between -999,999,999.99 and 999,999,999.99';

function checkMoney(field: string, value: number, where: string) {
  if (!(Math.abs(value) <= MAX_MONEY_CENTS)) throw badRequest(`${where}${field}: ${MONEY_RANGE}`);
}

/** Trading days a journal can hold: year 0 is no day PostgreSQL knows, and nobody traded futures in 1850. */
const FIRST_TRADE_YEAR = 1900;
const LAST_TRADE_YEAR = 2999;

/** The API's names of the fields the spec's 'Please fill in all required fields.' is about. */
const REQUIRED_FIELD_NAMES = { date: 'trade_date', session: 'period' } as const;

/** `where` prefixes a backup row's messages ("Row 3: "), `path` its fields ("trades.2."). */
function normalizeOrThrow(raw: Record<string, unknown>, timeZone: string, where = '', path = ''): NormalizedTrade {
  const result = normalizeTradeInput(raw, { pnlBasis: 'net', timeZone });
  if (!result.ok && 'invalid' in result) throw badRequest(`${where}${result.error}`);
  if (!result.ok) {
    const fields = result.missing.map((name) => ({ field: `${path}${REQUIRED_FIELD_NAMES[name]}`, message: result.error }));
    throw badRequest(`${where}${result.error}`, { missing: result.missing, fields });
  }
  const year = Number(result.trade.tradeDay.slice(0, 4));
  if (!(year >= FIRST_TRADE_YEAR && year <= LAST_TRADE_YEAR)) {
    const key = ['trade_date', 'tradeDate', 'date'].find((k) => raw[k] !== undefined && raw[k] !== null) ?? 'trade_date';
    throw badRequest(`${where}${key}: must be a day between ${FIRST_TRADE_YEAR}-01-01 and ${LAST_TRADE_YEAR}-12-31`);
  }
  checkMoney('pnl', result.trade.pnlCents, where);
  checkMoney('commission', result.trade.commissionCents, where);
  return result.trade;
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
async function readFilterScope(tx: Tx, userId: string, filter: ReportFilter, now: Date): Promise<{ account: AccountScope; range: DayRange; extra?: SQL }> {
  const needsZone = filter.hour.length > 0 || (filter.range !== 'custom' && filter.range !== 'all-time');
  const timeZone = needsZone ? (await preferencesIn(tx, userId)).timeZone : 'UTC';
  const resolved = resolveReportRange(filter, now, timeZone);
  const oneAccount = filter.account.length <= 1;
  const account: AccountScope = filter.account.length === 1 ? filter.account[0]! : 'all';
  const extra = reportFilterSql({ ...filter, account: oneAccount ? [] : filter.account }, { from: null, to: null }, timeZone);
  return { account, range: { from: resolved.from ?? undefined, to: resolved.to ?? undefined }, extra };
}

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
          order,
          extra,
        });
      }
      const page = rows.slice(0, query.limit);
      const total = cursor?.total ?? rows[0]?.total ?? (await repo.count(account, query.q, range, extra));
      const defaults = await loadRiskDefaults(tx, userId);
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
      const repo = tradesRepo(tx, userId);
      const { account, range, extra } = await readFilterScope(tx, userId, query.filter, now);
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
      const id = await repo.insertOne({ ...toRow(trade), ...execution, accountId: input.account_id ?? null });
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
      const merged = { ...rowAsInput(current), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
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

  exportAll: (db: Database, userId: string) =>
    db.withUser(userId, async (tx) => {
      const defaults = await loadRiskDefaults(tx, userId);
      return (await tradesRepo(tx, userId).all()).map((row) => toTradeDto(row, defaults));
    }),

  /**
   * Imports a JSON backup into one account, all or nothing. Each trade keeps its original id as its import key,
   * so importing the same backup into the same account twice adds nothing the second time.
   */
  async importBackup(db: Database, userId: string, accountId: string, items: Array<Record<string, unknown>>): Promise<BackupImportResult> {
    const timeZone = await timeZoneOf(db, userId);
    const createdAt = createdAtKeepingOrder(items);
    const rows: NewTradeRow[] = items.map((item, index) => {
      const where = `Row ${index + 1}: `;
      const checked = backupTradeRow.safeParse(item);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        throw badRequest(`${where}${issue.path.join('.')}: ${issue.message}`);
      }
      const trade = normalizeOrThrow(item, timeZone, where, `trades.${index}.`);
      const originalId = typeof item.id === 'string' && item.id ? item.id : null;
      const grossPnlCents = item.gross_pnl == null || item.gross_pnl === '' ? null : toCents(item.gross_pnl);
      if (grossPnlCents !== null) checkMoney('gross_pnl', grossPnlCents, where);
      // A backup's plan is restored as it was written; one that no longer checks out is refused naming its row.
      const plan = readTradePlan(item);
      if (!plan.ok) throw badRequest(`${where}${plan.field}: ${plan.message}`);
      return {
        ...toRow(trade),
        accountId,
        stopPrice: plan.value.stopPrice,
        riskAmount: plan.value.riskCents === null ? null : centsToDecimalString(plan.value.riskCents),
        targetPrice: plan.value.targetPrice,
        contract: typeof item.contract === 'string' ? item.contract : null,
        entryTime: instantOrNull(item.entry_time, `${where}entry_time`),
        exitTime: instantOrNull(item.exit_time, `${where}exit_time`),
        entryPrice: decimalOrNull(item.entry_price, `${where}entry_price`),
        exitPrice: decimalOrNull(item.exit_price, `${where}exit_price`),
        quantity: decimalOrNull(item.quantity, `${where}quantity`),
        grossPnl: grossPnlCents === null ? null : centsToDecimalString(grossPnlCents),
        importSource: typeof item.import_source === 'string' ? item.import_source : 'json-backup',
        importKey: originalId ? `backup:${originalId}` : null,
        ...(createdAt[index] && { createdAt: createdAt[index] }),
      };
    });
    return db.withUser(userId, async (tx) => {
      const repo = tradesRepo(tx, userId);
      if (!(await repo.accountExists(accountId))) throw badRequest('account_id: Trading account not found');
      // Its duplicates are those of the unique import key, which the database enforces whatever runs at the same
      // time; taken like a broker import's, so a restore and an import into one account do not interleave.
      await lockFor(tx, 'account_imports', accountId);
      const imported = await repo.insertMany(rows, { skipDuplicates: true });
      return { imported, skipped: rows.length - imported };
    });
  },
};

/** A stop `points` away from the entry on the losing side (below a long, above a short), or null without them. */
function placeStop(row: { side: string | null; entryPrice: string | null; quantity: string | null }, points: string): string | null {
  const side = readTradeSide(row.side);
  const entry = parseDecimal(row.entryPrice);
  if (!side || !entry || !parseDecimal(row.quantity)) return null;
  return (side === 'Long' ? entry.minus(points) : entry.plus(points)).toFixed();
}

/** Prices and quantities: numeric(24,8) holds 16 integer digits; more was a database error (a 500). */
function decimalOrNull(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value).trim();
  const match = /^-?(\d+)(\.\d+)?$/.exec(text);
  if (!match) return null;
  if (match[1]!.replace(/^0+(?=\d)/, '').length > 16) throw badRequest(`${field}: must have at most 16 digits before the decimal point`);
  return text;
}

/**
 * An ISO timestamp with its offset (as exported) of a real day and time within years 1-9999; anything else was handed
 * to the database and failed with a 500 (year 0, issue 25), or moved to another day (2026-02-30 as March 2).
 */
const readInstant = parseInstant;

function instantOrNull(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = readInstant(value);
  if (ms === null) throw badRequest(`${field}: must be an ISO timestamp with a time zone, e.g. 2025-03-03T14:35:00Z`);
  return new Date(ms).toISOString();
}

/**
 * A backup keeps each trade's created_at, so trades of the same day list (and count towards streaks) in the same
 * order after a restore. The export carries milliseconds, and an earlier import gives many trades one created_at;
 * trades that share one are spaced by a microsecond in file order (the export's newest first), which is the order
 * the id tie-break gave them before. Rows without a readable created_at get the database's now().
 */
function createdAtKeepingOrder(items: Array<Record<string, unknown>>): Array<string | undefined> {
  const taken = new Map<number, number>();
  return items.map((item) => {
    const ms = readInstant(item.created_at);
    if (ms === null) return undefined;
    const rank = taken.get(ms) ?? 0;
    taken.set(ms, rank + 1);
    const micros = ms * 1000 - rank;
    const wholeMs = Math.floor(micros / 1000);
    const fraction = String(micros - wholeMs * 1000).padStart(3, '0');
    return new Date(wholeMs).toISOString().replace('Z', `${fraction}Z`);
  });
}
