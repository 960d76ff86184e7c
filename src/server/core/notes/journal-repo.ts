import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { JournalDayDetail, JournalDays, JournalNote } from '../../../contract/journal';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { buildJournalDays, JOURNAL_FOLDER_NAME, journalNoteTitle } from '../../../domain/notes';
import type { Tx } from '../../db/client';
import { notes, tradeDayRollups, trades, tradingAccounts } from '../../db/schema';
import type { AccountScope } from '../trades/repo';
import { foldersRepo, notesRepo } from './repo';
import { newestFirst } from '../trades/order';

/**
 * Which trades a journal read shows: all, those without an account, one account, or a list of accounts (a mentor's
 * granted ones; never empty, which would be none).
 */
export type JournalAccounts = AccountScope | readonly string[];

/** Data access for the daily journal: per-day trade totals and the one journal note per date. */
export const journalRepo = (tx: Tx, userId: string) => {
  const dayRange = (date: string, account: JournalAccounts) =>
    and(
      eq(trades.userId, userId),
      typeof account !== 'string'
        ? inArray(trades.accountId, [...account])
        : account === 'all'
          ? undefined
          : account === 'unassigned'
            ? isNull(trades.accountId)
            : eq(trades.accountId, account),
      sql`${trades.tradeDate} >= ${`${date}T00:00:00Z`}::timestamptz`,
      sql`${trades.tradeDate} < (${date}::date + 1)::timestamp at time zone 'UTC'`,
    );

  return {
    /**
     * Every trading day's trade count and summed P&L in cents (exact: numeric summed in SQL), read from the per-day
     * rollups the trades' triggers keep: one row per day instead of summing 100,000 trades. The rollups are kept per
     * account too ('none' holds the trades without one), so one account's days read the same way; a list of accounts
     * answers a row per account and day, which the day list adds up.
     */
    async tradingDays(account: JournalAccounts, date?: string) {
      const result = await tx.execute(sql`
        select to_char(${tradeDayRollups.day}, 'YYYY-MM-DD') as date, ${tradeDayRollups.trades} as trades,
          (${tradeDayRollups.pnl} * 100)::bigint::text as "pnlCents"
        from ${tradeDayRollups}
        where ${and(
          eq(tradeDayRollups.userId, userId),
          typeof account !== 'string'
            ? inArray(tradeDayRollups.scope, [...account])
            : eq(tradeDayRollups.scope, account === 'unassigned' ? 'none' : account),
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
    dayTrades: (date: string, account: JournalAccounts) =>
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

type NoteRow = NonNullable<Awaited<ReturnType<ReturnType<typeof journalRepo>['note']>>>;

export function toJournalNote(row: NoteRow): JournalNote {
  return { id: row.id, title: row.title, content: row.content, folder_id: row.folderId, updated_at: new Date(row.updatedAt).toISOString() };
}

/**
 * The day list in `tx`: trading days and journal-note days, newest first, each with its summed P&L over the
 * accounts' trades. Journal notes belong to the day, not to an account: a note's day is listed whichever accounts are
 * shown.
 */
export async function readJournalDays(tx: Tx, userId: string, account: JournalAccounts, date?: string): Promise<JournalDays> {
  const repo = journalRepo(tx, userId);
  const tradingDays = await repo.tradingDays(account, date);
  const noteDates = await repo.noteDates(date);
  const days = buildJournalDays(
    tradingDays.map((d) => ({ date: d.date, trades: d.trades, pnlCents: Number(d.pnlCents) })),
    noteDates,
    date,
  );
  return { days: days.map((d) => ({ date: d.date, trades: d.trades, pnl: centsToDecimalString(d.pnlCents), has_note: d.hasNote })) };
}

/** One day in `tx`: the accounts' trades, their summed P&L and the journal note (null before the first Save). */
export async function readJournalDay(tx: Tx, userId: string, date: string, account: JournalAccounts): Promise<JournalDayDetail> {
  const repo = journalRepo(tx, userId);
  const dayTrades = await repo.dayTrades(date, account);
  const note = await repo.note(date);
  const pnlCents = dayTrades.reduce((sum, t) => sum + toCents(t.pnl), 0);
  return {
    date,
    pnl: centsToDecimalString(pnlCents),
    trades: dayTrades.map((t) => ({
      id: t.id,
      symbol: t.symbol,
      pnl: t.pnl,
      status: t.status,
      period: t.period,
      trade_type: t.tradeType,
      contract: t.contract,
      entry_time: t.entryTime && new Date(t.entryTime).toISOString(),
      exit_time: t.exitTime && new Date(t.exitTime).toISOString(),
      quantity: t.quantity,
      entry_price: t.entryPrice,
      exit_price: t.exitPrice,
      gross_pnl: t.grossPnl,
      commission: t.commission,
      account_id: t.accountId,
      account_name: t.accountName,
    })),
    note: note ? toJournalNote(note) : null,
  };
}
