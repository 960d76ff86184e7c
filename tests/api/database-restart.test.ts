import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ApiClient, nextLoopbackAddress, uniqueEmail } from '../support/app';
import { findPostgresBin, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { freePort, spawnServer, type ServerProcess } from '../support/process';

/**
 * A PostgreSQL restart (an upgrade, a failover, the machine's own restart) may cost the requests in
 * flight, never the server process. While the database is away every request is a 503 with Retry-After and a message
 * the trader can read; once it is back the same process serves again. These tests restart a cluster of their own, so
 * that the other test files' shared cluster is never touched.
 */

const bin = findPostgresBin();
// Under CI a missing PostgreSQL fails the run (global-setup.ts); on a laptop without it the file is skipped.
const describeWithPostgres = describe.runIf(bin !== null);

const UNAVAILABLE = 'The database is not reachable right now. Please try again in a few seconds.';

interface Answer {
  label: string;
  status: number;
  retryAfter: string | null;
  body: unknown;
}

/** One request; a connection the server dropped (it died) is an answer of status 0. */
async function send(client: ApiClient, label: string, method: string, requestPath: string, body?: unknown): Promise<Answer> {
  let res: Response;
  try {
    res = await client.request(method, requestPath, body);
  } catch (error) {
    return { label, status: 0, retryAfter: null, body: String(error) };
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // kept as text: the assertion below shows it
  }
  return { label, status: res.status, retryAfter: res.headers.get('retry-after'), body: parsed };
}

/** A 503 the trader can act on: Retry-After, and the message in `error` (health keeps its own shape). */
function expectUnavailable(answer: Answer) {
  expect(answer.status, `${answer.label}: ${JSON.stringify(answer.body)}`).toBe(503);
  expect(Number(answer.retryAfter), `${answer.label}: Retry-After`).toBeGreaterThan(0);
  if (answer.label === 'health') expect(answer.body).toEqual({ ok: false, database: 'postgres', error: UNAVAILABLE });
  else expect(answer.body, answer.label).toMatchObject({ error: UNAVAILABLE, code: 'database-unavailable' });
}

/** A browser of its own address that opens a new connection for each request (node:cluster spreads those). */
const browser = (url: string) => new ApiClient(url, { connection: 'close' }, { localAddress: nextLoopbackAddress() });

async function createDatabase(cluster: PostgresCluster): Promise<string> {
  const name = `edgebook_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

async function start(ctx: TestContext, env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-restart-'));
  ctx.onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const proc = spawnServer({ PORT: String(await freePort()), DATA_DIR: dataDir, AUTH_SECRET: 'restart-secret-restart-secret-0123456789', ...env });
  ctx.onTestFinished(() => proc.killAll());
  return proc;
}

/** Polls until `check` passes, for at most `ms`. */
async function eventually<T>(ms: number, check: () => Promise<T>): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describeWithPostgres('the server while PostgreSQL restarts', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster(bin!);
  });
  afterAll(() => cluster?.stop());

  for (const workers of [1, 2]) {
    it(`survives a restart and an outage with WEB_CONCURRENCY=${workers}, answering 503 with Retry-After meanwhile`, async (ctx) => {
      const proc = await start(ctx, { DATABASE_URL: await createDatabase(cluster), WEB_CONCURRENCY: String(workers) });
      await proc.ready;
      // A new connection for each request, so node:cluster hands them to every worker.
      const trader = browser(proc.url);
      const email = uniqueEmail();
      expect((await trader.signUp(email)).status).toBe(200);
      const account = await trader.post('/api/accounts', { name: 'Futures' });
      expect(account.status).toBe(201);
      const trade = await trader.post('/api/trades', { date: '2025-03-03', symbol: 'MNQ', period: 'AM', pnl: '10.00', account_id: account.body.id });
      expect(trade.status).toBe(201);

      // Requests keep coming while the database restarts: each is served or refused with a 503, none is a 500,
      // and no process dies. Several at once, so that pooled connections are busy, idle and in transactions.
      const answers: Answer[] = [];
      let running = true;
      const mix = [
        () => send(trader, 'accounts', 'GET', '/api/accounts'),
        () => send(trader, 'health', 'GET', '/api/health'),
        () => send(trader, 'patch', 'PATCH', `/api/trades/${trade.body.id}`, { notes: `n${answers.length}` }),
        () => send(trader, 'trades', 'GET', '/api/trades?limit=5'),
        () => send(trader, 'session', 'GET', '/api/auth/get-session'),
      ];
      const loops = Array.from({ length: 4 }, async (_, loop) => {
        for (let i = loop; running; i++) answers.push(await mix[i % mix.length]!());
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await cluster.restart();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      running = false;
      await Promise.all(loops);
      for (const answer of answers.filter((a) => a.status !== 200)) expectUnavailable(answer);
      expect(answers.length).toBeGreaterThan(20);

      // The database stays away for a while: every kind of request says so, sign-in included.
      await cluster.halt();
      try {
        const stranger = browser(proc.url);
        const during = [
          await send(trader, 'accounts', 'GET', '/api/accounts'),
          await send(trader, 'create trade', 'POST', '/api/trades', { date: '2025-03-04', symbol: 'MES', period: 'AM', pnl: '5.00' }),
          await send(trader, 'patch', 'PATCH', `/api/trades/${trade.body.id}`, { notes: 'while away' }),
          await send(trader, 'health', 'GET', '/api/health'),
          await send(stranger, 'sign in', 'POST', '/api/auth/sign-in/email', { email, password: 'correct-horse-9' }),
          await send(trader, 'session', 'GET', '/api/auth/get-session'),
        ];
        for (const answer of during) expectUnavailable(answer);
      } finally {
        await cluster.start();
      }

      // Back without restarting the server: the pools reconnect by themselves.
      await eventually(15_000, async () => expect((await send(trader, 'health', 'GET', '/api/health')).status).toBe(200));
      for (let i = 0; i < 2 * workers; i++) {
        expect((await send(trader, 'accounts', 'GET', '/api/accounts')).status).toBe(200);
        const created = await send(trader, 'create trade', 'POST', '/api/trades', { date: '2025-03-05', symbol: 'MES', period: 'PM', pnl: '-2.50' });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
      }
      const again = browser(proc.url);
      expect((await again.signIn(email)).status).toBe(200);
      expect((await again.get(`/api/trades/${trade.body.id}`)).body.notes).toMatch(/^n\d+$/);

      expect(proc.child.exitCode).toBeNull();
      const messages = proc.logs().map((l) => l.msg);
      expect(messages).not.toContain('a worker process died; starting another');
      if (workers > 1) {
        const servedBy = new Set(
          proc
            .logs()
            .filter((l) => l.msg === 'request' && l.path === '/api/accounts')
            .map((l) => l.worker),
        );
        expect(servedBy).toEqual(new Set([1, 2]));
      }
      proc.signal('SIGTERM');
      expect(await proc.exited).toBe(0);
    });
  }

  it('waits for a database that is not up yet at start-up, and gives up with one clear line after DATABASE_START_TIMEOUT', async (ctx) => {
    const databaseUrl = await createDatabase(cluster);
    await cluster.halt();
    let proc: ServerProcess;
    try {
      proc = await start(ctx, { DATABASE_URL: databaseUrl });
      await eventually(30_000, async () => expect(proc.logs().map((l) => l.msg)).toContain('waiting for the database'));
      // Still waiting a while later, not exited.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(proc.child.exitCode).toBeNull();
    } finally {
      await cluster.start();
    }
    await proc.ready;
    const trader = browser(proc.url);
    expect((await trader.get('/api/health')).body).toEqual({ ok: true, database: 'postgres' });
    expect((await trader.signUp(uniqueEmail())).status).toBe(200);

    // Nothing listens on this port: after the timeout the server exits 1 and names the database's address.
    const nowhere = `postgres://postgres@127.0.0.1:${await freePort()}/edgebook`;
    const failed = await start(ctx, { DATABASE_URL: nowhere, DATABASE_START_TIMEOUT: '2' });
    expect(await failed.exited).toBe(1);
    expect(failed.stderr()).toContain(`Could not reach the database at 127.0.0.1:${new URL(nowhere).port} within 2 s`);
    expect(failed.stderr()).not.toMatch(/\n\s+at /);
  });
});
