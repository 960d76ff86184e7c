import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedTables, tradingAccounts, trades, user, session } from '../../src/server/db/schema';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/**
 * Tenant isolation twice over: the API always filters by the signed-in user, and row-level
 * security holds even when a query forgets that filter.
 */
interface Trader {
  id: string;
  client: ApiClient;
  accounts: Array<{ id: string; name: string; is_default: boolean; updated_at: string }>;
}

type Row = Record<string, unknown>;

describe.each(backends())('tenant isolation on %s', (backend) => {
  let app: TestApp;
  let a: Trader;
  let b: Trader;

  async function trader(names: string[]): Promise<Trader> {
    const client = app.client();
    const res = await client.signUp(uniqueEmail());
    expect(res.status).toBe(200);
    const accounts = [];
    for (const name of names) {
      const created = await client.post('/api/accounts', { name, description: `${name} notes` });
      expect(created.status).toBe(201);
      accounts.push(created.body);
    }
    return { id: res.body.user.id, client, accounts };
  }

  const db = () => app.server.database;
  const rows = async (query: ReturnType<typeof sql>): Promise<Row[]> => ((await db().db.execute(query)) as unknown as { rows: Row[] }).rows;
  /** The database's own message: drizzle wraps it in "Failed query: ..." with the driver error as the cause. */
  async function dbError(run: () => Promise<unknown>): Promise<string> {
    try {
      await run();
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause;
      return cause?.message ?? (error as Error).message;
    }
    throw new Error('the query succeeded');
  }
  /** A trader's accounts as they see them through the API. */
  const listOf = async (t: Trader) => (await t.client.get('/api/accounts')).body as Trader['accounts'];

  beforeAll(async () => {
    app = await startTestApp({ backend });
    a = await trader(['A Futures', 'A Crypto']);
    b = await trader(['B Stocks']);
    // A trade of A's, written the way the trades service writes it.
    await db().withUser(a.id, (tx) =>
      tx.insert(trades).values({ userId: a.id, accountId: a.accounts[0]!.id, tradeDate: '2025-03-03T12:00:00Z', dayOfWeek: 'Monday', pnl: '125.50' }),
    );
  });
  afterAll(() => app?.close());

  describe('through the API', () => {
    it("lists only the trader's own accounts", async () => {
      expect((await listOf(a)).map((x) => x.name).sort()).toEqual(['A Crypto', 'A Futures']);
      expect((await listOf(b)).map((x) => x.name)).toEqual(['B Stocks']);
    });

    it("cannot change, make default or delete another trader's account, and the row stays as it was", async () => {
      const before = await listOf(a);
      for (const target of a.accounts) {
        const patch = await b.client.patch(`/api/accounts/${target.id}`, { name: 'pwned', is_default: true });
        expect(patch.status).toBe(404);
        expect(patch.body).toEqual({ error: 'Trading account not found' });
        expect((await b.client.post(`/api/accounts/${target.id}/default`)).status).toBe(404);
        expect((await b.client.delete(`/api/accounts/${target.id}`)).status).toBe(404);
        expect((await b.client.get(`/api/accounts/${target.id}`)).status).toBe(404);
      }
      expect(await listOf(a)).toEqual(before);
      // B's own default is untouched by the refused set-default.
      expect((await listOf(b)).map((x) => [x.name, x.is_default])).toEqual([['B Stocks', true]]);
    });

    it("keeps each trader's preferences apart", async () => {
      expect((await a.client.patch('/api/preferences', { theme: 'light', time_zone: 'Europe/Berlin' })).status).toBe(200);
      expect((await b.client.get('/api/preferences')).body).toMatchObject({ theme: 'dark', time_zone: 'America/New_York' });
      expect((await a.client.get('/api/preferences')).body).toMatchObject({ theme: 'light', time_zone: 'Europe/Berlin' });
    });
  });

  describe('row-level security, when a query forgets its filter', () => {
    it("a select without a where clause returns only the trader's own rows", async () => {
      const everyone = await db().db.select().from(tradingAccounts);
      expect(everyone.length).toBeGreaterThanOrEqual(3);

      const seenByB = await db().withUser(b.id, (tx) => tx.select().from(tradingAccounts));
      expect(seenByB.map((r) => r.name)).toEqual(['B Stocks']);
      expect(await db().withUser(b.id, (tx) => tx.select().from(trades))).toEqual([]);
      const tradesOfA = await db().withUser(a.id, (tx) => tx.select().from(trades));
      expect(tradesOfA.map((t) => t.pnl)).toEqual(['125.50']);
    });

    it('an update or delete without a filter leaves the other trader untouched', async () => {
      const victim = await trader(['Victim One']);
      const attacker = await trader(['Attacker One']);
      await db().withUser(attacker.id, (tx) => tx.update(tradingAccounts).set({ name: 'overwritten', isDefault: false }));
      await db().withUser(attacker.id, (tx) => tx.update(trades).set({ pnl: '0' }));
      expect((await listOf(victim)).map((x) => [x.name, x.is_default])).toEqual([['Victim One', true]]);
      expect((await listOf(attacker)).map((x) => x.name)).toEqual(['overwritten']);
      expect((await db().withUser(a.id, (tx) => tx.select().from(trades))).map((t) => t.pnl)).toEqual(['125.50']);

      await db().withUser(attacker.id, (tx) => tx.delete(tradingAccounts));
      await db().withUser(attacker.id, (tx) => tx.delete(trades));
      expect((await listOf(victim)).map((x) => x.name)).toEqual(['Victim One']);
      expect(await listOf(attacker)).toEqual([]);
      expect((await db().withUser(a.id, (tx) => tx.select().from(trades))).map((t) => t.pnl)).toEqual(['125.50']);
    });

    it("refuses to write a row with another trader's user_id, or to hand a row over", async () => {
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.insert(tradingAccounts).values({ userId: a.id, name: 'planted' })))).toMatch(
        /row-level security/,
      );
      expect(
        await dbError(() =>
          db().withUser(b.id, (tx) => tx.update(tradingAccounts).set({ userId: a.id }).where(eq(tradingAccounts.id, b.accounts[0]!.id))),
        ),
      ).toMatch(/row-level security/);
      // Nor can B file a trade under A's account: the (account_id, user_id) foreign key stops it.
      expect(
        await dbError(() =>
          db().withUser(b.id, (tx) =>
            tx.insert(trades).values({ userId: b.id, accountId: a.accounts[0]!.id, tradeDate: '2025-03-03T12:00:00Z', dayOfWeek: 'Monday' }),
          ),
        ),
      ).toMatch(/foreign key|row-level security/);
      expect((await listOf(a)).map((x) => x.name).sort()).toEqual(['A Crypto', 'A Futures']);
      expect((await listOf(b)).map((x) => x.name)).toEqual(['B Stocks']);
    });

    it('sees nothing, not everything, when the user id is missing', async () => {
      const seen = await db().db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('role', 'edgebook_app', true)`);
        return tx.select().from(tradingAccounts);
      });
      expect(seen).toEqual([]);
      expect(() => db().withUser('', (tx) => tx.select().from(tradingAccounts))).toThrow(/needs a user id/);
    });

    // The request connections are pipelined on PostgreSQL: each transaction's BEGIN and setting
    // travel with its first query, on connections that the next request reuses at once.
    it('keeps each trader apart when many transactions share the pooled connections at once', async () => {
      const seen = await Promise.all(
        Array.from({ length: 60 }, (_, i) => {
          const t = i % 2 === 0 ? a : b;
          return db().withUser(t.id, async (tx) => ({
            who: t,
            names: (await tx.select().from(tradingAccounts)).map((row) => row.name).sort(),
            setting: ((await tx.execute(sql`select current_setting('app.user_id', true) as id`)) as unknown as { rows: Row[] }).rows[0]!.id,
          }));
        }),
      );
      for (const { who, names, setting } of seen) {
        expect(setting).toBe(who.id);
        expect(names).toEqual(who === a ? ['A Crypto', 'A Futures'] : ['B Stocks']);
      }
    });

    it('writes all or nothing: a failure rolls back what the transaction wrote, and the connection serves the next one', async () => {
      const failed = await dbError(() =>
        db().withUser(b.id, async (tx) => {
          await tx.insert(tradingAccounts).values({ userId: b.id, name: 'half-written' });
          await tx.execute(sql`select 1 / 0`);
        }),
      );
      expect(failed).toMatch(/division by zero/);
      await expect(db().withUser(b.id, async () => Promise.reject(new Error('before any query')))).rejects.toThrow('before any query');
      const names = await db().withUser(b.id, (tx) => tx.select().from(tradingAccounts));
      expect(names.map((row) => row.name)).toEqual(['B Stocks']);
    });

    it("cannot read the auth tables at all: password hashes and session tokens stay out of the app role's reach", async () => {
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.select().from(user)))).toMatch(/permission denied/);
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.select().from(session)))).toMatch(/permission denied/);
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.execute(sql`select password from account`)))).toMatch(/permission denied/);
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.execute(sql`select value from verification`)))).toMatch(/permission denied/);
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.execute(sql`select secret, backup_codes from two_factor`)))).toMatch(
        /permission denied/,
      );
    });
  });

  describe('search, which runs as the owner so that its index applies', () => {
    const search = (userId: string | null, pattern: string) =>
      db().db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('role', 'edgebook_app', true)`);
        if (userId) await tx.execute(sql`select set_config('app.user_id', ${userId}, true)`);
        return ((await tx.execute(sql`select user_id, notes from search_trades(${pattern})`)) as unknown as { rows: Row[] }).rows;
      });

    beforeAll(async () => {
      expect((await a.client.post('/api/trades', { date: '2025-03-04', period: 'AM', pnl: '5', notes: 'alpha secret setup' })).status).toBe(201);
    });

    it("finds the trader's own trades by text and by account name, and none of another trader's", async () => {
      expect((await a.client.get('/api/trades?q=secret')).body.total).toBe(1);
      expect((await b.client.get('/api/trades?q=secret')).body).toMatchObject({ total: 0, trades: [] });
      expect((await a.client.get('/api/trades?q=A%20Futures')).body.total).toBeGreaterThanOrEqual(1);
      expect((await b.client.get('/api/trades?q=A%20Futures')).body.total).toBe(0);
      expect((await b.client.get('/api/trades?q=se')).body.total).toBe(0);
      expect((await b.client.get('/api/trades/stats?q=secret')).body.summary.trades).toBe(0);
    });

    it("the search function returns only the rows of the transaction's user, and nothing without one", async () => {
      expect((await search(a.id, '%secret%')).map((r) => r.user_id)).toEqual([a.id]);
      expect(await search(b.id, '%secret%')).toEqual([]);
      expect(await search(b.id, '%')).toEqual([]);
      expect(await search(null, '%')).toEqual([]);
      expect((await search(a.id, '%')).every((r) => r.user_id === a.id)).toBe(true);
    });

    it('is the only function that runs as the owner, and only the app role may call it', async () => {
      const definers = await rows(sql`
        select p.proname as name, has_function_privilege('edgebook_app', p.oid, 'EXECUTE') as app,
               exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) x where x.grantee = 0) as public
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prosecdef order by 1`);
      expect(definers).toEqual([{ name: 'search_trades', app: true, public: false }]);
    });
  });

  describe('the schema', () => {
    it('protects every table with a user_id column by row-level security the app role cannot bypass', async () => {
      const tables = await rows(sql`
        select c.relname as name, c.relrowsecurity as rls, pg_get_userbyid(c.relowner) as owner,
               (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies,
               has_table_privilege('edgebook_app', c.oid, 'SELECT, INSERT, UPDATE, DELETE') as app_access
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped)
        order by 1`);
      const authTables = ['account', 'session', 'two_factor'];
      expect(tables.map((t) => t.name)).toEqual([...ownedTables, ...authTables].sort());
      for (const table of tables) {
        if (authTables.includes(table.name as string)) {
          // better-auth's own tables: reached only through the owner connection, never by the app role.
          expect(table, String(table.name)).toMatchObject({ app_access: false });
          continue;
        }
        expect(table, String(table.name)).toMatchObject({ rls: true, app_access: true });
        expect(table.policies as number, String(table.name)).toBeGreaterThanOrEqual(1);
        expect(table.owner, String(table.name)).not.toBe('edgebook_app');
      }
    });

    it("every policy on an owned table compares user_id with the transaction's app.user_id, for reads and writes", async () => {
      const policies = await rows(sql`
        select tablename, policyname, cmd, qual, with_check from pg_policies where schemaname = 'public' and tablename not in ('provider_bars', 'economic_events') order by 1`);
      expect(new Set(policies.map((p) => p.tablename))).toEqual(new Set(ownedTables));
      for (const policy of policies) {
        expect(policy.cmd, String(policy.policyname)).toBe('ALL');
        expect(String(policy.qual), String(policy.policyname)).toMatch(/user_id = current_setting\('app\.user_id'/);
        expect(String(policy.with_check), String(policy.policyname)).toMatch(/user_id = current_setting\('app\.user_id'/);
      }
    });

    it("keeps a trader's uploaded bars their own, and a provider's bars for the traders connected to that source", async () => {
      const bar = (start: string, owner: string) =>
        sql`insert into price_bars (user_id, contract, resolution, start, open, high, low, close) values (${owner}, 'ZZTEST', 60, ${start}, 1, 1, 1, 1)`;
      await db().withUser(a.id, (tx) => tx.execute(bar('2025-03-03T15:00:00Z', a.id)));
      // B may not add a bar in A's name; B's update and delete do not reach A's bar; B reads none of A's.
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.execute(bar('2025-03-03T15:01:00Z', a.id))))).toMatch(/row-level security/);
      await db().withUser(b.id, (tx) => tx.execute(sql`update price_bars set close = 2 where contract = 'ZZTEST'`));
      await db().withUser(b.id, (tx) => tx.execute(sql`delete from price_bars where contract = 'ZZTEST'`));
      const readAs = async (userId: string) =>
        (
          (await db().withUser(userId, (tx) => tx.execute(sql`select user_id, close from price_bars where contract = 'ZZTEST'`))) as unknown as {
            rows: Row[];
          }
        ).rows;
      expect(await readAs(b.id)).toEqual([]);
      expect((await readAs(a.id)).map((r) => [r.user_id, Number(r.close)])).toEqual([[a.id, 1]]);
      await db().withUser(a.id, (tx) => tx.execute(sql`delete from price_bars where contract = 'ZZTEST'`));
      expect(await readAs(a.id)).toEqual([]);

      // Provider bars: readable and addable only for a source one of the trader's connections names.
      const policies = await rows(
        sql`select policyname, cmd from pg_policies where schemaname = 'public' and tablename = 'provider_bars' order by 1`,
      );
      expect(policies).toEqual([
        { policyname: 'provider_bars_add', cmd: 'INSERT' },
        { policyname: 'provider_bars_connected', cmd: 'SELECT' },
      ]);
      const providerBar = sql`insert into provider_bars (source, contract, resolution, start, open, high, low, close) values ('zz:nowhere', 'ZZTEST', 60, '2025-03-03T15:00:00Z', 1, 1, 1, 1)`;
      expect(await dbError(() => db().withUser(b.id, (tx) => tx.execute(providerBar)))).toMatch(/row-level security/);
    });

    it('gives the app role no way around the policies', async () => {
      const [role] = await rows(sql`select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = 'edgebook_app'`);
      expect(role).toEqual({ rolsuper: false, rolbypassrls: false, rolcanlogin: false });
      const [schema] = await rows(sql`select has_schema_privilege('edgebook_app', 'public', 'CREATE') as can_create`);
      expect(schema!.can_create).toBe(false);
      const owned = await rows(sql`
        select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and pg_get_userbyid(c.relowner) = 'edgebook_app'`);
      expect(owned).toEqual([]);
      for (const table of ['user', 'session', 'account', 'verification', 'rate_limit']) {
        const [privileges] = await rows(sql`
          select has_table_privilege('edgebook_app', ${'public.' + JSON.stringify(table)}, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') as any`);
        expect(privileges!.any, table).toBe(false);
      }
    });
  });
});
