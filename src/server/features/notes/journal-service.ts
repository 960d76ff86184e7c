import type { JournalDayDetail, JournalDays, JournalSave } from '../../../contract/journal';
import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { accountsRepo } from '../../core/accounts/repo';
import { journalRepo, readJournalDay, readJournalDays, toJournalNote } from '../../core/notes/journal-repo';
import type { AccountScope } from '../../core/trades/repo';
import { badRequest } from '../../http/errors';
import { noteChanged } from './service';

/** An account of the filter must be the trader's own: another trader's id is refused as the reports refuse it. */
async function checkAccount(tx: Tx, userId: string, account: AccountScope) {
  if (account !== 'all' && account !== 'unassigned' && !(await accountsRepo(tx, userId).find(account))) {
    throw badRequest('account: Trading account not found');
  }
}

export const journalService = {
  /** The day list of the account (or all): the core's read, after the account is checked to be the trader's. */
  days: (db: Database, userId: string, date?: string, account: AccountScope = 'all'): Promise<JournalDays> =>
    db.withUser(userId, async (tx) => {
      await checkAccount(tx, userId, account);
      return readJournalDays(tx, userId, account, date);
    }),

  /** One day: the account's trades, their summed P&L and the journal note. */
  day: (db: Database, userId: string, date: string, account: AccountScope = 'all'): Promise<JournalDayDetail> =>
    db.withUser(userId, async (tx) => {
      await checkAccount(tx, userId, account);
      return readJournalDay(tx, userId, date, account);
    }),

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
