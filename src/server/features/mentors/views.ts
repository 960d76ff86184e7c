import type { JournalDayDetail, JournalDays } from '../../../contract/journal';
import type { PropStatusList } from '../../../contract/prop';
import { mentorImageUrl } from '../../../domain/files/mentor-image-url';
import type { ReflectionsQuery } from '../../../contract/reflections';
import { buildTradingInsights, type ReflectionsPageData } from '../../../domain/reflections';
import { createReportFilter } from '../../../domain/reports';
import type { Database, Tx } from '../../db/client';
import { notFound } from '../../http/errors';
import { ATTACHMENT_FILE_NAME, ATTACHMENT_FILES_PATH, attachmentStorageKey, attachmentsRepo } from '../../core/attachments/repo';
import { readJournalDay, readJournalDays } from '../../core/notes/journal-repo';
import { propStatusList } from '../../core/prop/status';
import { loadReflectPeriod } from '../../core/reflect/period';
import type { AccountScope } from '../../core/trades/repo';
import type { FileStorage } from '../../storage';
import { mentorRepo } from './repo';
import { NO_TRADER, gate, gateIn, grantedFilter } from '../../core/mentors/gate';

/**
 * The trader's other screens as their mentor reads them: Reflect, the daily journal (when a live grant shares it) and
 * the prop status, each over the granted accounts only and from the same code the trader's own screen uses. Every read
 * of the trader's rows checks the live grant in the transaction that reads them; a revoked grant ends access on the
 * very next request. The mentor writes none of them.
 */

/**
 * The accounts a mentor's read of one account or of 'all' covers: the one asked, when granted (else the same 404 as an
 * account that does not exist: the trades without an account are never granted), or every granted one.
 */
function grantedAccounts(account: AccountScope, granted: readonly string[]): string[] {
  const asked = account === 'all' ? [] : [account];
  return grantedFilter(createReportFilter({ account: asked }), granted).account;
}

/** The live grant in `tx`, and the daily journal only when one of its grants shares it. */
async function journalGateIn(tx: Tx, traderId: string, mentorId: string): Promise<string[]> {
  const { grantIds, accounts } = await gateIn(tx, traderId, mentorId);
  if (!(await mentorRepo(tx, traderId).sharesJournal(grantIds))) throw notFound(NO_TRADER);
  return accounts;
}

export const mentorViews = {
  /**
   * The trader's Reflect page for a period, as the trader's own page answers it for the granted accounts: the same
   * trades, notes, overrides and figures. 'all' is every granted account.
   */
  async reflect(database: Database, mentorId: string, traderId: string, query: ReflectionsQuery, now: Date): Promise<ReflectionsPageData> {
    const { accounts } = await gate(database, traderId, mentorId);
    const within = grantedAccounts(query.account, accounts);
    const { rStatistics: _rStatistics, ...data } = await loadReflectPeriod(database, traderId, query, now, {
      within,
      allName: 'All shared accounts',
      // Checked again in the transaction that reads the trades' notes: a grant revoked a moment ago shows nothing.
      guard: async (tx) => (await gateIn(tx, traderId, mentorId)).accounts,
      viewer: { mentorId },
    });
    // The trader's image addresses open only for the trader: the mentor's page loads them through the mentor's route.
    const reflections = data.reflections.map((r) => (r.imageUrl ? { ...r, imageUrl: mentorImageUrl(traderId, r.imageUrl) } : r));
    return { ...data, reflections, insights: buildTradingInsights(data.statistics, 'mentor') };
  },

  /**
   * An uploaded image's bytes, from the trader's folder, while one of the attachments the mentor may see holds it: a
   * shared trade's, a note's on one, or a journal note's while the journal is shared (row-level security decides which
   * the mentor's transaction finds). Anything else, and everything after a revocation, is the same 404.
   */
  async attachmentFile(database: Database, storage: FileStorage, mentorId: string, traderId: string, file: string): Promise<Uint8Array | null> {
    if (!ATTACHMENT_FILE_NAME.test(file)) throw notFound();
    const attached = await database.withMentor(traderId, mentorId, async (tx) => {
      await gateIn(tx, traderId, mentorId);
      return attachmentsRepo(tx, traderId).hasUrl(`${ATTACHMENT_FILES_PATH}${file}`);
    });
    if (!attached) throw notFound();
    return storage.get(attachmentStorageKey(traderId, file));
  },

  /** The journal's day list: every day with a note, and the trading days of the granted accounts (or the one asked). */
  journalDays: (database: Database, mentorId: string, traderId: string, account: AccountScope, date?: string): Promise<JournalDays> =>
    database.withMentor(traderId, mentorId, async (tx) =>
      readJournalDays(tx, traderId, grantedAccounts(account, await journalGateIn(tx, traderId, mentorId)), date),
    ),

  /** One journal day: its note and its trades of the granted accounts (or the one asked). */
  journalDay: (database: Database, mentorId: string, traderId: string, date: string, account: AccountScope): Promise<JournalDayDetail> =>
    database.withMentor(traderId, mentorId, async (tx) =>
      readJournalDay(tx, traderId, date, grantedAccounts(account, await journalGateIn(tx, traderId, mentorId))),
    ),

  /** Where each granted account with a rule set stands today, as the trader's prop screens show it. */
  prop: (database: Database, mentorId: string, traderId: string, now: Date): Promise<PropStatusList> =>
    propStatusList(database, traderId, now, async (tx) => (await gateIn(tx, traderId, mentorId)).accounts, { mentorId }),
};
