import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client';
import { placeholder, preparedSelects } from '../../db/prepared';
import { tradeDayRollups, tradeExcursions, trades, tradeVersions, tradingAccounts } from '../../db/schema';
import { afterPosition, listOrderBy, newestFirst, oldestFirst, sortValueSelect, type ListOrder, type ListPosition, type TradingKey } from './order';

/** A stored trade, its account's name, and its MAE and MFE in dollars where its bars gave them (trade_excursions). */
export type TradeRow = typeof trades.$inferSelect & {
  accountName: string | null;
  mae?: string | null;
  mfe?: string | null;
  /** The stored figures' missing stretches (epoch ms), when they read incomplete. */
  excursionMissing?: Array<{ from: number; to: number }> | null;
};
export type NewTradeRow = Omit<typeof trades.$inferInsert, 'userId'>;

export type AccountScope = 'all' | 'unassigned' | string;

/** Optional trading-day range, inclusive, as yyyy-MM-dd. */
export interface DayRange {
  from?: string;
  to?: string;
}

export type { ListOrder, ListPosition, TradingKey };

/** A page's row: the trade, its sort value as text (for the cursor) and, when asked for, the filter's total. */
export type PageRow = TradeRow & { total?: number; sortValue: string | null };

interface PageOptions {
  offset?: number;
  withTotal?: boolean;
  withRollupTotal?: boolean;
  order?: ListOrder;
  extra?: SQL;
}

/** The prepared statements of the list's pages, one per shape (account scope, range bounds, order, position, total). */
const pageStatements = preparedSelects<PageRow>('trades_page');

/** Where a page's values go in its prepared statement. */
const PAGE_PLACEHOLDERS = {
  user: placeholder('user'),
  account: placeholder('account'),
  from: placeholder('from'),
  to: placeholder('to'),
  key: {
    tradeDate: placeholder('tradeDate'),
    orderingEntryTime: placeholder('orderingEntryTime'),
    orderingExitTime: placeholder('orderingExitTime'),
    createdAt: placeholder('createdAt'),
    id: placeholder('id'),
  } satisfies TradingKey,
  value: placeholder('value'),
  offset: placeholder<number>('offset'),
  limit: placeholder<number>('limit'),
};

/** The list's default order: the trading order, newest first. */
const NEWEST_FIRST: ListOrder = { sort: 'date', dir: 'desc' };

/**
 * `id = any('{...}'::uuid[])`: one bind parameter however many ids. A Select All of a large log sent each id as its
 * own parameter, and more than 65,535 of them failed the statement (a 500). The ids are validated UUIDs.
 */
function idIn(ids: string[]): SQL {
  return sql`${trades.id} = any(${`{${ids.join(',')}}`}::uuid[])`;
}

/** A term as a LIKE pattern's literal text: its %, _ and backslash escaped (the R panel's search asks notes with it, reports/search.ts). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The rollups' name for an account filter. */
const rollupScope = (account: AccountScope) => (account === 'all' ? 'all' : account === 'unassigned' ? 'none' : account);

function dayRange(range: DayRange = {}): SQL | undefined {
  return and(
    range.from ? sql`${tradeDayRollups.day} >= ${range.from}::date` : undefined,
    range.to ? sql`${tradeDayRollups.day} <= ${range.to}::date` : undefined,
  );
}

/** Data access for trades. Every query names its owner; row-level security backs it up. */
export const tradesRepo = (tx: Tx, userId: string) => {
  const owner = eq(trades.userId, userId);

  /**
   * The rows of an account scope, a day range and, when given, the rest of a filter (`extra`: the reports' filter model
   * in SQL, reportFilterSql), less the trades whose delete waits for Undo.
   */
  function scope(account: AccountScope, range: DayRange = {}, exclude: readonly string[] = [], extra?: SQL): SQL {
    const parts: SQL[] = [owner];
    if (extra) parts.push(extra);
    if (exclude.length > 0) parts.push(sql`${trades.id} <> all(${`{${exclude.join(',')}}`}::uuid[])`);
    // trade_date is the trading day at 12:00 UTC, so a day range is a plain timestamp range. Its bounds are made in SQL
    // from the days, so that a prepared statement's placeholder can stand for a day.
    if (range.from) parts.push(sql`${trades.tradeDate} >= (${range.from}::date + time '00:00:00') at time zone 'UTC'`);
    if (range.to) parts.push(sql`${trades.tradeDate} <= (${range.to}::date + time '23:59:59') at time zone 'UTC'`);
    // With the (account_id, user_id) foreign key an account cannot vanish under its trades, so unassigned is null.
    if (account === 'unassigned') parts.push(isNull(trades.accountId));
    else if (account !== 'all') parts.push(eq(trades.accountId, account));
    return and(...parts)!;
  }

  /**
   * A select from a filter's trades: the table, or with a search term the search function (migration trade_search),
   * which applies the owner itself so that the trigram index can serve it and returns rows shaped like the table. It
   * comes in as a CTE named `trades`, so every column reference below reads the same either way. The unit separator
   * joins the columns there, so it never belongs in a term.
   */
  function selectFrom<F extends SelectedFields>(fields: F, q?: string) {
    const text = q?.replace(/\x1f/g, '').trim();
    if (!text) return tx.select(fields).from(trades);
    const found = tx.$with('trades', getTableColumns(trades)).as(sql`select * from search_trades(${`%${escapeLike(text)}%`})`);
    return tx
      .with(found)
      .select(fields)
      .from(found as unknown as typeof trades);
  }

  // Flat, so that a row is a TradeRow as it comes (a nested `trade` was copied into one for every row).
  const selection = {
    ...getTableColumns(trades),
    accountName: tradingAccounts.name,
    mae: tradeExcursions.mae,
    mfe: tradeExcursions.mfe,
    excursionMissing: sql<Array<{
      from: number;
      to: number;
    }> | null>`case when ${tradeExcursions.status} = 'missing' then ${tradeExcursions.detail}->'missing' end`,
  };
  // A trade has at most one stored excursion (its primary key is the owner and the trade).
  const excursionOf = and(eq(tradeExcursions.userId, userId), eq(tradeExcursions.tradeId, trades.id));

  /** How many trades the rollups hold for an account scope and a day range. */
  const rollupCount = (account: AccountScope, range?: DayRange) => {
    const r = tradeDayRollups;
    return tx
      .select({ n: sql<number>`coalesce(sum(${r.trades}), 0)::int` })
      .from(r)
      .where(and(eq(r.userId, userId), eq(r.scope, rollupScope(account)), dayRange(range)));
  };

  /**
   * The page's select (not yet run) and its fields. Any value may be a placeholder (PAGE_PLACEHOLDERS), which is
   * how `page` builds its prepared statements.
   */
  function pageQuery(
    account: AccountScope,
    q: string | undefined,
    limit: number,
    position?: ListPosition,
    range?: DayRange,
    options: PageOptions = {},
  ) {
    const order = options.order ?? NEWEST_FIRST;
    const after = position ? afterPosition(order, position) : undefined;
    const base = { ...selection, sortValue: sortValueSelect(order) };
    // withRollupTotal: the filter's count from the per-day rollups, as count() sums them, in the page's own statement
    // (one round trip less for the Trade Log's first page).
    const fields = options.withTotal
      ? { ...base, total: sql<number>`(count(*) over ())::int` }
      : options.withRollupTotal
        ? { ...base, total: sql<number>`(${rollupCount(account, range)})` }
        : base;
    const query = selectFrom(fields, q)
      .leftJoin(tradingAccounts, and(eq(tradingAccounts.id, trades.accountId), eq(tradingAccounts.userId, userId)))
      .leftJoin(tradeExcursions, excursionOf)
      .where(and(scope(account, range, [], options.extra), after))
      .orderBy(...listOrderBy(order))
      .offset(options.offset ?? 0)
      .limit(limit);
    return { query: query as unknown as Promise<PageRow[]> & { toSQL(): { sql: string; params: unknown[] } }, fields };
  }

  return {
    /**
     * A page in a list order (the trading order newest first unless `order` says otherwise): after a position (from
     * it, when the position is inclusive), or from position `offset` (0 = first) of the filter, which for a search or
     * a column sort is read past in SQL. With `withTotal`, each row also carries how many rows the whole filter has,
     * counted in the same statement (a search then runs once for the page and its count). Each row carries its sort
     * value as text (`sortValue`), for the next page's cursor.
     */
    async page(
      account: AccountScope,
      q: string | undefined,
      limit: number,
      position?: ListPosition,
      range?: DayRange,
      options: PageOptions = {},
    ): Promise<PageRow[]> {
      if (q?.replace(/\x1f/g, '').trim() || options.extra) return pageQuery(account, q, limit, position, range, options).query;
      // Without a search or a filter inside trades, a prepared statement of the page's shape.
      const order = options.order ?? NEWEST_FIRST;
      const oneAccount = account !== 'all' && account !== 'unassigned';
      const shape = [
        oneAccount ? 'account' : account,
        range?.from ? 'from' : '',
        range?.to ? 'to' : '',
        order.sort,
        order.dir,
        position ? `${position.inclusive ? 'at' : 'after'}${position.value === null || position.value === undefined ? '' : ' value'}` : '',
        options.withTotal ? 'count' : options.withRollupTotal ? 'rollups' : '',
      ].join('|');
      const values = {
        user: userId,
        account,
        from: range?.from,
        to: range?.to,
        ...(position && { ...position.key, value: position.value }),
        offset: options.offset ?? 0,
        limit,
      };
      return pageStatements(
        tx,
        shape,
        () => {
          const p = PAGE_PLACEHOLDERS;
          const at: ListPosition | undefined = position && {
            key: p.key,
            value: position.value === null || position.value === undefined ? null : p.value,
            inclusive: position.inclusive,
          };
          const placeheld = { from: range?.from && p.from, to: range?.to && p.to };
          return tradesRepo(tx, p.user).pageQuery(oneAccount ? p.account : account, undefined, p.limit, at, placeheld, {
            ...options,
            offset: p.offset,
          });
        },
        values,
      );
    },

    pageQuery,

    /**
     * The trading key of the trade at `offset` in the trading order (0 = newest, or with `dir` 'asc' oldest), or
     * undefined past the end. The per-day rollups say which day holds it, so only that day's trades are skipped: a
     * jump to the 100,000th trade reads about as much as the first page.
     */
    async positionAt(account: AccountScope, offset: number, range: DayRange = {}, dir: 'asc' | 'desc' = 'desc'): Promise<TradingKey | undefined> {
      const r = tradeDayRollups;
      const days = tx
        .select({
          day: sql<string>`to_char(${r.day}, 'YYYY-MM-DD')`.as('day'),
          trades: r.trades,
          before:
            sql<number>`(coalesce(sum(${r.trades}) over (order by ${r.day} ${sql.raw(dir)} rows between unbounded preceding and 1 preceding), 0))::int`.as(
              'before',
            ),
        })
        .from(r)
        .where(and(eq(r.userId, userId), eq(r.scope, rollupScope(account)), dayRange(range)))
        .as('days');
      const [hit] = await tx
        .select({ day: days.day, before: days.before })
        .from(days)
        .where(sql`${days.before} <= ${offset} and ${days.before} + ${days.trades} > ${offset}`)
        .limit(1);
      if (!hit) return undefined;
      const [row] = await tx
        .select({
          tradeDate: trades.tradeDate,
          orderingEntryTime: trades.orderingEntryTime,
          orderingExitTime: trades.orderingExitTime,
          createdAt: trades.createdAt,
          id: trades.id,
        })
        .from(trades)
        .where(scope(account, { from: hit.day, to: hit.day }))
        .orderBy(...(dir === 'asc' ? oldestFirst() : newestFirst()))
        .offset(offset - hit.before)
        .limit(1);
      return row;
    },

    /** How many trades a filter has: a search counts its matches, anything else sums the per-day rollups. */
    /** How many of these ids are this trader's trades in the scope. */
    async countAmong(account: AccountScope, ids: readonly string[]): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(trades)
        .where(and(scope(account), sql`${trades.id} = any(${`{${ids.join(',')}}`}::uuid[])`));
      return row?.n ?? 0;
    },

    async count(account: AccountScope, q?: string, range?: DayRange, extra?: SQL): Promise<number> {
      if (q?.trim() || extra) {
        const [row] = await selectFrom({ n: sql<number>`count(*)::int` }, q).where(scope(account, range, [], extra));
        return row?.n ?? 0;
      }
      const [row] = await rollupCount(account, range);
      return row?.n ?? 0;
    },

    async find(id: string): Promise<TradeRow | undefined> {
      const [row] = await tx
        .select(selection)
        .from(trades)
        .leftJoin(tradingAccounts, and(eq(tradingAccounts.id, trades.accountId), eq(tradingAccounts.userId, userId)))
        .leftJoin(tradeExcursions, excursionOf)
        .where(and(owner, eq(trades.id, id)));
      return row;
    },

    /** These trades of the trader (those they have), in no particular order. */
    findMany: (ids: readonly string[]): Promise<TradeRow[]> =>
      ids.length === 0
        ? Promise.resolve([])
        : tx
            .select(selection)
            .from(trades)
            .leftJoin(tradingAccounts, and(eq(tradingAccounts.id, trades.accountId), eq(tradingAccounts.userId, userId)))
            .leftJoin(tradeExcursions, excursionOf)
            .where(and(owner, idIn([...ids]))),

    /**
     * The trade's stored columns, the row locked until the transaction ends: another change of the same trade waits,
     * then reads what this one wrote (two PATCHes at once each kept only their own field).
     */
    async lock(id: string): Promise<typeof trades.$inferSelect | undefined> {
      const [row] = await tx
        .select()
        .from(trades)
        .where(and(owner, eq(trades.id, id)))
        .for('update');
      return row;
    },

    /** What a stop is placed from, for these trades of the caller, locked until the transaction ends. */
    lockExecutions: (ids: string[]) =>
      tx
        .select({ id: trades.id, side: trades.side, entryPrice: trades.entryPrice, quantity: trades.quantity })
        .from(trades)
        .where(and(owner, idIn(ids)))
        .for('update'),

    /** The trader's trades' version (0 before their first trade), bumped by every write the statistics can see. */
    async version(): Promise<number> {
      const [row] = await tx.select({ version: tradeVersions.version }).from(tradeVersions).where(eq(tradeVersions.userId, userId));
      return row?.version ?? 0;
    },

    /** Which of these values some trade uses as its column value (a type or a session in use cannot be removed). */
    async isValueInUse(column: 'trade_type' | 'period', value: string): Promise<boolean> {
      const col = column === 'trade_type' ? trades.tradeType : trades.period;
      const rows = await tx
        .select({ one: sql`1` })
        .from(trades)
        .where(and(owner, eq(col, value)))
        .limit(1);
      return rows.length > 0;
    },

    all: () =>
      tx
        .select(selection)
        .from(trades)
        .leftJoin(tradingAccounts, and(eq(tradingAccounts.id, trades.accountId), eq(tradingAccounts.userId, userId)))
        .leftJoin(tradeExcursions, excursionOf)
        .where(owner)
        .orderBy(...newestFirst()),
  };
};
