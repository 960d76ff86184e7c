import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { notes, tradeReflections, trades, tradingAccounts } from '../../db/schema';
import { newestFirst, tradingOrder } from '../../core/trades/order';

/**
 * The trade queries behind the chat's context and tools (issue 9). Every query names its owner (and row-level
 * security backs it up); the filters come from the model's tool arguments, but the owner never does.
 */
export interface TradeFilter {
  from?: string;
  to?: string;
  /** An account id of this trader, or 'unassigned'. */
  accountId?: string;
  symbol?: string;
  session?: string;
  setup?: string;
  /** Long or Short: the side, apart from the setup (issue 27). */
  side?: 'Long' | 'Short';
  result?: 'Win' | 'Loss' | 'BE';
  /** Text in the notes or tags. */
  text?: string;
}

export type BreakdownKey = 'day' | 'weekday' | 'hour' | 'instrument' | 'session' | 'setup' | 'side' | 'month' | 'account';

export interface GroupRow {
  key: string;
  trades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  pnlCents: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export const chatTradeData = (tx: Tx, userId: string) => {
  function where(filter: TradeFilter): SQL {
    const parts: Array<SQL | undefined> = [eq(trades.userId, userId)];
    // trade_date is the trading day at 12:00 UTC (spec part 2 §3): a day range is a timestamp range.
    if (filter.from) parts.push(sql`${trades.tradeDate} >= ${`${filter.from}T00:00:00Z`}::timestamptz`);
    if (filter.to) parts.push(sql`${trades.tradeDate} <= ${`${filter.to}T23:59:59Z`}::timestamptz`);
    if (filter.accountId === 'unassigned') parts.push(isNull(trades.accountId));
    else if (filter.accountId) parts.push(eq(trades.accountId, filter.accountId));
    if (filter.symbol) parts.push(sql`upper(${trades.symbol}) = ${filter.symbol.toUpperCase()}`);
    if (filter.session) parts.push(sql`lower(${trades.period}) = ${filter.session.toLowerCase()}`);
    if (filter.setup) parts.push(sql`lower(${trades.tradeType}) = ${filter.setup.toLowerCase()}`);
    if (filter.side) parts.push(eq(trades.side, filter.side));
    if (filter.result) parts.push(eq(trades.status, filter.result));
    if (filter.text) {
      const pattern = `%${escapeLike(filter.text)}%`;
      parts.push(sql`(${trades.notes} ilike ${pattern} or array_to_string(${trades.tags}, ' ') ilike ${pattern})`);
    }
    return and(...parts)!;
  }

  const counts = {
    trades: sql<number>`count(*)::int`,
    wins: sql<number>`count(*) filter (where ${trades.status} = 'Win')::int`,
    losses: sql<number>`count(*) filter (where ${trades.status} = 'Loss')::int`,
    breakEvens: sql<number>`count(*) filter (where ${trades.status} not in ('Win', 'Loss'))::int`,
    pnlCents: sql<string>`coalesce(sum(${trades.pnl}) * 100, 0)::bigint::text`,
  };

  return {
    /** The trader's accounts, to resolve a name the model gives. */
    accounts: () => tx.select({ id: tradingAccounts.id, name: tradingAccounts.name }).from(tradingAccounts).where(eq(tradingAccounts.userId, userId)),

    /** Per-day sums (the domain combines them into every statistic). */
    async daily(filter: TradeFilter) {
      const rows = await tx
        .select({
          date: sql<string>`to_char(${trades.tradeDate} at time zone 'UTC', 'YYYY-MM-DD')`,
          ...counts,
          grossProfitCents: sql<string>`(coalesce(sum(${trades.pnl}) filter (where ${trades.pnl} > 0), 0) * 100)::bigint::text`,
          grossLossCents: sql<string>`(coalesce(sum(${trades.pnl}) filter (where ${trades.pnl} < 0), 0) * 100)::bigint::text`,
        })
        .from(trades)
        .where(where(filter))
        .groupBy(sql`1`)
        .orderBy(sql`1`);
      return rows.map((r) => ({
        ...r,
        pnlCents: Number(r.pnlCents),
        grossProfitCents: Number(r.grossProfitCents),
        grossLossCents: Number(r.grossLossCents),
      }));
    },

    /** Results in the trading order (oldest first) as W/L/B, for the domain's streaks. */
    async sequence(filter: TradeFilter): Promise<string> {
      const [row] = await tx
        .select({
          seq: sql<string>`coalesce(string_agg(case ${trades.status} when 'Win' then 'W' when 'Loss' then 'L' else 'B' end, '' order by ${tradingOrder()}), '')`,
        })
        .from(trades)
        .where(where(filter));
      return row?.seq ?? '';
    },

    /** Counts and P&L grouped by one dimension. Hours are the entry time's in `timeZone` (imported trades have one). */
    async breakdown(filter: TradeFilter, by: BreakdownKey, timeZone: string): Promise<GroupRow[]> {
      const key: SQL = {
        day: sql`to_char(${trades.tradeDate} at time zone 'UTC', 'YYYY-MM-DD')`,
        weekday: sql`${trades.dayOfWeek}`,
        hour: sql`coalesce(lpad(extract(hour from ${trades.entryTime} at time zone ${timeZone})::int::text, 2, '0') || ':00', 'no time')`,
        instrument: sql`upper(${trades.symbol})`,
        session: sql`${trades.period}`,
        setup: sql`coalesce(nullif(${trades.tradeType}, ''), 'Unspecified')`,
        side: sql`coalesce(${trades.side}, 'Unspecified')`,
        month: sql`to_char(${trades.tradeDate} at time zone 'UTC', 'YYYY-MM')`,
        account: sql`coalesce((select a.name from ${tradingAccounts} a where a.id = ${trades.accountId} and a.user_id = ${userId}), 'Unassigned')`,
      }[by];
      const rows = await tx
        .select({ key: sql<string>`${key}`, ...counts })
        .from(trades)
        .where(where(filter))
        .groupBy(sql`1`)
        .orderBy(sql`1`);
      return rows.map((r) => ({ ...r, pnlCents: Number(r.pnlCents) }));
    },

    /** Trades matching the filter: best first, worst first, or newest first; equal P&L newest first (trading order). */
    async list(filter: TradeFilter, order: 'best' | 'worst' | 'newest', limit: number) {
      const orderBy =
        order === 'best'
          ? [desc(trades.pnl), ...newestFirst()]
          : order === 'worst'
            ? [asc(trades.pnl), ...newestFirst()]
            : newestFirst();
      return tx
        .select({
          id: trades.id,
          tradeDate: trades.tradeDate,
          symbol: trades.symbol,
          side: trades.side,
          session: trades.period,
          setup: trades.tradeType,
          status: trades.status,
          pnl: trades.pnl,
          quantity: trades.quantity,
          entryTime: trades.entryTime,
          notes: trades.notes,
          tags: trades.tags,
        })
        .from(trades)
        .where(where(filter))
        .orderBy(...orderBy)
        .limit(limit);
    },

    /** Trade notes, reflection descriptions and notebook/journal notes written in a range, newest first. */
    async writings(from: string, to: string, limit: number) {
      const tradeNotes = await tx
        .select({
          date: sql<string>`to_char(${trades.tradeDate} at time zone 'UTC', 'YYYY-MM-DD')`,
          symbol: trades.symbol,
          notes: trades.notes,
          reflection: tradeReflections.description,
          followedRules: tradeReflections.followedRules,
        })
        .from(trades)
        .leftJoin(tradeReflections, and(eq(tradeReflections.tradeId, trades.id), eq(tradeReflections.userId, userId)))
        .where(and(where({ from, to }), sql`(${trades.notes} <> '' or ${tradeReflections.description} is not null or ${tradeReflections.followedRules} is not null)`))
        .orderBy(...newestFirst())
        .limit(limit);
      const journal = await tx
        .select({ title: notes.title, content: notes.content, updatedAt: notes.updatedAt })
        .from(notes)
        .where(
          and(
            eq(notes.userId, userId),
            sql`${notes.updatedAt} >= ${`${from}T00:00:00Z`}::timestamptz`,
            sql`${notes.updatedAt} < (${to}::date + 2)::timestamptz`,
          ),
        )
        .orderBy(desc(notes.updatedAt))
        .limit(limit);
      return { tradeNotes, journal };
    },
  };
};

export type ChatTradeData = ReturnType<typeof chatTradeData>;
