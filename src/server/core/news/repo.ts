import { sql } from 'drizzle-orm';
import { sortEventInstants } from '../../../domain/reports/news';
import { queryRows, type Db, type Tx } from '../../db/client';
import { economicEvents, importedEconomicEvents } from '../../db/schema';

/**
 * The stored high-impact USD events the news filter reads: the feed's, public news that every trader reads and only
 * the server's own connection writes after a good read of the calendar feed; and those a trader imported from a file of
 * past weeks, which are that trader's alone (row-level security like every owned table). A trader's filter reads both.
 */

/** An event as the feed gave it: the title, the currency's country code ('USD') and the instant (ISO, UTC). */
export interface NewsEvent {
  title: string;
  country: string;
  at: string;
}

/** Only these events are stored: the ones prop firms' news rules name. */
export const isStoredNews = (event: { country: string; impact: string }) => event.country === 'USD' && event.impact === 'high';

/** Rows per insert statement: 4 parameters a row stays well under PostgreSQL's 65,535 per statement. */
const ROWS_PER_INSERT = 5_000;

/**
 * Stores the events not stored yet, and says how many that were. One event twice stays one row (title, country and
 * instant are the key). With `owner`, into that trader's imported events, in their transaction, leaving out the events
 * the feed has stored already: an event is the same whether the feed or a file told of it.
 */
export async function storeNewsEvents(db: Pick<Db, 'insert' | 'execute'>, events: readonly NewsEvent[], owner?: string): Promise<number> {
  let fresh = events;
  if (owner !== undefined && events.length > 0) {
    const known = new Set(
      (
        await queryRows<{ key: string }>(
          db,
          sql`select e.title || chr(10) || e.country || chr(10) || floor(extract(epoch from e.at) * 1000)::bigint::text as key
              from ${economicEvents} e
              where e.at between ${events.reduce((min, e) => (e.at < min ? e.at : min), events[0]!.at)}
                             and ${events.reduce((max, e) => (e.at > max ? e.at : max), events[0]!.at)}`,
        )
      ).map((row) => row.key),
    );
    fresh = events.filter((e) => !known.has(`${e.title}\n${e.country}\n${Date.parse(e.at)}`));
  }
  let added = 0;
  for (let start = 0; start < fresh.length; start += ROWS_PER_INSERT) {
    const rows = fresh.slice(start, start + ROWS_PER_INSERT).map(({ title, country, at }) => ({ title, country, at }));
    const inserted =
      owner === undefined
        ? await db.insert(economicEvents).values(rows).onConflictDoNothing().returning({ at: economicEvents.at })
        : await db
            .insert(importedEconomicEvents)
            .values(rows.map((row) => ({ ...row, userId: owner })))
            .onConflictDoNothing()
            .returning({ at: importedEconomicEvents.at });
    added += inserted.length;
  }
  return added;
}

/**
 * Every event's instant the trader's news filter matches entries with, in milliseconds, sorted ascending: the feed's
 * and the trader's imported ones. (An instant twice is harmless: the filter asks whether one is near.)
 */
export async function loadNewsInstants(tx: Tx, userId: string): Promise<Float64Array> {
  const rows = await queryRows<{ ms: number | string }>(
    tx,
    sql`select floor(extract(epoch from ${economicEvents.at}) * 1000)::float8 as ms from ${economicEvents}
        union all
        select floor(extract(epoch from i.at) * 1000)::float8 from ${importedEconomicEvents} i where i.user_id = ${userId}`,
  );
  return sortEventInstants(rows.map((r) => Number(r.ms)));
}

/**
 * How many events the trader's filter has, each once (`total`: none means it could only ever find nothing), and how
 * many of them the feed gave (`feed`: none means no read of the feed has been kept yet).
 */
export async function countNewsEvents(tx: Tx, userId: string): Promise<{ total: number; feed: number }> {
  const [row] = await queryRows<{ total: number | string; feed: number | string }>(
    tx,
    sql`select (select count(*)::int from (
                  select title, country, at from ${economicEvents}
                  union
                  select title, country, at from ${importedEconomicEvents} where user_id = ${userId}
                ) e) as total,
               (select count(*)::int from ${economicEvents}) as feed`,
  );
  return { total: Number(row?.total ?? 0), feed: Number(row?.feed ?? 0) };
}

/** The trader's imported events: how many, and the first and last one's instants (ISO, UTC). */
export async function summarizeImportedNews(tx: Tx, userId: string): Promise<{ count: number; from: string | null; to: string | null }> {
  const [row] = await queryRows<{ n: number | string; first: string | null; last: string | null }>(
    tx,
    sql`select count(*)::int as n,
               to_char(min(at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first,
               to_char(max(at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last
        from ${importedEconomicEvents} where user_id = ${userId}`,
  );
  return { count: Number(row?.n ?? 0), from: row?.first ?? null, to: row?.last ?? null };
}

/** Deletes the trader's imported events; the feed's stay. Says how many went. */
export async function deleteImportedNews(tx: Tx, userId: string): Promise<number> {
  const rows = await queryRows<{ at: string }>(tx, sql`delete from ${importedEconomicEvents} where user_id = ${userId} returning at`);
  return rows.length;
}
