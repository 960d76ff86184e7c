import type { JournalDayDetail, JournalDays, JournalNote, JournalSave } from '../../../contract/journal';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { buildJournalDays } from '../../../domain/notes';
import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { accountsRepo } from '../../core/accounts/repo';
import type { AccountScope } from '../../core/trades/repo';
import { badRequest } from '../../http/errors';
import { noteChanged } from './service';
import { journalRepo } from './journal-repo';

type NoteRow = NonNullable<Awaited<ReturnType<ReturnType<typeof journalRepo>['note']>>>;

function toJournalNote(row: NoteRow): JournalNote {
  return { id: row.id, title: row.title, content: row.content, folder_id: row.folderId, updated_at: new Date(row.updatedAt).toISOString() };
}

/** An account of the filter must be the trader's own: another trader's id is refused as the reports refuse it. */
async function checkAccount(tx: Tx, userId: string, account: AccountScope) {
  if (account !== 'all' && account !== 'unassigned' && !(await accountsRepo(tx, userId).find(account))) {
    throw badRequest('account: Trading account not found');
  }
}

export const journalService = {
  /**
   * The day list: trading days and journal-note days, newest first, each with its summed P&L over the account's
   * trades. Journal notes belong to the day, not to an account: a note's day is listed whichever account is shown.
   */
  async days(db: Database, userId: string, date?: string, account: AccountScope = 'all'): Promise<JournalDays> {
    const { tradingDays, noteDates } = await db.withUser(userId, async (tx) => {
      await checkAccount(tx, userId, account);
      const repo = journalRepo(tx, userId);
      return { tradingDays: await repo.tradingDays(account, date), noteDates: await repo.noteDates(date) };
    });
    const days = buildJournalDays(
      tradingDays.map((d) => ({ date: d.date, trades: d.trades, pnlCents: Number(d.pnlCents) })),
      noteDates,
      date,
    );
    return {
      days: days.map((d) => ({ date: d.date, trades: d.trades, pnl: centsToDecimalString(d.pnlCents), has_note: d.hasNote })),
    };
  },

  /** One day: the account's trades, their summed P&L and the journal note (null before the first Save). */
  async day(db: Database, userId: string, date: string, account: AccountScope = 'all'): Promise<JournalDayDetail> {
    return db.withUser(userId, async (tx) => {
      await checkAccount(tx, userId, account);
      const repo = journalRepo(tx, userId);
      const trades = await repo.dayTrades(date, account);
      const note = await repo.note(date);
      const pnlCents = trades.reduce((sum, t) => sum + toCents(t.pnl), 0);
      return {
        date,
        pnl: centsToDecimalString(pnlCents),
        trades: trades.map((t) => ({
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
    });
  },

  /**
   * Saves the day's note. With `base` (the updated_at the text grew from, null for a day that had no note), a note
   * saved elsewhere since is not replaced: 409 `note-changed`.
   */
  async save(db: Database, userId: string, date: string, content: string, base?: string | null): Promise<JournalSave> {
    const note = await db.withUser(userId, async (tx) => {
      const repo = journalRepo(tx, userId);
      if (base !== undefined) {
        // The day's first note has no row to lock: two first saves at once would both find none and both be answered,
        // the second overwriting the first. Saves of one day take their turn, and the second then finds the first.
        await lockFor(tx, 'journal_notes', `${userId}:${date}`);
        const current = await repo.lockNote(date);
        const changed = current !== null && (base === null || Date.parse(current) >= Date.parse(base) + 1);
        if (changed) throw noteChanged(current);
      }
      return repo.save(date, content);
    });
    return { date, note: toJournalNote(note) };
  },
};
