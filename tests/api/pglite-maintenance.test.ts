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
        guest = shared.forUser('00000000-0000-4000-8000-000000000002', () => shared.transaction((t) => t.query('select count(*) from kept'))).then(() => events.push('guest done'));
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
});
