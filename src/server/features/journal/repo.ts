import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { JOURNAL_FOLDER_NAME, journalNoteTitle } from '../../../domain/notes';
import type { Tx } from '../../db/client';
import { notes, trades } from '../../db/schema';
import { foldersRepo } from '../notes/repo';

/** Data access for the daily journal: per-day trade totals and the one journal note per date. */
export const journalRepo = (tx: Tx, userId: string) => {
  const dayRange = (date: string) =>
    and(
      eq(trades.userId, userId),
      sql`${trades.tradeDate} >= ${`${date}T00:00:00Z`}::timestamptz`,
      sql`${trades.tradeDate} < (${date}::date + 1)::timestamp at time zone 'UTC'`,
    );

  return {
    /**
     * Every trading day's trade count and summed P&L in cents (exact: numeric summed in SQL). Grouped by the date,
     * formatted once per day: formatting each of 100,000 trades' dates first took twice as long.
     */
    async tradingDays(date?: string) {
      const day = sql<string>`(${trades.tradeDate} at time zone 'UTC')::date`;
      const result = await tx.execute(sql`
        select to_char(d.day, 'YYYY-MM-DD') as date, d.trades, d.pnl_cents as "pnlCents"
        from (
          select ${day} as day, count(*)::int as trades, (sum(${trades.pnl}) * 100)::bigint::text as pnl_cents
          from ${trades}
          where ${date ? dayRange(date) : eq(trades.userId, userId)}
          group by 1
        ) d`);
      return (result as unknown as { rows: Array<{ date: string; trades: number; pnlCents: string }> }).rows;
    },

    noteDates: (date?: string) =>
      tx
        .select({ date: notes.journalDate })
        .from(notes)
        .where(and(eq(notes.userId, userId), date ? eq(notes.journalDate, date) : isNotNull(notes.journalDate)))
        .then((rows) => rows.map((r) => r.date!)),

    dayTrades: (date: string) =>
      tx
        .select({ id: trades.id, symbol: trades.symbol, pnl: trades.pnl, status: trades.status, period: trades.period, tradeType: trades.tradeType })
        .from(trades)
        .where(dayRange(date))
        .orderBy(asc(trades.createdAt), asc(trades.id)),

    note: (date: string) =>
      tx
        .select({ id: notes.id, title: notes.title, content: notes.content, folderId: notes.folderId, updatedAt: notes.updatedAt })
        .from(notes)
        .where(and(eq(notes.userId, userId), eq(notes.journalDate, date)))
        .orderBy(desc(notes.updatedAt))
        .then((rows) => rows[0]),

    /**
     * Spec part 2 §4: one note per date, titled with the date, in the 'Daily Journal' folder (created when missing);
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
