import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteExtensions } from '../../src/server/db/client';
import { spawnServer, summarize, tempDir, type PostgresForBench, type Row } from '../lib';
import { newTrader, seed as seedTrades } from './trade-log';

const SUITE = 'notes';
const NOTES = 10_000;
const JOURNAL_DAYS = 1_000;
const NOTE = '10,000 notes, 100,000 trades';

/**
 * The notes layer at size: one trader with 100,000 trades and 10,000 notes (1,000 of them daily-journal
 * notes, a third linked to trades, each with tags), on PGlite and PostgreSQL. Measures the notebook's first and next
 * list pages, full-text searches (common and rare words), the tag filter, one note, the journal's day list (every
 * trading day's P&L summed from 100,000 trades) and one day, and a trade's page with its neighbours.
 * The rows are written by INSERT ... SELECT straight into the database, as in the trade-log suite.
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const n = ctx.quick ? 10 : 30;

  const dir = tempDir('notes');
  try {
    let { server } = await spawnServer({ DATA_DIR: dir });
    const trader = await newTrader(server.url);
    await server.stop();
    const db = await PGlite.create(path.join(dir, 'pglite'), { extensions: pgliteExtensions });
    const query = (text: string, params: unknown[]) => db.query(text, params);
    await seedTrades(query, trader.userId, trader.accountId);
    await seedNotes(query, trader.userId);
    await db.close();
    ({ server } = await spawnServer({ DATA_DIR: dir }));
    try {
      rows.push(...(await measureApi(server.url, trader.cookie, 'pglite', n)));
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  if (ctx.postgres) {
    const url = await ctx.postgres.newDatabase();
    const pgDir = tempDir('notes-pg');
    const { server } = await spawnServer({ DATABASE_URL: url, DATA_DIR: pgDir });
    try {
      const trader = await newTrader(server.url);
      // The cluster's admin role owns the tables, so row-level security does not apply to this direct write.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const query = (text: string, params: unknown[]) => client.query(text, params);
      await seedTrades(query, trader.userId, trader.accountId);
      await seedNotes(query, trader.userId);
      await client.query('analyze');
      await client.end();
      rows.push(...(await measureApi(server.url, trader.cookie, 'postgres', n)));
    } finally {
      await server.stop();
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  }
  return rows;
}

type Query = (text: string, params: unknown[]) => Promise<unknown>;

/**
 * 10,000 notes of ~400 characters of trading prose, updated over five years: one in 10 mentions 'breakout', one in
 * 1,000 'hammer'; every third is linked to a trade; 1,000 are journal notes (one per trading day) in 'Daily Journal';
 * 5 folders and 20 tags, one or two tags a note.
 */
async function seedNotes(query: Query, userId: string) {
  await query(
    `insert into note_folders (user_id, name) select $1, name from unnest(array['Daily Journal','Playbook','Reviews','Psychology','Ideas']) name`,
    [userId],
  );
  await query(`insert into tags (user_id, name) select $1, 'tag-' || g from generate_series(1, 20) g`, [userId]);
  await query(
    `with trade_ids as (select id, row_number() over (order by trade_date, created_at, id) rn from trades where user_id = $1),
          folders as (select array_agg(id order by name) ids from note_folders where user_id = $1),
          journal as (select id from note_folders where user_id = $1 and name = 'Daily Journal')
     insert into notes (user_id, folder_id, trade_id, title, content, journal_date, created_at, updated_at)
     select $1,
            case when g <= $3 then (select id from journal) when g % 4 = 0 then null else (select ids[2 + g % 4] from folders) end,
            case when g > $3 and g % 3 = 0 then (select id from trade_ids where rn = g * 9) end,
            case when g <= $3 then to_char(d.day, 'YYYY-MM-DD') else (array['Opening range','Lunch chop','Trend day','Gap fill','Reversal review'])[1 + g % 5] || ' ' || g end,
            (array['Waited for the open and took the first pullback on NQ.', 'Chased the move and gave back the morning.',
                   'Patience paid: A+ setup at the prior day high.', 'Sized down after two losses, as planned.'])[1 + g % 4]
              || case when g % 10 = 0 then ' The breakout held after a clean retest of the level.' else ' Price ranged between the overnight levels.' end
              || case when g % 1000 = 7 then ' A hammer candle marked the low.' else '' end
              || ' Rules: stop in, target set, no revenge trades. Mood 7/10, sleep ok, followed the plan on most entries today.',
            case when g <= $3 then d.day::date end,
            now() - (($2::int - g) * interval '4 hours'), now() - (($2::int - g) * interval '4 hours')
     from generate_series(1, $2::int) g,
          lateral (select timestamp '2020-01-06' + (((g - 1) / 5) * 7 + (g - 1) % 5) * interval '1 day' as day) d`,
    [userId, NOTES, JOURNAL_DAYS],
  );
  await query(
    `insert into note_tags (note_id, tag_id, user_id)
     select n.id, t.id, $1 from (select id, row_number() over (order by id) rn from notes where user_id = $1) n
     join (select id, row_number() over (order by name) rn from tags where user_id = $1) t on t.rn = 1 + n.rn % 20 or (n.rn % 3 = 0 and t.rn = 1 + (n.rn + 7) % 20)`,
    [userId],
  );
}

/** Sequential requests after 3 warm-ups. */
async function measure(url: string, cookie: string, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -3; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    if (i >= 0) samples.push(performance.now() - t0);
  }
  return samples;
}

async function getJson<T>(url: string, cookie: string): Promise<T> {
  const res = await fetch(url, { headers: { cookie } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return (await res.json()) as T;
}

async function measureApi(url: string, cookie: string, backend: string, n: number): Promise<Row[]> {
  const first = await getJson<{ notes: Array<{ id: string }>; next_cursor: string }>(`${url}/api/notes?limit=50`, cookie);
  const breakout = await getJson<{ notes: unknown[] }>(`${url}/api/notes?q=breakout&limit=200`, cookie);
  if (first.notes.length !== 50 || breakout.notes.length !== 200) throw new Error('the notes were not seeded as expected');
  const tags = await getJson<Array<{ id: string }>>(`${url}/api/tags`, cookie);
  const days = await getJson<{ days: Array<{ date: string; has_note: boolean }> }>(`${url}/api/journal/days`, cookie);
  const trade = (await getJson<{ trades: Array<{ id: string }> }>(`${url}/api/trades?limit=1`, cookie)).trades[0]!;
  const linked = await getJson<{ notes: Array<{ id: string; trade_id: string }> }>(`${url}/api/notes?folder_id=none&limit=50`, cookie);
  const linkedTrade = linked.notes.find((n) => n.trade_id)?.trade_id ?? trade.id;
  console.error(`  ${backend}: ${days.days.length} journal days, ${days.days.filter((d) => d.has_note).length} with a note`);

  const m = async (measure_: string, path: string) => {
    const row = summarize(SUITE, measure_, backend, await measure(`${url}${path}`, cookie, n), 'ms', NOTE);
    console.error(`  ${backend}: ${measure_}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms`);
    return row;
  };
  return [
    await m('GET /api/notes first page (50)', '/api/notes?limit=50'),
    await m('GET /api/notes next page (50, cursor)', `/api/notes?limit=50&cursor=${first.next_cursor}`),
    await m('GET /api/notes?tag_id= (tag filter, 50)', `/api/notes?tag_id=${tags[3]!.id}&limit=50`),
    await m('GET /api/notes?q=breakout (1,000 matches, ranked, 50)', '/api/notes?q=breakout&limit=50'),
    await m('GET /api/notes?q=hammer (10 matches)', '/api/notes?q=hammer&limit=50'),
    await m('GET /api/notes?q=brea (prefix while typing)', '/api/notes?q=brea&limit=50'),
    await m('GET /api/notes/:id (one note with tags, trade, attachments)', `/api/notes/${first.notes[0]!.id}`),
    await m('GET /api/journal/days (every trading day, P&L summed)', '/api/journal/days'),
    await m('GET /api/journal/:date (one day: trades and note)', `/api/journal/${days.days[0]!.date}`),
    await m('GET /api/trade-details/:id (trade, neighbours, notes, attachments)', `/api/trade-details/${linkedTrade}`),
  ];
}
