import type { ImportedNewsDeleted, ImportedNewsEvents, NewsImportResult } from '../../../contract/economic-calendar';
import { deleteImportedNews, isStoredNews, storeNewsEvents, summarizeImportedNews } from '../../core/news/repo';
import type { Database } from '../../db/client';
import { badRequest } from '../../http/errors';
import { parseCalendarFile } from './feed';

/**
 * Past calendar weeks a trader imports, so that the news filter also finds the trades taken before the server read
 * the feed. The file is read by the feed's own reader, all or nothing, and its high-impact USD events are kept as the
 * feed's are, by the same insert, but as the trader's own: one trader's file never changes another's filter.
 */

/**
 * The most imported events a trader keeps: some 25 years of high-impact USD releases. A file beyond it is refused
 * whole rather than kept in part.
 */
export const MAX_IMPORTED_EVENTS = 20_000;

export function createNewsImports(database: Database) {
  return {
    /** Reads the file and stores its events not stored yet; a refusal names the item or row and the field. */
    async importFile(userId: string, bytes: Uint8Array): Promise<NewsImportResult> {
      let body: string;
      try {
        body = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw badRequest('file: not UTF-8 text: save the calendar as a JSON or CSV file in UTF-8');
      }
      const reading = parseCalendarFile(body);
      if (!reading.ok) {
        throw badRequest(reading.message, {
          code: 'invalid-calendar-file',
          ...reading.at,
          fields: [{ field: reading.field ?? 'file', message: reading.message }],
        });
      }
      const kept = reading.events.filter(isStoredNews);
      const added = await database.withUser(userId, async (tx) => {
        const stored = await storeNewsEvents(tx, kept, userId);
        const { count } = await summarizeImportedNews(tx, userId);
        // Thrown inside the transaction: nothing of the file stays.
        if (count > MAX_IMPORTED_EVENTS) {
          throw badRequest(
            `file: ${count.toLocaleString('en-US')} imported events would be more than the ${MAX_IMPORTED_EVENTS.toLocaleString('en-US')} kept; delete your imported events first or import fewer weeks`,
          );
        }
        return stored;
      });
      return { read: reading.events.length, kept: kept.length, added, from: kept[0]?.at ?? null, to: kept.at(-1)?.at ?? null };
    },

    summary: (userId: string): Promise<ImportedNewsEvents> => database.withUser(userId, (tx) => summarizeImportedNews(tx, userId)),

    async remove(userId: string): Promise<ImportedNewsDeleted> {
      return { deleted: await database.withUser(userId, (tx) => deleteImportedNews(tx, userId)) };
    },
  };
}
