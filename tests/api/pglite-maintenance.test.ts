import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedPglite } from '../../src/server/db/pglite-connection';

/**
 * The embedded database's one connection is shared through a queue, and a long transaction lends it to other
 * traders' waiting statements between its own (pglite-connection.ts). A VACUUM (the refresh after a large import,
 * client.ts) cannot run inside a transaction block: it must wait for the lender's COMMIT, never run as its guest.
 */
describe('PGlite maintenance statements', () => {
  let client: PGlite;
  let shared: SharedPglite;

  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec('create table kept (x int); insert into kept select generate_series(1, 100); update kept set x = x + 1');
    shared = new SharedPglite(client);
  });
  afterAll(() => client?.close());

  it("waits for a lending transaction's end instead of running inside it, and then succeeds", async () => {
    const events: string[] = [];
    let vacuum: Promise<unknown> | undefined;
    let guest: Promise<unknown> | undefined;
    await shared.forUser('00000000-0000-4000-8000-000000000001', () =>
      shared.transaction(async (tx) => {
        await tx.query('select 1');
        vacuum = shared.maintain('vacuum kept').then(() => events.push('vacuum done'));
        // An ordinary statement of another trader queued beside it is lent the connection, as before.
        guest = shared
          .forUser('00000000-0000-4000-8000-000000000002', () => shared.transaction((t) => t.query('select count(*) from kept')))
          .then(() => events.push('guest done'));
        await shared.lend(shared.transactionHere());
        events.push('lender still open');
        await tx.query('select 2');
      }),
    );
    events.push('lender committed');
    await Promise.all([vacuum, guest]);
    expect(events).toEqual(['guest done', 'lender still open', 'lender committed', 'vacuum done']);
    // It ran: the table's dead rows are gone.
    const stats = await client.query<{ vacuums: number }>(`select vacuum_count::int as vacuums from pg_stat_user_tables where relname = 'kept'`);
    expect(stats.rows[0]?.vacuums).toBe(1);
  });

  it("never runs the server's own statements (sessions, the sync schedule) inside a trader's transaction: they wait for its end", async () => {
    const events: string[] = [];
    let owner: Promise<unknown> | undefined;
    let guest: Promise<unknown> | undefined;
    const before = shared.ownerGuests;
    await shared.forUser('00000000-0000-4000-8000-000000000001', () =>
      shared.transaction(async (tx) => {
        // The lender writes a row it has not committed yet; the owner's statement reads past row-level security.
        await tx.exec('create table if not exists secrets (x int); insert into secrets values (42)');
        owner = shared.query<{ n: number }>('select count(*)::int as n from secrets').then((r) => {
          events.push(`owner read ${r.rows[0]!.n}`);
        });
        guest = shared
          .forUser('00000000-0000-4000-8000-000000000002', () => shared.transaction((t) => t.query('select 1')))
          .then(() => events.push('other trader done'));
        expect(shared.held()).toBe(true);
        await shared.lend(shared.transactionHere());
        events.push('lender still open');
        await tx.exec('delete from secrets');
      }),
    );
    events.push('lender committed');
    await Promise.all([owner, guest]);
    // Another trader's statement ran inside the transaction; the owner's only after it, seeing nothing uncommitted.
    expect(events).toEqual(['other trader done', 'lender still open', 'lender committed', 'owner read 0']);
    expect(shared.ownerGuests - before).toBe(0);
    expect(shared.held()).toBe(false);
  });
});
