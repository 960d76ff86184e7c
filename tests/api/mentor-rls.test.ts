import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReportFilter } from '../../src/domain/reports';
import { withReportScope } from '../../src/server/core/engine/scope';
import { queryRows, type MentorAccess } from '../../src/server/db/client';
import { ownedTables } from '../../src/server/db/schema';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade } from './trades-support';

/**
 * A mentor's transaction (withMentor) on both databases: row-level security itself narrows every statement to the
 * accounts of the trader's live grants to that mentor, so a read with no filter at all still shows nothing else, a
 * revoked grant shows nothing, and the mentor's role writes nothing but their own comment.
 */
type Row = Record<string, unknown>;

describe.each(backends())('row-level security of a mentor on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let aliceId: string;
  let bobId: string;
  let maraId: string;
  let ollyId: string;
  let shared: { id: string };
  let hidden: { id: string };
  let bobAccount: { id: string };
  let sharedTrade: string;
  let hiddenTrade: string;
  let bobTrade: string;
  let looseTrade: string;
  let maraGrant: string;
  let ollyGrant: string;

  const db = () => app.server.database;
  const owner = async (query: SQL) => queryRows<Row>(db().db, query);
  /** One statement in a mentor's transaction. */
  const asMentor = (traderId: string, mentorId: string, query: SQL, access?: MentorAccess) =>
    db().withMentor(traderId, mentorId, (tx) => queryRows<Row>(tx, query), access);
  /** One statement as the mentor's role, writable, with these settings: the policies alone, whatever the server sets. */
  const asRole = (traderId: string, mentorId: string, query: SQL) =>
    db().db.transaction(async (tx) => {
      await tx.execute(
        sql`select set_config('role', 'edgebook_mentor', true), set_config('app.user_id', ${traderId}, true), set_config('app.mentor_id', ${mentorId}, true)`,
      );
      return queryRows<Row>(tx, query);
    });
  /** The database's own message: drizzle wraps it in "Failed query: ..." with the driver's error as the cause. */
  async function dbError(run: () => Promise<unknown>): Promise<string> {
    try {
      await run();
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause;
      return cause?.message ?? (error as Error).message;
    }
    throw new Error('the statement succeeded');
  }
  const ids = (rows: Row[], key = 'id') => rows.map((r) => String(r[key])).sort();

  const signedUp = async (prefix: string) => {
    const client = app.client();
    const email = uniqueEmail(prefix);
    const res = await client.signUp(email);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await owner(sql`select id from "user" where email = ${email}`);
    return { client, id: String(row!.id) };
  };
  const grant = async (mentor: ApiClient, accountIds: string[]) => {
    const invited = await alice.post('/api/mentor-grants', { email: uniqueEmail('m'), account_ids: accountIds });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const accepted = await mentor.post('/api/mentor/accept', { token: new URL(invited.body.url).hash.slice(1) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    return String(invited.body.id);
  };
  const fills = (client: ApiClient, tradeId: string, price: string) =>
    client.put(`/api/trades/${tradeId}/fills`, {
      fills: [
        { time: '2026-03-03T15:00:00Z', side: 'Buy', quantity: 1, price, commission: null },
        { time: '2026-03-03T15:05:00Z', side: 'Sell', quantity: 1, price, commission: null },
      ],
    });

  beforeAll(async () => {
    app = await startTestApp({ backend });
    const a = await signedUp('rls-alice');
    const b = await signedUp('rls-bob');
    const m = await signedUp('rls-mara');
    const o = await signedUp('rls-olly');
    [alice, aliceId, bobId, maraId, ollyId] = [a.client, a.id, b.id, m.id, o.id];
    shared = await createAccount(alice, 'Shared with Mara');
    hidden = await createAccount(alice, 'Shared with Olly only');
    bobAccount = await createAccount(b.client, 'Bob main');
    sharedTrade = (await createTrade(alice, { account_id: shared.id, date: '2026-03-03', symbol: 'MNQH6', side: 'Long', pnl: 120 })).id;
    hiddenTrade = (await createTrade(alice, { account_id: hidden.id, date: '2026-03-03', symbol: 'MNQH6', side: 'Short', pnl: -80 })).id;
    bobTrade = (await createTrade(b.client, { account_id: bobAccount.id, date: '2026-03-03', symbol: 'MNQH6', pnl: 42 })).id;
    // A trade of no account (as an old journal may hold): shared with no one.
    const [loose] = await db().withUser(aliceId, (tx) =>
      queryRows<Row>(
        tx,
        sql`insert into trades (user_id, account_id, trade_date, day_of_week, symbol, pnl) values (${aliceId}, null, '2026-03-04T12:00:00Z', 'Wednesday', 'MNQH6', 10) returning id`,
      ),
    );
    looseTrade = String(loose!.id);
    expect((await alice.get('/api/preferences')).status).toBe(200);
    for (const [client, trade] of [
      [alice, sharedTrade],
      [alice, hiddenTrade],
      [b.client, bobTrade],
    ] as const) {
      expect((await fills(client, trade, '21000')).status).toBe(200);
    }
    expect((await alice.post('/api/notes', { title: 'On the shared trade', trade_id: sharedTrade })).status).toBe(201);
    expect((await alice.post('/api/notes', { title: 'On the hidden trade', trade_id: hiddenTrade })).status).toBe(201);
    expect((await alice.post('/api/notes', { title: 'My private journal' })).status).toBe(201);
    maraGrant = await grant(m.client, [shared.id]);
    ollyGrant = await grant(o.client, [hidden.id]);
  });
  afterAll(() => app?.close());

  it("reads, with no filter in the statement, only the shared account's trades, fills, account and trade notes", async () => {
    expect(ids(await asMentor(aliceId, maraId, sql`select * from trades`))).toEqual([sharedTrade]);
    const fillRows = await asMentor(aliceId, maraId, sql`select * from trade_fills`);
    expect(fillRows.map((r) => r.trade_id)).toEqual([sharedTrade, sharedTrade]);
    expect(ids(await asMentor(aliceId, maraId, sql`select * from trading_accounts`))).toEqual([shared.id]);
    expect((await asMentor(aliceId, maraId, sql`select title from notes`)).map((r) => r.title)).toEqual(['On the shared trade']);
    // Each mentor sees their own grant's account: Olly the other one, and not Mara's.
    expect(ids(await asMentor(aliceId, ollyId, sql`select * from trades`))).toEqual([hiddenTrade]);
    expect(ids(await asMentor(aliceId, maraId, sql`select * from mentor_grants`))).toEqual([maraGrant]);
    expect(ids(await asMentor(aliceId, ollyId, sql`select * from mentor_grants`))).toEqual([ollyGrant]);
    // The mentor's role with no mentor named sees nothing at all.
    for (const table of ['trades', 'trade_fills', 'trading_accounts', 'notes', 'mentor_grants']) {
      expect(await asRole(aliceId, '', sql.raw(`select * from ${table}`)), table).toEqual([]);
    }
    // The trader's own transaction is not narrowed.
    expect(ids(await db().withUser(aliceId, (tx) => queryRows<Row>(tx, sql`select * from trades`)))).toEqual(
      [sharedTrade, hiddenTrade, looseTrade].sort(),
    );
    const own = await db().withUser(aliceId, (tx) => queryRows<Row>(tx, sql`select id from trading_accounts`));
    expect(ids(own)).toEqual(expect.arrayContaining([shared.id, hidden.id]));
  });

  it('reads nothing of what a mentor has no business with: the rest of the journal, settings, links, other mentors', async () => {
    for (const table of ['tasks', 'share_links', 'saved_views', 'broker_connections', 'chat_sessions', 'note_folders']) {
      // The role has no grant on them (and its policy there shows no row).
      expect(await dbError(() => asMentor(aliceId, maraId, sql.raw(`select * from ${table}`))), table).toMatch(/permission denied/);
    }
    // The journal's notes and day totals only through a grant that shares the journal: Mara's does not.
    expect(await asMentor(aliceId, maraId, sql`select title from notes where trade_id is null`)).toEqual([]);
    expect(await asMentor(aliceId, maraId, sql`select * from trade_day_rollups`)).toEqual([]);
    // Of the preferences, the zone only; never the quick note.
    expect(await asMentor(aliceId, maraId, sql`select time_zone from user_preferences`)).toHaveLength(1);
    expect(await dbError(() => asMentor(aliceId, maraId, sql`select quick_note from user_preferences`))).toMatch(/permission denied/);
    // Search runs as the tables' owner: not the mentor's to call.
    expect(await dbError(() => asMentor(aliceId, maraId, sql`select id from search_trades('%')`))).toMatch(/permission denied/);
  });

  it("reads the journal's notes and the shared account's day totals only while a live grant shares the journal", async () => {
    expect((await alice.json('PUT', '/api/journal/2026-03-03', { content: 'Sized down after the open.' })).status).toBe(200);
    const j = await signedUp('rls-jo');
    const invited = await alice.post('/api/mentor-grants', { email: uniqueEmail('j'), account_ids: [shared.id], share_journal: true });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await j.client.post('/api/mentor/accept', { token: new URL(invited.body.url).hash.slice(1) })).status).toBe(200);
    const journal = sql`select journal_date::text as day from notes where trade_id is null`;
    expect(await asMentor(aliceId, j.id, journal)).toEqual([{ day: '2026-03-03' }]);
    // Mara's grant does not share it; the private note with no journal date is no one's.
    expect(await asMentor(aliceId, maraId, journal)).toEqual([]);
    const scopes = await asMentor(aliceId, j.id, sql`select distinct scope from trade_day_rollups`);
    expect(scopes.map((r) => r.scope)).toEqual([shared.id]);
    expect((await alice.delete(`/api/mentor-grants/${invited.body.id}`)).status).toBe(204);
    expect(await asMentor(aliceId, j.id, journal)).toEqual([]);
    expect(await asMentor(aliceId, j.id, sql`select * from trade_day_rollups`)).toEqual([]);
  });

  it("a mentor of one trader sees none of another trader's rows", async () => {
    for (const table of ['trades', 'trade_fills', 'trading_accounts', 'mentor_grants']) {
      expect(await asMentor(bobId, maraId, sql.raw(`select * from ${table}`)), table).toEqual([]);
    }
    const everyone = await asMentor(aliceId, maraId, sql`select user_id from trades union all select user_id from trade_fills`);
    expect(new Set(everyone.map((r) => r.user_id))).toEqual(new Set([aliceId]));
    expect(JSON.stringify(await asMentor(aliceId, maraId, sql`select * from trades`))).not.toContain(bobTrade);
  });

  it("writes nothing of the trader's: inserts, updates and deletes of trades fail, and the rows stay as they were", async () => {
    const before = await owner(sql`select * from trades where user_id = ${aliceId} order by id`);
    const fillsBefore = await owner(sql`select * from trade_fills where user_id = ${aliceId} order by trade_id, seq`);
    const statements = [
      sql`insert into trades (user_id, account_id, trade_date, day_of_week, pnl) values (${aliceId}, ${shared.id}, '2026-03-05T12:00:00Z', 'Thursday', 1)`,
      sql`update trades set pnl = 0`,
      sql`update trades set pnl = 0 where id = ${sharedTrade}`,
      sql`delete from trades`,
      sql`delete from trade_fills where trade_id = ${sharedTrade}`,
      sql`update trading_accounts set name = 'taken'`,
    ];
    for (const statement of statements) {
      for (const access of ['read', 'comment'] as const) {
        expect(await dbError(() => asMentor(aliceId, maraId, statement, access)), access).toMatch(/read-only transaction|permission denied/);
      }
    }
    // A writable transaction of the role is refused by its grants, whatever the statement.
    for (const statement of statements) expect(await dbError(() => asRole(aliceId, maraId, statement))).toMatch(/permission denied/);
    expect(await owner(sql`select * from trades where user_id = ${aliceId} order by id`)).toEqual(before);
    expect(await owner(sql`select * from trade_fills where user_id = ${aliceId} order by trade_id, seq`)).toEqual(fillsBefore);
  });

  it('writes a comment only as the mentor, under their live grant, on a trade they can see, and only when the transaction may', async () => {
    const comment = (values: { author: string; trade: string | null; parent?: string | null; grantId?: string }) =>
      sql`insert into mentor_comments (user_id, grant_id, author_id, author_name, parent_id, trade_id, trade_date, body)
          values (${aliceId}, ${values.grantId ?? maraGrant}, ${values.author}, 'Mara', ${values.parent ?? null}, ${values.trade},
                  ${values.trade ? null : '2026-03-03'}, 'note') returning id`;
    const [made] = await asMentor(aliceId, maraId, comment({ author: maraId, trade: sharedTrade }), 'comment');
    expect(made!.id).toEqual(expect.any(String));
    expect(await asMentor(aliceId, maraId, comment({ author: maraId, trade: null }), 'comment')).toHaveLength(1);
    for (const refused of [
      comment({ author: maraId, trade: hiddenTrade }),
      comment({ author: aliceId, trade: sharedTrade }),
      comment({ author: maraId, trade: sharedTrade, parent: String(made!.id) }),
      comment({ author: maraId, trade: null, grantId: ollyGrant }),
    ]) {
      expect(await dbError(() => asMentor(aliceId, maraId, refused, 'comment'))).toMatch(/row-level security/);
    }
    expect(await dbError(() => asMentor(aliceId, maraId, comment({ author: maraId, trade: sharedTrade })))).toMatch(/read-only transaction/);
    // Mara reads her grant's comments; Olly none of them.
    expect(await asMentor(aliceId, maraId, sql`select id from mentor_comments`)).toHaveLength(2);
    expect(await asMentor(aliceId, ollyId, sql`select id from mentor_comments`)).toEqual([]);
  });

  it("the figures' scope for a mentor holds the shared accounts' trades only, whatever the filter asks", async () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const picked = (filter: Parameters<typeof createReportFilter>[0], mentorId?: string) =>
      withReportScope(
        db(),
        aliceId,
        createReportFilter({ range: 'all-time', ...filter }),
        now,
        (scope) => Array.from(scope.set.rows, (row) => scope.columns.id[row]!).sort(),
        mentorId ? { mentorId } : undefined,
      );
    expect(await picked({})).toEqual([sharedTrade, hiddenTrade, looseTrade].sort());
    expect(await picked({}, maraId)).toEqual([sharedTrade]);
    expect(await picked({ account: [hidden.id] }, maraId)).toEqual([]);
    expect(await picked({ account: ['unassigned'] })).toEqual([looseTrade]);
    expect(await picked({ account: ['unassigned'] }, maraId)).toEqual([]);
    expect(await picked({ account: [shared.id, hidden.id] }, maraId)).toEqual([sharedTrade]);
    expect(await picked({}, ollyId)).toEqual([hiddenTrade]);
    // Another trader's mentor, or none: nothing.
    expect(
      await withReportScope(db(), bobId, createReportFilter({ range: 'all-time' }), now, (scope) => scope.set.rows.length, { mentorId: maraId }),
    ).toBe(0);
  });

  it('every owned table carries a restrictive mentor policy, and the mentor role may insert comments and change nothing else', async () => {
    const restrictive = await owner(
      sql`select tablename, roles::text as roles from pg_policies where schemaname = 'public' and permissive = 'RESTRICTIVE' and policyname = tablename || '_mentor'`,
    );
    expect(restrictive.map((r) => r.tablename).sort()).toEqual([...ownedTables].sort());
    // The mentor's role only: the trader's own transactions plan and run as before.
    expect(new Set(restrictive.map((r) => r.roles))).toEqual(new Set(['{edgebook_mentor}']));
    const writable = await owner(sql`
      select c.relname as name, has_table_privilege('edgebook_mentor', c.oid, 'INSERT') as ins,
             has_table_privilege('edgebook_mentor', c.oid, 'UPDATE, DELETE, TRUNCATE') as other
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
        and (has_table_privilege('edgebook_mentor', c.oid, 'INSERT') or has_table_privilege('edgebook_mentor', c.oid, 'UPDATE, DELETE, TRUNCATE'))`);
    expect(writable).toEqual([{ name: 'mentor_comments', ins: true, other: false }]);
  });

  it('after the grant is revoked, the same statements return nothing', async () => {
    expect((await alice.delete(`/api/mentor-grants/${maraGrant}`)).status).toBe(204);
    for (const table of ['trades', 'trade_fills', 'trading_accounts', 'notes', 'mentor_grants', 'mentor_comments']) {
      expect(await asMentor(aliceId, maraId, sql.raw(`select * from ${table}`)), table).toEqual([]);
    }
    expect(
      await dbError(() =>
        asMentor(
          aliceId,
          maraId,
          sql`insert into mentor_comments (user_id, grant_id, author_id, author_name, trade_date, body)
      values (${aliceId}, ${maraGrant}, ${maraId}, 'Mara', '2026-03-03', 'still here?')`,
          'comment',
        ),
      ),
    ).toMatch(/row-level security/);
    const scope = await withReportScope(db(), aliceId, createReportFilter({ range: 'all-time' }), new Date(), (s) => s.set.rows.length, {
      mentorId: maraId,
    });
    expect(scope).toBe(0);
    // Olly's grant is untouched.
    expect(ids(await asMentor(aliceId, ollyId, sql`select * from trades`))).toEqual([hiddenTrade]);
  });
});
