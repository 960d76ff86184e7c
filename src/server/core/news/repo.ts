import { sql } from 'drizzle-orm';
import { sortEventInstants } from '../../../domain/reports/news';
import { queryRows, type Db, type Tx } from '../../db/client';
import { economicEvents } from '../../db/schema';

/**
 * The stored high-impact USD events the news filter reads. They are public news, not a trader's rows: every trader
 * reads all of them, and only the server's own connection writes them, after a good read of the calendar feed.
 */

/** An event as the feed gave it: the title, the currency's country code ('USD') and the instant (ISO, UTC). */
export interface NewsEvent {
  title: string;
  country: string;
  at: string;
}

/** Only these events are stored: the ones prop firms' news rules name. */
export const isStoredNews = (event: { country: string; impact: string }) => event.country === 'USD' && event.impact === 'high';

/** Stores the events not stored yet; one read twice stays one row (title, country and instant are the key). */
export async function storeNewsEvents(db: Pick<Db, 'insert'>, events: readonly NewsEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insert(economicEvents)
    .values(events.map(({ title, country, at }) => ({ title, country, at })))
    .onConflictDoNothing();
}

/** Every stored event's instant in milliseconds, sorted ascending: what the engine's news filter matches entries with. */
export async function loadNewsInstants(tx: Tx): Promise<Float64Array> {
  const rows = await queryRows<{ ms: number | string }>(
    tx,
    sql`select floor(extract(epoch from ${economicEvents.at}) * 1000)::float8 as ms from ${economicEvents}`,
  );
  return sortEventInstants(rows.map((r) => Number(r.ms)));
}

/** How many events are stored: none means the news filter could only ever find nothing. */
export async function countNewsEvents(tx: Tx): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(tx, sql`select count(*)::int as n from ${economicEvents}`);
  return Number(row?.n ?? 0);
}
