import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { hasMistakeFilter, hasRiskFilter, type ReportFilter, type ResolvedRange } from '../../../domain/reports/filter';
import { toFilterClauses, type FilterClause } from '../../../domain/reports/filter-clauses';
import { buildOrderedColumns, type OrderedColumns, type OrderedTrade } from './columns/merge-columns';
import { toMistakeKey } from '../../../domain/reports/report-trade';
import { isCurrency, type AccountCurrency } from '../../../domain/reports/currency';
import { getFuturesRoot, getPointValue, symbolsOfMarkets } from '../../../domain/instruments';
import type { Tx } from '../../db/client';
import {
  economicEvents,
  importedEconomicEvents,
  playbooks,
  tradeChanges,
  trades,
  tradeVersions,
  tradingAccounts,
  userPreferences,
} from '../../db/schema';

/**
 * Data access for the reports. Every query names its owner; row-level security backs it up.
 *
 * `reportFilterSql` is the filter model in SQL, the one translation every SQL read of a filter goes through (the Trade
 * Log's list and statistics); the domain's `matchesReportFilter` says the same for trades in memory, and the API tests
 * hold the two to the same trades.
 */

/**
 * A list of the trader's texts as one parameter: JSON, unpacked by the database, so that no comma, quote or brace in a
 * tag or a setup can change what the list holds (as an array literal's text could).
 */
const textArray = (values: readonly string[]) => sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
/** Validated numbers or uuids as an array literal, one parameter. */
const literalArray = (values: ReadonlyArray<string | number>) => `{${values.join(',')}}`;
const anyText = (column: SQLWrapper, values: readonly string[]) => sql`${column} = any(${textArray(values)})`;

/**
 * What the R and mistake filters read beyond a trade's row, found in the domain's words so that the SQL
 * cannot spell them differently: each instrument's root (the key of the risk defaults) and point value, and which of
 * the
 * trader's stored tags are mistakes ('fomo' is the mistake 'FOMO').
 */
export interface SqlTraderData {
  userId: string;
  /** By symbol: its root; by pricing symbol (the contract, else the symbol): its point value. */
  roots: Record<string, string>;
  pointValues: Record<string, string>;
  /** The trader's stored tags that are mistakes, and those that are one of the mistakes the filter names. */
  mistakeTags: string[];
  namedMistakeTags: string[];
  /** The trader's distinct symbols, when the filter counts micros with their full-size market. */
  symbols: string[];
}

/** Reads what `reportFilterSql` needs for the filter's R and mistake keys; undefined when it has none. */
export async function readSqlTraderData(
  tx: Tx,
  userId: string,
  filter: ReportFilter,
  loadMistakeTags: () => Promise<string[]>,
): Promise<SqlTraderData | undefined> {
  const byRisk = hasRiskFilter(filter);
  const byMistake = hasMistakeFilter(filter);
  const byMarket = filter.markets === 'grouped' && filter.symbol.length > 0;
  if (!byRisk && !byMistake && !byMarket) return undefined;
  const data: SqlTraderData = { userId, roots: {}, pointValues: {}, mistakeTags: [], namedMistakeTags: [], symbols: [] };
  if (byMarket) {
    const rows = (await tx.execute(sql`select distinct ${trades.symbol} as symbol from ${trades} where ${trades.userId} = ${userId}`)) as unknown as {
      rows: Array<{ symbol: string }>;
    };
    data.symbols = rows.rows.map((r) => r.symbol);
  }
  if (byRisk) {
    const rows = (await tx.execute(
      sql`select distinct ${trades.symbol} as symbol, ${trades.contract} as contract from ${trades} where ${trades.userId} = ${userId}`,
    )) as unknown as {
      rows: Array<{ symbol: string; contract: string | null }>;
    };
    for (const { symbol, contract } of rows.rows) {
      data.roots[symbol] = getFuturesRoot(symbol);
      const pricing = contract || symbol;
      data.pointValues[pricing] = getPointValue(pricing).toString();
    }
  }
  if (byMistake) {
    const marked = new Set((await loadMistakeTags()).map(toMistakeKey));
    const named = new Set(filter.mistake.map(toMistakeKey));
    const rows = (await tx.execute(
      sql`select distinct t as tag from ${trades}, unnest(${trades.tags}) t where ${trades.userId} = ${userId}`,
    )) as unknown as {
      rows: Array<{ tag: string }>;
    };
    for (const { tag } of rows.rows) {
      if (marked.has(toMistakeKey(tag))) data.mistakeTags.push(tag);
      if (named.has(toMistakeKey(tag))) data.namedMistakeTags.push(tag);
    }
  }
  return data;
}

/**
 * A trade's planned risk in cents, as resolvePlannedRisk (src/domain/risk) prices it: its own stop (|entry - stop| x
 * quantity x point value, half up), else its own dollar risk, else the most specific of the trader's defaults (its
 * account and root, its account, all accounts and its root, all accounts); null without one, or at 0.
 */
function plannedRiskCentsSql(data: SqlTraderData): SQL {
  const pointValue = sql`(${JSON.stringify(data.pointValues)}::jsonb ->> coalesce(nullif(${trades.contract}, ''), ${trades.symbol}))::numeric`;
  const root = sql`(${JSON.stringify(data.roots)}::jsonb ->> ${trades.symbol})`;
  return sql`(case
    when ${trades.stopPrice} is not null then nullif(round(abs(${trades.entryPrice} - ${trades.stopPrice}) * abs(${trades.quantity}) * ${pointValue} * 100), 0)
    when ${trades.riskAmount} is not null then case when ${trades.riskAmount} > 0 then ${trades.riskAmount} * 100 end
    else (select case when d.risk_amount is not null then case when d.risk_amount > 0 then d.risk_amount * 100 end
                      else nullif(round(d.stop_points * abs(${trades.quantity}) * ${pointValue} * 100), 0) end
          from risk_defaults d
          where d.user_id = ${data.userId} and (d.account_id = ${trades.accountId} or d.account_id is null) and (d.root = ${root} or d.root is null)
          order by d.account_id is null, d.root is null
          limit 1)
  end)`;
}

/**
 * A filter in SQL: each of its clauses (src/domain/reports/filter-clauses.ts, the one definition the engine applies
 * to its
 * columns too) written over the trades table, AND-ed. The Trade Log's pages read a filter this way; a differential test
 * holds the two to the same trades for random trades and filters.
 */
export function reportFilterSql(filter: ReportFilter, range: ResolvedRange, timeZone: string, traderData?: SqlTraderData): SQL | undefined {
  const parts = toFilterClauses(filter, range).map((clause) => clauseSql(clause, timeZone, traderData));
  return parts.length > 0 ? and(...parts) : undefined;
}

const TEXT_COLUMNS = {
  symbol: trades.symbol,
  contract: trades.contract,
  side: trades.side,
  setup: trades.tradeType,
  playbook: trades.playbookId,
  session: trades.period,
} as const;

function clauseSql(clause: FilterClause, timeZone: string, data: SqlTraderData | undefined): SQL {
  switch (clause.kind) {
    case 'days':
      // trade_date is the trading day at 12:00 UTC, so a day range is a plain timestamp range.
      return and(
        clause.from === null ? undefined : sql`${trades.tradeDate} >= ${`${clause.from}T00:00:00Z`}::timestamptz`,
        clause.to === null ? undefined : sql`${trades.tradeDate} <= ${`${clause.to}T23:59:59Z`}::timestamptz`,
      )!;
    case 'account': {
      const either: SQL[] = [];
      if (clause.ids.length > 0) either.push(sql`${trades.accountId} = any(${literalArray(clause.ids)}::uuid[])`);
      if (clause.unassigned) either.push(sql`${trades.accountId} is null`);
      return either.length === 1 ? either[0]! : sql`(${sql.join(either, sql` or `)})`;
    }
    case 'text':
      return clause.field === 'playbook'
        ? sql`${trades.playbookId} = any(${literalArray(clause.values)}::uuid[])`
        : anyText(TEXT_COLUMNS[clause.field], clause.values);
    case 'market':
      // The trader's symbols of those markets, named: SQL does not know which contract is whose micro.
      return anyText(trades.symbol, symbolsOfMarkets(clause.markets, data?.symbols ?? []));
    case 'result':
      return anyText(trades.status, clause.values);
    case 'weekday':
      return sql`extract(isodow from ${trades.tradeDate} at time zone 'UTC')::int = any(${literalArray(clause.values)}::int[])`;
    case 'entry-hour':
      return sql`${trades.entryTime} is not null and extract(hour from ${trades.entryTime} at time zone ${timeZone})::int = any(${literalArray(clause.values)}::int[])`;
    case 'hold': {
      // Whole seconds from the times in whole milliseconds, rounded as the domain rounds them (it reads the times as
      // JavaScript does), in the clause's [from, to) ranges.
      const ms = (column: SQLWrapper) => sql`floor(extract(epoch from ${column}) * 1000)`;
      const seconds = sql`round((${ms(trades.exitTime)} - ${ms(trades.entryTime)}) / 1000)`;
      const ranges = clause.ranges.map((r) =>
        r.to === null ? sql`${seconds} >= ${r.from}` : sql`(${seconds} >= ${r.from} and ${seconds} < ${r.to})`,
      );
      return sql`(${trades.exitTime} >= ${trades.entryTime} and (${sql.join(ranges, sql` or `)}))`;
    }
    case 'size':
      return and(
        clause.min === null ? undefined : sql`${trades.quantity} >= ${String(clause.min)}::numeric`,
        clause.max === null ? undefined : sql`${trades.quantity} <= ${String(clause.max)}::numeric`,
      )!;
    case 'tags': {
      const tags = textArray(clause.values);
      if (clause.mode === 'any') return sql`${trades.tags} && ${tags}`;
      if (clause.mode === 'all') return sql`${trades.tags} @> ${tags}`;
      return sql`not (${trades.tags} && ${tags})`;
    }
    case 'planned-risk': {
      if (!data) throw new Error('reportFilterSql: the R filter needs readSqlTraderData');
      const risk = plannedRiskCentsSql(data);
      // A trade without a planned risk compares as null, and is left out by a bound.
      return (
        and(
          clause.want === false ? sql`${risk} is null` : clause.want === true ? sql`${risk} is not null` : undefined,
          clause.min === null ? undefined : sql`${trades.pnl} * 10000 >= ${clause.min} * ${risk}`,
          clause.max === null ? undefined : sql`${trades.pnl} * 10000 <= ${clause.max} * ${risk}`,
        ) ?? sql`true`
      );
    }
    case 'mistakes': {
      if (!data) throw new Error('reportFilterSql: the mistake filter needs readSqlTraderData');
      return (
        and(
          clause.mode === 'with' ? sql`${trades.tags} && ${textArray(data.mistakeTags)}` : undefined,
          clause.mode === 'without' ? sql`not (${trades.tags} && ${textArray(data.mistakeTags)})` : undefined,
          clause.named.length > 0 ? sql`${trades.tags} && ${textArray(data.namedMistakeTags)}` : undefined,
        ) ?? sql`true`
      );
    }
    case 'news': {
      // The entry in whole milliseconds, as the engine reads it, and the window's two ends both included.
      const entry = sql`date_trunc('milliseconds', ${trades.entryTime})`;
      const window = sql`(${clause.windowMs}::int * interval '1 millisecond')`;
      // The feed's events, and the ones the trader imported (theirs alone: row-level security holds that too).
      const near = sql`(exists (select 1 from ${economicEvents} e where e.at between ${entry} - ${window} and ${entry} + ${window})
        or exists (select 1 from ${importedEconomicEvents} i where i.user_id = ${trades.userId} and i.at between ${entry} - ${window} and ${entry} + ${window}))`;
      return sql`(${trades.entryTime} is not null and ${clause.near ? near : sql`not ${near}`})`;
    }
  }
}

/** A trader's trades as the reports read them (columns in trading order, with their order keys), and their version. */
export interface TradesSnapshot extends OrderedColumns {
  /** 0 for a trader who never had a trade. */
  version: number;
}

/** The trades changed after a version: their ids, and those that still exist as they are now. */
export interface TradeChanges {
  version: number;
  changed: Set<string>;
  current: OrderedTrade[];
}

/** One trade as the load query writes it (a JSON array: lighter to send and parse than 100,000 rows of columns). */
type LoadedRow = [
  id: string,
  tradeDateSeconds: number,
  accountId: string | null,
  symbol: string,
  contract: string | null,
  side: string | null,
  setup: string,
  session: string,
  tags: string[],
  status: string,
  pnlCents: number,
  commissionCents: number,
  entryMicros: number | null,
  exitMicros: number | null,
  quantity: number | null,
  createdMicros: number,
  entryPrice: string | null,
  stopPrice: string | null,
  riskCents: number | null,
  playbookId: string | null,
  rulesTicked: number,
];

const micros = (column: SQLWrapper) => sql`(extract(epoch from ${column}) * 1000000)::int8`;

/** One trade as a JSON array (LoadedRow): lighter to send and parse than 100,000 rows of columns. */
const loadedRow = sql`json_build_array(
  ${trades.id}, extract(epoch from ${trades.tradeDate})::int8, ${trades.accountId}, ${trades.symbol}, ${trades.contract},
  ${trades.side}, ${trades.tradeType}, ${trades.period}, ${trades.tags}, ${trades.status},
  (${trades.pnl} * 100)::int8, (${trades.commission} * 100)::int8, ${micros(trades.entryTime)}, ${micros(trades.exitTime)},
  ${trades.quantity}, ${micros(trades.createdAt)},
  ${trades.entryPrice}::text, ${trades.stopPrice}::text, (${trades.riskAmount} * 100)::int8, ${trades.playbookId},
  -- The rules of its playbook the trade ticked: a change of them logs the trade (playbooks/repo.ts).
  (select count(*)::int from trade_rule_checks c where c.user_id = ${trades.userId} and c.trade_id = ${trades.id})
)`;

export const reportsRepo = (tx: Tx, userId: string) => ({
  /** The trader's trades' version alone (trade_versions, bumped by every write of their trades). */
  async version(): Promise<number> {
    const [row] = await tx.select({ version: tradeVersions.version }).from(tradeVersions).where(eq(tradeVersions.userId, userId));
    return Number(row?.version ?? 0);
  },

  /**
   * What every report reads before its trades, in one statement: the trades' version, the trader's zone (null when the
   * preferences row is not made yet), and the accounts' names and starting balances (each account has its own).
   */
  async context(): Promise<{
    version: number;
    timeZone: string | null;
    accounts: Map<string, string>;
    startingBalances: Map<string, string>;
    currencies: AccountCurrency[];
    playbooks: Map<string, string>;
  }> {
    const result = await tx.execute(sql`
      select
        (select ${tradeVersions.version} from ${tradeVersions} where ${tradeVersions.userId} = ${userId}) as version,
        (select ${userPreferences.timeZone} from ${userPreferences} where ${userPreferences.userId} = ${userId}) as time_zone,
        (select coalesce(json_agg(json_build_array(${tradingAccounts.id}, ${tradingAccounts.name}, ${tradingAccounts.startingBalance}::text, ${tradingAccounts.currency}, ${tradingAccounts.isDefault})), '[]')::text
         from ${tradingAccounts} where ${tradingAccounts.userId} = ${userId}) as accounts,
        (select coalesce(json_agg(json_build_array(${playbooks.id}, ${playbooks.name})), '[]')::text
         from ${playbooks} where ${playbooks.userId} = ${userId}) as playbooks`);
    const [row] = (
      result as unknown as { rows: Array<{ version: string | number | null; time_zone: string | null; accounts: string; playbooks: string }> }
    ).rows;
    const accounts = JSON.parse(row?.accounts ?? '[]') as Array<[string, string, string, string, boolean]>;
    return {
      version: Number(row?.version ?? 0),
      timeZone: row?.time_zone ?? null,
      accounts: new Map(accounts.map(([id, name]) => [id, name])),
      startingBalances: new Map(accounts.map(([id, , balance]) => [id, balance])),
      currencies: accounts.map(([id, name, , currency, isDefault]) => ({ id, name, currency: isCurrency(currency) ? currency : 'USD', isDefault })),
      playbooks: new Map(JSON.parse(row?.playbooks ?? '[]') as Array<[string, string]>),
    };
  },

  /**
   * Every trade of the trader, with the version in the same statement (one snapshot: the trades are at least as new
   * as the version they are labelled with, so a copy is never taken for newer than it is). Sorted here rather than by
   * the database: an aggregate's ORDER BY is a sort of every row on PGlite, and JavaScript sorts numbers faster.
   */
  async loadTrades(): Promise<TradesSnapshot> {
    const result = await tx.execute(sql`
      select
        (select ${tradeVersions.version} from ${tradeVersions} where ${tradeVersions.userId} = ${userId}) as version,
        (select coalesce(json_agg(${loadedRow}), '[]')::text from ${trades} where ${trades.userId} = ${userId}) as rows`);
    const [head] = (result as unknown as { rows: Array<{ version: string | number | null; rows: string }> }).rows;
    const ordered = buildOrderedColumns(toOrderedTrades(JSON.parse(head?.rows ?? '[]') as LoadedRow[]));
    return { version: Number(head?.version ?? 0), ...ordered };
  },

  /**
   * The trades changed after version `since` (migration trade_changes), read in one statement with the version they
   * bring the copy to; null when the log does not reach back that far (the copy is read whole again). The trades are
   * reached from the log by their primary key: the read costs what changed, not what the trader holds.
   */
  async loadChanges(since: number): Promise<TradeChanges | null> {
    const changedIds = sql`select ${tradeChanges.tradeId} from ${tradeChanges} where ${tradeChanges.userId} = ${userId} and ${tradeChanges.version} > ${since}`;
    const result = await tx.execute(sql`
      select v.version, v.logged_after,
        case when v.logged_after <= ${since} then
          (select coalesce(json_agg(distinct c.id), '[]')::text from (${changedIds}) as c(id)) end as changed,
        case when v.logged_after <= ${since} then
          (select coalesce(json_agg(${loadedRow}), '[]')::text from (select distinct c.id from (${changedIds}) as c(id)) as changed
           join ${trades} on ${trades.id} = changed.id and ${trades.userId} = ${userId}) end as rows
      from ${tradeVersions} v where v.user_id = ${userId}`);
    const [head] = (
      result as unknown as { rows: Array<{ version: string | number; logged_after: string | number; changed: string | null; rows: string | null }> }
    ).rows;
    if (!head || head.changed === null || head.rows === null) return null;
    return {
      version: Number(head.version),
      changed: new Set(JSON.parse(head.changed) as string[]),
      current: toOrderedTrades(JSON.parse(head.rows) as LoadedRow[]),
    };
  },
});

/** Rows into report trades with their places in the trading order (the columns keep each text once). */
function toOrderedTrades(rows: readonly LoadedRow[]): OrderedTrade[] {
  const days = new Map<number, string>();
  const out: OrderedTrade[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    let day = days.get(r[1]);
    if (day === undefined) {
      day = new Date(r[1] * 1000).toISOString().slice(0, 10);
      days.set(r[1], day);
    }
    const [entry, exit, created] = [r[12], r[13], r[15]];
    out[i] = {
      day: r[1],
      first: entry ?? exit ?? created,
      second: exit ?? entry ?? created,
      created,
      trade: {
        id: r[0],
        tradeDate: day,
        accountId: r[2],
        symbol: r[3],
        contract: r[4],
        side: r[5],
        setup: r[6],
        session: r[7],
        tags: r[8],
        status: r[9],
        pnlCents: Number(r[10]),
        commissionCents: Number(r[11]),
        entryMs: entry === null ? null : Math.floor(entry / 1000),
        exitMs: exit === null ? null : Math.floor(exit / 1000),
        quantity: r[14] === null ? null : Number(r[14]),
        entryPrice: r[16],
        stopPrice: r[17],
        riskCents: r[18] === null ? null : Number(r[18]),
        playbookId: r[19],
        rulesTicked: r[20],
      },
    };
  }
  return out;
}
