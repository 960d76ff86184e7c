import { readFile } from 'node:fs/promises';
import { Hono, type Context } from 'hono';
import type {
  EconomicCalendarEvent,
  EconomicCalendarResponse,
  ImportedNewsDeleted,
  ImportedNewsEvents,
  NewsFilterStatus,
  NewsImportResult,
} from '../../../contract/economic-calendar';
import { countNewsEvents, isStoredNews, storeNewsEvents } from '../../core/news/repo';
import type { Database } from '../../db/client';
import type { AppDeps, AppEnv } from '../../http/context';
import { withSavedUpload } from '../../http/read-upload';
import { createNewsImports } from './imports';
import { createEconomicCalendar } from './service';

/**
 * A week has a couple of dozen high-impact USD releases: a feed that lists thousands is not a weekly calendar, and
 * keeping them all on every read would grow the table without end.
 */
const MAX_KEPT_PER_READ = 200;

/**
 * What a good read of the feed leaves behind: its high-impact USD events, kept for the news filter. Public news, no
 * trader's: written on the server's own connection (the app role may only read them).
 */
export const keepNewsEvents = (database: Database) => async (events: readonly EconomicCalendarEvent[]) => {
  await storeNewsEvents(database.db, events.filter(isStoredNews).slice(0, MAX_KEPT_PER_READ));
};

/** The file itself as the body, as the other imports take theirs (a calendar is small: it is read whole). */
const withFile = <T>(c: Context<AppEnv>, use: (bytes: Uint8Array) => Promise<T>) =>
  withSavedUpload(c, 'Send the file itself as the request body (application/json or text/csv)', async (upload) => use(await readFile(upload.path)));

/**
 * /api/economic-calendar: the configured feed's week, or `{ source: 'sample' }` when there is no feed. Every good read
 * of the feed keeps its high-impact USD events for the reports' news filter; /news says whether that filter has any.
 * /events: the trader's own past events, imported from a file in the feed's format, read, and deleted.
 */
export function economicCalendarRoutes({ config, logger, database }: AppDeps) {
  const url = config.ECONOMIC_CALENDAR_URL;
  const calendar = url ? createEconomicCalendar({ url, logger, onRead: keepNewsEvents(database) }) : null;
  const imports = createNewsImports(database);
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json<EconomicCalendarResponse>(calendar ? await calendar.week() : { source: 'sample' }))
    .get('/news', async (c) => {
      const userId = c.get('user').id;
      const count = () => database.withUser(userId, (tx) => countNewsEvents(tx, userId));
      let events = await count();
      if (calendar && events.feed === 0) {
        // Nothing kept from the feed yet (no one opened the calendar since the server started): read it now. A feed
        // that cannot be read leaves the filter with the trader's imported events only, which is what the answer says.
        await calendar.week().catch(() => undefined);
        events = await count();
      }
      return c.json<NewsFilterStatus>({ feed: calendar !== null, events: events.total });
    })
    .get('/events', async (c) => c.json<ImportedNewsEvents>(await imports.summary(c.get('user').id)))
    .post('/events', async (c) => c.json<NewsImportResult>(await withFile(c, (bytes) => imports.importFile(c.get('user').id, bytes))))
    .delete('/events', async (c) => c.json<ImportedNewsDeleted>(await imports.remove(c.get('user').id)));
}
