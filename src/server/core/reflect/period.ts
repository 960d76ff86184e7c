import { and, eq, sql } from 'drizzle-orm';
import { getDayFromTradeDate, getTodayInZone } from '../../../domain/dates';
import {
  comparePeriods,
  comparePeriodsInR,
  computeReflectionRStatistics,
  computeReflectionStatistics,
  getComparisonRange,
  getReflectionPeriodLabel,
  getReflectionPeriodRange,
  toReflection,
  toRTrade,
  type PeriodComparison,
  type RComparison,
  type Reflection,
  type ReflectionPeriod,
  type ReflectionRStatistics,
  type ReflectionsPageData,
} from '../../../domain/reflections';
import { aggregateRowsByDay, createReportFilter, dayOf, RESULT_NAMES, selectTrades, UNASSIGNED } from '../../../domain/reports';
import { readTradeSide } from '../../../domain/trades/side';
import type { Database, Tx } from '../../db/client';
import { attachments, tradeReflections, trades } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { readerOf, withReportScope, type ReportViewer } from '../engine/scope';
import { getPreferences } from '../preferences/repo';
import type { AccountScope } from '../trades/repo';

/**
 * A Reflect period: its trades (the engine's, in the trading order, listed newest first) with what Reflect shows of
 * each (notes, the trader's overrides, the first image), and every figure the page and the analysis show of them. The
 * trader's own Reflect page and a mentor's read of it both come from here, so the two cannot disagree.
 */

interface ReflectionRow {
  id: string;
  tradeDate: string;
  symbol: string;
  period: string;
  tradeType: string;
  side: string | null;
  status: string;
  pnlCents: string;
  notes: string;
  link: string;
  tags: string[];
  createdAt: string;
  accountId: string | null;
  imageUrl: string | null;
  followedRules: boolean | null;
  overrideTags: string[] | null;
  description: string | null;
}

/** These trades (chosen by the engine) with what Reflect shows of each, in no particular order. */
async function reflectedTrades(tx: Tx, userId: string, ids: readonly string[]): Promise<ReflectionRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({
      id: trades.id,
      tradeDate: trades.tradeDate,
      symbol: trades.symbol,
      period: trades.period,
      tradeType: trades.tradeType,
      side: trades.side,
      status: trades.status,
      pnlCents: sql<string>`(${trades.pnl} * 100)::bigint::text`,
      notes: trades.notes,
      link: trades.link,
      tags: trades.tags,
      createdAt: trades.createdAt,
      accountId: trades.accountId,
      imageUrl: sql<
        string | null
      >`(select ${attachments.url} from ${attachments} where ${attachments.userId} = ${userId} and ${attachments.tradeId} = ${trades.id} order by ${attachments.createdAt} limit 1)`,
      followedRules: tradeReflections.followedRules,
      overrideTags: tradeReflections.tags,
      description: tradeReflections.description,
    })
    .from(trades)
    .leftJoin(tradeReflections, and(eq(tradeReflections.tradeId, trades.id), eq(tradeReflections.userId, userId)))
    .where(and(eq(trades.userId, userId), sql`${trades.id} = any(${`{${ids.join(',')}}`}::uuid[])`));
  return rows as ReflectionRow[];
}

function toReflectionFromRow(row: ReflectionRow): Reflection {
  return toReflection(
    {
      id: row.id,
      tradeDate: getDayFromTradeDate(new Date(row.tradeDate).toISOString())!,
      symbol: row.symbol,
      session: row.period,
      tradeType: row.tradeType,
      side: readTradeSide(row.side),
      status: row.status,
      pnlCents: Number(row.pnlCents),
      notes: row.notes,
      link: row.link,
      tags: row.tags,
      imageUrl: row.imageUrl,
      createdAt: row.createdAt,
      accountId: row.accountId,
    },
    row.followedRules === null && row.overrideTags === null && row.description === null
      ? null
      : { followedRules: row.followedRules, tags: row.overrideTags, description: row.description },
  );
}

const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

export type ReflectPeriodData = Omit<ReflectionsPageData, 'insights'> & { rStatistics: ReflectionRStatistics };

export interface ReflectPeriodQuery {
  period: ReflectionPeriod;
  offset: number;
  account: AccountScope;
  /** Only these of the period's trades (the analysis of the trades a page sent). */
  tradeIds?: string[];
}

export interface ReflectPeriodOptions {
  /** The analysis's previous periods in R: read only for the analysis (the page and the summary show none). */
  withRComparison?: boolean;
  /**
   * The accounts 'all' means, and the only ones any read may show (a mentor's granted accounts); every account when
   * left out. An account asked for outside them must have been refused before.
   */
  within?: readonly string[];
  /** Said of 'all' when `within` narrows it. */
  allName?: string;
  /**
   * Run first in the transaction that reads the trades' notes and overrides: a check that may refuse (a mentor's live
   * grant), answering the accounts still readable; a trade of any other account is left out.
   */
  guard?: (tx: Tx) => Promise<readonly string[]>;
  /** A mentor: the trades and their notes are read in the mentor's transaction (row-level security narrows them). */
  viewer?: ReportViewer;
}

export async function loadReflectPeriod(
  db: Database,
  userId: string,
  query: ReflectPeriodQuery,
  now: Date,
  options: ReflectPeriodOptions = {},
): Promise<ReflectPeriodData> {
  const { timeZone } = await getPreferences(db, userId);
  const today = getTodayInZone(now, timeZone);
  const range = getReflectionPeriodRange(query.period, query.offset, today);
  const comparisonRange = getComparisonRange(query.period, range);
  // An empty list of accounts is every account to a filter: narrowed to none, it is an account no trade is in.
  const within = options.within && (options.within.length > 0 ? [...options.within] : [NO_ACCOUNT]);
  const account = query.account === 'all' ? (within ?? []) : [query.account === 'unassigned' ? UNASSIGNED : query.account];
  const filterOf = (days: { from: string; to: string }) => createReportFilter({ range: 'custom', from: days.from, to: days.to, account });
  const read = readerOf(db, userId, options.viewer);
  return withReportScope(
    db,
    userId,
    filterOf(range),
    now,
    async (scope) => {
      const accountName =
        query.account === 'all'
          ? (options.allName ?? 'All accounts')
          : query.account === 'unassigned'
            ? 'Unassigned trades'
            : scope.accounts.get(query.account);
      if (accountName === undefined) throw badRequest('account: Trading account not found');
      const { columns } = scope;
      const only = query.tradeIds ? new Set(query.tradeIds) : null;
      const rows = only ? scope.set.rows.filter((i) => only.has(columns.id[i]!)) : scope.set.rows;
      const ids = Array.from(rows, (i) => columns.id[i]!).reverse();
      const { stored, readable } = await read(async (tx) => {
        const readable = options.guard ? new Set(await options.guard(tx)) : null;
        return { stored: new Map((await reflectedTrades(tx, userId, ids)).map((row) => [row.id, row])), readable };
      });
      const reflections = ids.flatMap((id) => {
        const row = stored.get(id);
        if (!row || (readable && (row.accountId === null || !readable.has(row.accountId)))) return [];
        return [toReflectionFromRow(row)];
      });
      const statistics = computeReflectionStatistics(reflections);
      // Each trade's planned risk as everywhere (its own plan, else the trader's default): the engine's risk column.
      const risk = scope.risk();
      const rowOf = new Map(Array.from(rows, (i) => [columns.id[i]!, i] as const));
      const riskOfRow = (i: number) => (risk[i]! > 0 ? risk[i]! : null);
      const riskOfReflection = (r: Reflection) => {
        const i = rowOf.get(r.tradeId);
        return i === undefined ? null : riskOfRow(i);
      };
      let comparison: PeriodComparison | null = null;
      let rComparison: RComparison | null = null;
      if (comparisonRange && !query.tradeIds) {
        const previous = selectTrades(columns, filterOf(comparisonRange), comparisonRange, scope.timeZone);
        comparison = comparePeriods(query.period, range, statistics.totals, aggregateRowsByDay(previous));
        // The same comparison in R, for the analysis under the $ / R switch: each previous trade's R as this period's.
        rComparison = options.withRComparison
          ? comparePeriodsInR(
              query.period,
              range,
              reflections.map((r) => toRTrade(r, riskOfReflection(r))),
              Array.from(previous.rows, (i) => ({
                tradeDate: dayOf(columns, i),
                pnlCents: columns.pnl[i]!,
                riskCents: riskOfRow(i),
                result:
                  RESULT_NAMES[columns.result[i]!] === 'Win'
                    ? ('Win' as const)
                    : RESULT_NAMES[columns.result[i]!] === 'Loss'
                      ? ('Loss' as const)
                      : ('BE' as const),
              })),
            )
          : null;
      }
      const rStatistics = computeReflectionRStatistics(reflections, riskOfReflection, rComparison);
      return {
        period: query.period,
        offset: query.offset,
        label: getReflectionPeriodLabel(query.period, query.offset),
        from: range.from,
        to: range.to,
        account: query.account,
        accountName,
        timeZone,
        reflections,
        statistics,
        rStatistics,
        comparison,
      };
    },
    options.viewer,
  );
}
