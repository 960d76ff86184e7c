import { asc, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { SortDirection, TradeSort } from '../../../contract/trades';
import { tradeExcursions, trades, tradingAccounts } from '../../db/schema';

/**
 * The trading order in SQL (the domain's definition is src/domain/trades/trading-order.ts):
 *
 *   (trade_date, coalesce(entry_time, exit_time, created_at), coalesce(exit_time, entry_time, created_at),
 * created_at, id)
 *
 * The two coalesces are the generated columns ordering_entry_time and ordering_exit_time (migration trading_order),
 * which the list's indexes hold. Every query that orders trades takes its keys from here. The columns are named
 * through the table, so they read the same from `trades` and from a search's CTE named `trades`.
 */
const keys = (): AnyColumn[] => [trades.tradeDate, trades.orderingEntryTime, trades.orderingExitTime, trades.createdAt, trades.id];

/** ORDER BY, oldest first. */
export const oldestFirst = (): SQL[] => keys().map((key) => asc(key));
/** ORDER BY, newest first: the lists' order. */
export const newestFirst = (): SQL[] => keys().map((key) => desc(key));
/** The keys as a list, for an aggregate's ORDER BY (`string_agg(... order by ${tradingOrder()})`). */
export const tradingOrder = (): SQL => sql.join(keys(), sql`, `);

/** A trade's place in the trading order, as stored (timestamps as PostgreSQL or ISO text). */
export interface TradingKey {
  tradeDate: string;
  orderingEntryTime: string;
  orderingExitTime: string;
  createdAt: string;
  id: string;
}

/** The row's key as a row value, for keyset comparisons: `(keys) < ${keyOf(cursor)}`. */
export function keyOf(key: TradingKey): SQL {
  return sql`(${key.tradeDate}::timestamptz, ${key.orderingEntryTime}::timestamptz, ${key.orderingExitTime}::timestamptz, ${key.createdAt}::timestamptz, ${key.id}::uuid)`;
}

/** The table's keys as a row value. */
export const keyColumns = (): SQL => sql`(${tradingOrder()})`;

/** Trades strictly before (`<`), strictly after (`>`), or from (`<=`/`>=`) a key, in the oldest-first order. */
export function compareKey(op: '<' | '>' | '<=' | '>=', key: TradingKey): SQL {
  return sql`${keyColumns()} ${sql.raw(op)} ${keyOf(key)}`;
}

export type SortValueType = 'text' | 'numeric' | 'time';

/**
 * The column sorts of the list (GET /api/trades `sort`). Text is compared lower-cased and byte-wise (collation "C"),
 * so the order is the same on every database whatever its locale; an empty text sorts with the missing values, last.
 */
const COLUMN_SORTS: Record<Exclude<TradeSort, 'date'>, { type: SortValueType; expression: () => SQL }> = {
  symbol: { type: 'text', expression: () => text(trades.symbol) },
  contract: { type: 'text', expression: () => text(trades.contract) },
  status: { type: 'text', expression: () => text(trades.status) },
  period: { type: 'text', expression: () => text(trades.period) },
  trade_type: { type: 'text', expression: () => text(trades.tradeType) },
  account: { type: 'text', expression: () => text(tradingAccounts.name) },
  pnl: { type: 'numeric', expression: () => sql`${trades.pnl}` },
  gross_pnl: { type: 'numeric', expression: () => sql`${trades.grossPnl}` },
  commission: { type: 'numeric', expression: () => sql`${trades.commission}` },
  quantity: { type: 'numeric', expression: () => sql`${trades.quantity}` },
  entry_price: { type: 'numeric', expression: () => sql`${trades.entryPrice}` },
  exit_price: { type: 'numeric', expression: () => sql`${trades.exitPrice}` },
  entry_time: { type: 'time', expression: () => sql`${trades.entryTime}` },
  exit_time: { type: 'time', expression: () => sql`${trades.exitTime}` },
  // The stored MAE and MFE (the list joins trade_excursions); a trade its bars do not cover sorts last.
  mae: { type: 'numeric', expression: () => sql`${tradeExcursions.mae}` },
  mfe: { type: 'numeric', expression: () => sql`${tradeExcursions.mfe}` },
};

function text(column: AnyColumn): SQL {
  return sql`(nullif(lower(${column}), '') collate "C")`;
}

export function sortValueType(sort: TradeSort): SortValueType | null {
  return sort === 'date' ? null : COLUMN_SORTS[sort].type;
}

const CAST: Record<SortValueType, string> = { text: 'text', numeric: 'numeric', time: 'timestamptz' };

/** How a page of the list is ordered, and how it continues after its last row. */
export interface ListOrder {
  sort: TradeSort;
  dir: SortDirection;
}

/** Where a page starts: after (or, `inclusive`, at) a row, given by its sort value and its trading key. */
export interface ListPosition {
  key: TradingKey;
  /** The row's sort value as `sortValueSelect` gave it (null: the row has none); absent for the date sort. */
  value?: string | null;
  inclusive?: boolean;
}

/** ORDER BY of a list order: the trading order itself, or the column (missing values last), then newest first. */
export function listOrderBy(order: ListOrder): SQL[] {
  if (order.sort === 'date') return order.dir === 'asc' ? oldestFirst() : newestFirst();
  const value = COLUMN_SORTS[order.sort].expression();
  return [sql`${value} ${sql.raw(order.dir)} nulls last`, ...newestFirst()];
}

/** The sort value of a row as text (for the next page's cursor); null for the date sort, whose key is the row's own. */
export function sortValueSelect(order: ListOrder): SQL<string | null> {
  if (order.sort === 'date') return sql<string | null>`null::text`;
  return sql<string | null>`(${COLUMN_SORTS[order.sort].expression()})::text`;
}

/** The rows after a position in a list order (from it, when `inclusive`). */
export function afterPosition(order: ListOrder, at: ListPosition): SQL {
  if (order.sort === 'date') {
    const op = order.dir === 'asc' ? (at.inclusive ? '>=' : '>') : at.inclusive ? '<=' : '<';
    return compareKey(op, at.key);
  }
  const { expression, type } = COLUMN_SORTS[order.sort];
  const value = expression();
  // Ties on the value follow the trading order newest first, in both directions.
  const later = compareKey(at.inclusive ? '<=' : '<', at.key);
  if (at.value === null || at.value === undefined) return sql`(${value} is null and ${later})`;
  const given = sql`${at.value}::${sql.raw(CAST[type])}`;
  const beyond = order.dir === 'asc' ? sql`${value} > ${given}` : sql`${value} < ${given}`;
  return sql`(${value} is null or ${beyond} or (${value} = ${given} and ${later}))`;
}
