import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { JOURNAL_FOLDER_NAME, journalNoteTitle } from '../../../domain/notes';
import type { Tx } from '../../db/client';
import { notes, tradeDayRollups, trades, tradingAccounts } from '../../db/schema';
import type { AccountScope } from '../../core/trades/repo';
import { foldersRepo, notesRepo } from '../../core/notes/repo';
import { newestFirst } from '../../core/trades/order';

/** Data access for the daily journal: per-day trade totals and the one journal note per date. */
export const journalRepo = (tx: Tx, userId: string) => {
  const dayRange = (date: string, account: AccountScope) =>
    and(
      eq(trades.userId, userId),
      account === 'all' ? undefined : account === 'unassigned' ? isNull(trades.accountId) : eq(trades.accountId, account),
      sql`${trades.tradeDate} >= ${`${date}T00:00:00Z`}::timestamptz`,
      sql`${trades.tradeDate} < (${date}::date + 1)::timestamp at time zone 'UTC'`,
    );

  return {
    /**
     * Every trading day's trade count and summed P&L in cents (exact: numeric summed in SQL), read from the per-day
     * rollups the trades' triggers keep: one row per day instead of summing 100,000 trades. The rollups are kept per
     * account too ('none' holds the trades without one), so one account's days read the same way.
     */
    async tradingDays(account: AccountScope, date?: string) {
      const result = await tx.execute(sql`
        select to_char(${tradeDayRollups.day}, 'YYYY-MM-DD') as date, ${tradeDayRollups.trades} as trades,
          (${tradeDayRollups.pnl} * 100)::bigint::text as "pnlCents"
        from ${tradeDayRollups}
        where ${and(
          eq(tradeDayRollups.userId, userId),
          eq(tradeDayRollups.scope, account === 'unassigned' ? 'none' : account),
          sql`${tradeDayRollups.trades} > 0`,
          date ? eq(tradeDayRollups.day, date) : undefined,
        )}`);
      return (result as unknown as { rows: Array<{ date: string; trades: number; pnlCents: string }> }).rows;
    },

    noteDates: (date?: string) =>
      tx
        .select({ date: notes.journalDate })
        .from(notes)
        .where(and(eq(notes.userId, userId), date ? eq(notes.journalDate, date) : isNotNull(notes.journalDate)))
        .then((rows) => rows.map((r) => r.date!)),

    /** The account's trades of the day as the Trade Log lists them: the trading order, newest first, with account names. */
    dayTrades: (date: string, account: AccountScope) =>
      tx
        .select({
          id: trades.id,
          symbol: trades.symbol,
          pnl: trades.pnl,
          status: trades.status,
          period: trades.period,
          tradeType: trades.tradeType,
          // What the journal shows of each trade's execution.
          contract: trades.contract,
          entryTime: trades.entryTime,
          exitTime: trades.exitTime,
          quantity: trades.quantity,
          entryPrice: trades.entryPrice,
          exitPrice: trades.exitPrice,
          grossPnl: trades.grossPnl,
          commission: trades.commission,
          accountId: trades.accountId,
          accountName: tradingAccounts.name,
        })
        .from(trades)
        .leftJoin(tradingAccounts, and(eq(tradingAccounts.id, trades.accountId), eq(tradingAccounts.userId, userId)))
        .where(dayRange(date, account))
        .orderBy(...newestFirst()),

    /** The day's note's updated_at (to the millisecond), locked until the transaction ends; null without a note. */
    lockNote: (date: string) =>
      tx
        .select({ updatedAt: notes.updatedAt })
        .from(notes)
        .where(and(eq(notes.userId, userId), eq(notes.journalDate, date)))
        .for('update')
        .then((rows) => (rows[0] ? new Date(rows[0].updatedAt).toISOString() : null)),

    note: (date: string) => notesRepo(tx, userId).journalNote(date),

    /**
     * One note per date, titled with the date, in the 'Daily Journal' folder (created when missing);
     * Save updates it or creates it. One upsert on the (user_id, journal_date) unique index, so two saves at once
     * (two tabs) end with one note holding the later text, never two notes.
     */
    async save(date: string, content: string) {
      const folderId = await foldersRepo(tx, userId).getOrCreate(JOURNAL_FOLDER_NAME);
      const [row] = await tx
        .insert(notes)
        .values({ userId, folderId, title: journalNoteTitle(date), content, journalDate: date })
        .onConflictDoUpdate({
          target: [notes.userId, notes.journalDate],
          targetWhere: sql`${notes.journalDate} is not null`,
          set: { content, updatedAt: sql`now()` },
        })
        .returning({ id: notes.id, title: notes.title, content: notes.content, folderId: notes.folderId, updatedAt: notes.updatedAt });
      return row!;
    },
  };
};
