import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client';
import { placeholder, preparedSelects } from '../../db/prepared';
import { tradeDayRollups, tradeExcursions, trades, tradeVersions, tradingAccounts } from '../../db/schema';
import { afterPosition, listOrderBy, newestFirst, oldestFirst, sortValueSelect, tradingOrder, type ListOrder, type ListPosition, type TradingKey } from './order';

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
    return tx.with(found).select(fields).from(found as unknown as typeof trades);
  }

  // Flat, so that a row is a TradeRow as it comes (a nested `trade` was copied into one for every row).
  const selection = {
    ...getTableColumns(trades),
    accountName: tradingAccounts.name,
    mae: tradeExcursions.mae,
    mfe: tradeExcursions.mfe,
    excursionMissing: sql<Array<{ from: number; to: number }> | null>`case when ${tradeExcursions.status} = 'missing' then ${tradeExcursions.detail}->'missing' end`,
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
  function pageQuery(account: AccountScope, q: string | undefined, limit: number, position?: ListPosition, range?: DayRange, options: PageOptions = {}) {
    const order = options.order ?? NEWEST_FIRST;
    const after = position ? afterPosition(order, position) : undefined;
    const base = { ...selection, sortValue: sortValueSelect(order) };
    // withRollupTotal: the filter's count from the per-day rollups, as count() sums them, in the page's own statement
    // (one round trip less for the Trade Log's first page: issue 31 point 1).
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
      // Without a search or a filter inside trades, a prepared statement of the page's shape (issue 31 point 1).
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
          const at: ListPosition | undefined = position && { key: p.key, value: position.value === null || position.value === undefined ? null : p.value, inclusive: position.inclusive };
          const placeheld = { from: range?.from && p.from, to: range?.to && p.to };
          return tradesRepo(tx, p.user).pageQuery(oneAccount ? p.account : account, undefined, p.limit, at, placeheld, { ...options, offset: p.offset });
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
          before: sql<number>`(coalesce(sum(${r.trades}) over (order by ${r.day} ${sql.raw(dir)} rows between unbounded preceding and 1 preceding), 0))::int`.as('before'),
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

    /**
     * The trade's stored columns, the row locked until the transaction ends: another change of the same trade waits,
     * then reads what this one wrote (two PATCHes at once each kept only their own field, issue 25 point 2).
     */
    async lock(id: string): Promise<typeof trades.$inferSelect | undefined> {
      const [row] = await tx.select().from(trades).where(and(owner, eq(trades.id, id))).for('update');
      return row;
    },

    /** Per-day sums in SQL: the statistics are then combined by the domain's formulas (never computed twice). */
    async dailyAggregates(account: AccountScope, q?: string, range?: DayRange, exclude: readonly string[] = [], extra?: SQL) {
      return selectFrom(
        {
          date: sql<string>`to_char(${trades.tradeDate} at time zone 'UTC', 'YYYY-MM-DD')`,
          trades: sql<number>`count(*)::int`,
          wins: sql<number>`count(*) filter (where ${trades.status} = 'Win')::int`,
          losses: sql<number>`count(*) filter (where ${trades.status} = 'Loss')::int`,
          breakEvens: sql<number>`count(*) filter (where ${trades.status} not in ('Win', 'Loss'))::int`,
          pnlCents: sql<string>`(sum(${trades.pnl}) * 100)::bigint::text`,
          grossProfitCents: sql<string>`(coalesce(sum(${trades.pnl}) filter (where ${trades.pnl} > 0), 0) * 100)::bigint::text`,
          grossLossCents: sql<string>`(coalesce(sum(${trades.pnl}) filter (where ${trades.pnl} < 0), 0) * 100)::bigint::text`,
        },
        q,
      )
        .where(scope(account, range, exclude, extra))
        .groupBy(sql`1`)
        .orderBy(sql`1`);
    },

    /**
     * The per-day rollups of one scope (kept by triggers, migration trade_day_rollups_triggers), oldest first: what
     * the statistics read when there is no search, instead of every trade.
     */
    async dayRollups(account: AccountScope, range: DayRange = {}) {
      const r = tradeDayRollups;
      return tx
        .select({
          date: sql<string>`to_char(${r.day}, 'YYYY-MM-DD')`,
          trades: r.trades,
          wins: r.wins,
          losses: r.losses,
          breakEvens: r.breakEvens,
          pnlCents: sql<string>`(${r.pnl} * 100)::bigint::text`,
          grossProfitCents: sql<string>`(${r.grossProfit} * 100)::bigint::text`,
          grossLossCents: sql<string>`(${r.grossLoss} * 100)::bigint::text`,
          headResult: r.headResult,
          headRun: r.headRun,
          tailResult: r.tailResult,
          tailRun: r.tailRun,
          maxWinRun: r.maxWinRun,
          maxLossRun: r.maxLossRun,
        })
        .from(r)
        .where(
          and(eq(r.userId, userId), eq(r.scope, rollupScope(account)), dayRange(range)),
        )
        .orderBy(r.day);
    },

    /** The trading days (yyyy-MM-dd) of these trades of the trader, within the scope. */
    async daysOf(ids: readonly string[], account: AccountScope, range?: DayRange): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ date: sql<string>`to_char(${trades.tradeDate} at time zone 'UTC', 'YYYY-MM-DD')` })
        .from(trades)
        .where(and(scope(account, range), sql`${trades.id} = any(${`{${ids.join(',')}}`}::uuid[])`));
      return rows.map((r) => r.date);
    },

    /** The ids of the trader's trades a search finds (a non-blank term): the R report narrows its trades by them. */
    async searchIds(q: string): Promise<string[]> {
      const rows = await selectFrom({ id: trades.id }, q).where(owner);
      return rows.map((row) => row.id);
    },

    /** Results in the trading order as one string of W/L/B, so streaks come from the domain's own function. */
    async resultSequence(account: AccountScope, q?: string, range?: DayRange, exclude: readonly string[] = [], extra?: SQL): Promise<string> {
      const [row] = await selectFrom(
        {
          seq: sql<string>`coalesce(string_agg(case ${trades.status} when 'Win' then 'W' when 'Loss' then 'L' else 'B' end, '' order by ${tradingOrder()}), '')`,
        },
        q,
      ).where(scope(account, range, exclude, extra));
      return row?.seq ?? '';
    },

    /**
     * Inserts one chunk of a JSON backup's rows, skipping those the account already holds (same original id), and
     * returns how many were inserted. The chunk is ONE parameter, a JSON array of records prepared in the parse worker
     * (backup-file.ts) and expanded by jsonb_to_recordset, so the request thread builds no rows; call it inside one
     * transaction, one chunk after another. A row without created_at gets the transaction's time, as a default would.
     */
    async insertRecords(chunk: string): Promise<number> {
      const result = (await tx.execute(sql`
        with added as (
          insert into trades (user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
            commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
            gross_pnl, stop_price, risk_amount, target_price, import_source, import_key, created_at)
          select user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
            commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
            gross_pnl, stop_price, risk_amount, target_price, import_source, import_key, coalesce(created_at, now())
          from jsonb_to_recordset(${chunk}::jsonb) as r(user_id text, account_id uuid, trade_date timestamptz,
            day_of_week text, symbol text, period text, trade_type text, status text, pnl numeric, commission numeric,
            link text, notes text, tags text[], side text, contract text, entry_time timestamptz, exit_time timestamptz,
            entry_price numeric, exit_price numeric, quantity numeric, gross_pnl numeric, stop_price numeric,
            risk_amount numeric, target_price numeric, import_source text, import_key text, created_at timestamptz)
          on conflict do nothing
          returning 1
        )
        select count(*)::int as n from added
      `)) as unknown as { rows: Array<{ n: number | string }> };
      return Number(result.rows[0]?.n ?? 0);
    },

    async insertOne(row: NewTradeRow) {
      const [created] = await tx.insert(trades).values({ ...row, userId }).returning({ id: trades.id });
      return created!.id;
    },

    async update(id: string, values: Partial<NewTradeRow>) {
      const result = await tx
        .update(trades)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(owner, eq(trades.id, id)))
        .returning({ id: trades.id });
      return result.length > 0;
    },

    async removeMany(ids: string[]): Promise<number> {
      const result = await tx.delete(trades).where(and(owner, idIn(ids))).returning({ id: trades.id });
      return result.length;
    },

    async assign(ids: string[], accountId: string): Promise<number> {
      const result = await tx
        .update(trades)
        .set({ accountId, updatedAt: sql`now()` })
        .where(and(owner, idIn(ids)))
        .returning({ id: trades.id });
      return result.length;
    },

    /** Sets the same plan on these trades of the caller (issue 27's bulk risk edit); how many were theirs. */
    async setPlan(ids: string[], plan: { stopPrice: string | null; riskAmount: string | null }): Promise<number> {
      const result = await tx
        .update(trades)
        .set({ ...plan, updatedAt: sql`now()` })
        .where(and(owner, idIn(ids)))
        .returning({ id: trades.id });
      return result.length;
    },

    /** What a stop is placed from, for these trades of the caller, locked until the transaction ends. */
    lockExecutions: (ids: string[]) =>
      tx
        .select({ id: trades.id, side: trades.side, entryPrice: trades.entryPrice, quantity: trades.quantity })
        .from(trades)
        .where(and(owner, idIn(ids)))
        .for('update'),

    /** Each trade's own stop (a dollar risk cleared): one statement, the pairs as two array parameters. */
    async setStops(stops: Array<{ id: string; stopPrice: string }>): Promise<number> {
      if (stops.length === 0) return 0;
      const result = (await tx.execute(sql`
        update trades t set stop_price = v.stop, risk_amount = null, updated_at = now()
        from unnest(${`{${stops.map((s) => s.id).join(',')}}`}::uuid[], ${`{${stops.map((s) => s.stopPrice).join(',')}}`}::numeric[]) as v(id, stop)
        where t.id = v.id and t.user_id = ${userId}
        returning t.id
      `)) as unknown as { rows: unknown[] };
      return result.rows.length;
    },

    /** The trader's trades' version (0 before their first trade), bumped by every write the statistics can see. */
    async version(): Promise<number> {
      const [row] = await tx.select({ version: tradeVersions.version }).from(tradeVersions).where(eq(tradeVersions.userId, userId));
      return row?.version ?? 0;
    },


    /** Which of these values some trade uses as its column value (a type or a session in use cannot be removed). */
    async isValueInUse(column: 'trade_type' | 'period', value: string): Promise<boolean> {
      const col = column === 'trade_type' ? trades.tradeType : trades.period;
      const rows = await tx.select({ one: sql`1` }).from(trades).where(and(owner, eq(col, value))).limit(1);
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

