import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedTables } from '../../src/server/db/schema';
import { ownedTablesInSchema } from '../../src/server/features/account-data/service';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { postSse } from '../support/sse';

/**
 * Account controls: change password, sessions, export everything as one JSON file, and delete the account
 * with everything it owns after retyping the email. The deletion check reads the database itself: every table, every
 * text column, for the trader's id and email.
 */

const PASSWORD = 'correct-horse-9';
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);

interface Trader {
  client: ApiClient;
  email: string;
  id: string;
}

async function newTrader(app: TestApp, prefix: string): Promise<Trader> {
  const client = app.client();
  const email = uniqueEmail(prefix);
  expect((await client.signUp(email, PASSWORD)).status).toBe(200);
  const { body } = await client.get('/api/auth/get-session');
  return { client, email, id: body.user.id };
}

/** Fills the trader's tables through the API, as a trader would: samples, an account, trades, tasks, preferences, picture. */
async function fillTables(t: Trader) {
  const { client } = t;
  expect((await client.post('/api/onboarding')).status).toBeLessThan(300);
  const account = await client.post('/api/accounts', { name: `Topstep ${t.email}`, is_default: true });
  expect(account.status).toBe(201);
  const trade = await client.post('/api/trades', {
    date: '2025-03-03',
    period: 'AM',
    symbol: 'NQ',
    pnl: '1234.56',
    commission: '4.20',
    notes: `secret plan of ${t.email}`,
    account_id: account.body.id,
  });
  expect(trade.status, JSON.stringify(trade.body)).toBe(201);
  expect((await client.post('/api/tasks', { title: 'Review the open', category: 'Daily', task_date: '2025-03-03' })).status).toBe(201);
  expect((await client.patch('/api/preferences', { quick_note: `Note: ${t.email}` })).status).toBe(200);
  expect((await client.post('/api/trade-preferences', { type: 'tag', value: 'A+ setup' })).status).toBe(201);
  const form = new FormData();
  form.set('file', new Blob([PNG], { type: 'image/png' }), 'me.png');
  const avatar = await fetch(`${client.baseUrl}/api/profile/avatar`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader, origin: client.baseUrl },
    body: form,
  });
  expect(avatar.status).toBe(201);
  // The trade's reflection, and a ReflectAI conversation (the question, the answer, its title and the AI usage).
  const reflection = await client.patch(`/api/reflections/${trade.body.id}`, { followed_rules: true, description: `Reflection of ${t.email}` });
  expect(reflection.status, JSON.stringify(reflection.body)).toBe(200);
  const session = await client.get<{ id: string }>('/api/chat/sessions/current');
  const chat = await postSse(client, '/api/chat', { sessionId: session.body.id, message: `How did ${t.email} do on NQ?` });
  expect(chat.status).toBe(200);
  return { accountId: account.body.id as string, tradeId: trade.body.id as string };
}

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

/** Every (table, column) in the database whose value mentions `needle`, read as the tables' owner. */
async function mentionsAnywhere(app: TestApp, needle: string): Promise<string[]> {
  const db = app.server.database.db;
  const columns = rowsOf(
    await db.execute(sql`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'uuid', 'jsonb', 'json', 'ARRAY')`),
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const hit = rowsOf(
      await db.execute(
        sql`select count(*)::int as n from ${sql.identifier(String(table_name))} where ${sql.identifier(String(column_name))}::text ilike ${`%${needle}%`}`,
      ),
    );
    if (Number(hit[0]!.n) > 0) found.push(`${String(table_name)}.${String(column_name)}`);
  }
  return found;
}

describe('the owned tables', () => {
  it('are found in the schema: every table with a user_id besides the auth tables, and all listed in ownedTables', () => {
    expect([...ownedTablesInSchema()].sort()).toEqual([...ownedTables].sort());
  });
});

describe.each(backends())('account controls on %s', (backend) => {
  let app: TestApp;
  let provider: AiServer;
  beforeAll(async () => {
    provider = await startAiServer();
    provider.defaultReply = { text: 'Your NQ mornings were your best trades.' };
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '200' }) });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  it('every table with a user_id column in the database is an owned table or one of the auth system', async () => {
    const rows = rowsOf(
      await app.server.database.db.execute(sql`
        select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'user_id' and t.table_type = 'BASE TABLE'`),
    );
    const auth = ['session', 'account', 'two_factor'];
    expect(rows.map((r) => String(r.table_name)).sort()).toEqual([...ownedTables, ...auth].sort());
  });

  describe('change password and sessions', () => {
    it('changes the password with the current one, and signs out every other session', async () => {
      const t = await newTrader(app, 'pw');
      const laptop = app.client();
      expect((await laptop.signIn(t.email, PASSWORD)).status).toBe(200);

      const wrong = await t.client.post('/api/auth/change-password', {
        currentPassword: 'not-my-password',
        newPassword: 'new-horse-42',
        revokeOtherSessions: true,
      });
      expect(wrong.status).toBe(400);
      const short = await t.client.post('/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'short', revokeOtherSessions: true });
      expect(short.status).toBe(400);

      const changed = await t.client.post('/api/auth/change-password', {
        currentPassword: PASSWORD,
        newPassword: 'new-horse-42',
        revokeOtherSessions: true,
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect((await t.client.get('/api/auth/get-session')).body.user.email).toBe(t.email);
      expect((await laptop.get('/api/auth/get-session')).body).toBeNull();
      expect((await app.client().signIn(t.email, PASSWORD)).status).toBe(401);
      expect((await app.client().signIn(t.email, 'new-horse-42')).status).toBe(200);
    });

    it('lists the sessions with address and browser, and revokes one', async () => {
      const t = await newTrader(app, 'sessions');
      const phone = app.client();
      await phone.request('POST', '/api/auth/sign-in/email', { email: t.email, password: PASSWORD }, { 'user-agent': 'PhoneBrowser/1.0' });
      const { body: sessions } = await t.client.get<Array<{ token: string; ipAddress: string; userAgent: string }>>('/api/auth/list-sessions');
      expect(sessions).toHaveLength(2);
      const phoneSession = sessions.find((s) => s.userAgent === 'PhoneBrowser/1.0')!;
      expect(phoneSession.ipAddress).toBe(phone.address);

      // Another trader cannot revoke it.
      const other = await newTrader(app, 'other');
      await other.client.post('/api/auth/revoke-session', { token: phoneSession.token });
      expect((await phone.get('/api/auth/get-session')).body?.user.email).toBe(t.email);

      expect((await t.client.post('/api/auth/revoke-session', { token: phoneSession.token })).status).toBe(200);
      expect((await phone.get('/api/auth/get-session')).body).toBeNull();
      expect((await t.client.get('/api/auth/get-session')).body.user.email).toBe(t.email);
    });
  });

  describe('export and delete', () => {
    let alice: Trader;
    let bob: Trader;
    let bobIds: { accountId: string; tradeId: string };
    beforeAll(async () => {
      alice = await newTrader(app, 'alice');
      bob = await newTrader(app, 'bob');
      await fillTables(alice);
      bobIds = await fillTables(bob);
    });

    it('exports everything the trader owns as one JSON file, without secrets and without anyone else', async () => {
      const res = await alice.client.request('GET', '/api/account/export');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="edgebook-export-\d{4}-\d{2}-\d{2}\.json"$/);
      const text = await res.text();
      const data = JSON.parse(text);
      expect(data).toMatchObject({
        format: 'edgebook-export',
        version: 1,
        user: { id: alice.id, email: alice.email, two_factor_enabled: false },
        sign_in_methods: [{ provider: 'credential' }],
      });
      expect(Object.keys(data.tables).sort()).toEqual([...ownedTables].sort());
      for (const [table, rows] of Object.entries<Array<{ user_id: string }>>(data.tables)) {
        for (const row of rows) expect(row.user_id, table).toBe(alice.id);
      }
      // Samples (7) and the trade above, money exact to the cent.
      expect(data.tables.trades).toHaveLength(8);
      expect(data.tables.trades).toContainEqual(expect.objectContaining({ symbol: 'NQ', pnl: '1234.56', commission: '4.20' }));
      expect(data.tables.trading_accounts.map((a: { name: string }) => a.name)).toContain(`Topstep ${alice.email}`);
      expect(data.tables.tasks.length).toBeGreaterThanOrEqual(6);
      expect(data.tables.user_preferences[0].quick_note).toBe(`Note: ${alice.email}`);
      expect(data.tables.user_trade_preferences).toContainEqual(expect.objectContaining({ preference_value: 'A+ setup' }));
      expect(data.tables.trade_reflections).toContainEqual(
        expect.objectContaining({ followed_rules: true, description: `Reflection of ${alice.email}` }),
      );
      expect(data.tables.chat_sessions.length).toBeGreaterThanOrEqual(1);
      expect(data.tables.chat_messages).toContainEqual(expect.objectContaining({ text: `How did ${alice.email} do on NQ?` }));
      expect(data.tables.chat_messages).toContainEqual(expect.objectContaining({ text: 'Your NQ mornings were your best trades.' }));
      expect(data.tables.ai_usage.length).toBeGreaterThanOrEqual(1);
      expect(data.files).toHaveLength(1);
      expect(data.files[0].key).toMatch(new RegExp(`^avatars/${alice.id}/avatar-\\d+\\.png$`));
      expect(Buffer.from(data.files[0].base64, 'base64')).toEqual(Buffer.from(PNG));

      expect(text).not.toContain(bob.id);
      expect(text).not.toContain(bob.email);
      // No password hash, session token or secret.
      expect(text).not.toMatch(/scrypt|"password"|"token"|"secret"/);
    });

    it('refuses to delete unless the email is typed again, and needs a session', async () => {
      const wrong = await alice.client.delete('/api/account');
      expect(wrong.status).toBe(400);
      const mismatch = await alice.client.json('DELETE', '/api/account', { email: bob.email });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.error).toBe('email: Type the email address of this account to confirm');
      expect((await app.client().json('DELETE', '/api/account', { email: alice.email })).status).toBe(401);
      expect((await alice.client.get('/api/auth/get-session')).body.user.id).toBe(alice.id);
    });

    it('deletes the account and everything it owns: nothing of the trader is left in any table, the other trader is untouched', async () => {
      const bobBefore = await bob.client.get('/api/account/export');
      const res = await alice.client.json('DELETE', '/api/account', { email: `  ${alice.email.toUpperCase()} ` });
      expect(res).toEqual({ status: 200, body: { deleted: true } });

      expect(await mentionsAnywhere(app, alice.id)).toEqual([]);
      expect(await mentionsAnywhere(app, alice.email)).toEqual([]);

      expect((await alice.client.get('/api/auth/get-session')).body).toBeNull();
      expect((await app.client().signIn(alice.email, PASSWORD)).status).toBe(401);
      // The email is free again.
      expect((await app.client().signUp(alice.email, PASSWORD)).status).toBe(200);

      const bobAfter = await bob.client.get('/api/account/export');
      expect({ ...bobAfter.body, exported_at: null, sessions: null }).toEqual({ ...bobBefore.body, exported_at: null, sessions: null });
      expect((await bob.client.get(`/api/trades/${bobIds.tradeId}`)).status).toBe(200);
    });
  });
});
