import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { inject } from 'vitest';
import { ApiClient, createPostgresDatabase, uniqueEmail } from '../support/app';
import { freePort, spawnServer, type ServerProcess } from '../support/process';

/** Real `tsx src/server/main.ts` processes: the data-directory lock, signals and start-up errors as a self-hoster meets them. */

// The tests run concurrently, because creating a PGlite database from scratch takes seconds; each registers its
// cleanup on its own context (last in, first out).
function tempDataDir({ onTestFinished }: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-proc-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start({ onTestFinished }: TestContext, env: Record<string, string>): Promise<ServerProcess> {
  const proc = spawnServer({ PORT: String(await freePort()), ...env });
  onTestFinished(() => proc.killAll());
  return proc;
}

describe.concurrent('server process on the embedded database', () => {
  it('refuses a second server on the same data directory while the first keeps serving, and takes over after a crash', async (ctx) => {
    const dataDir = tempDataDir(ctx);
    const first = await start(ctx, { DATA_DIR: dataDir });
    await first.ready;

    const second = await start(ctx, { DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`The data directory ${dataDir} is in use by another Edgebook server (pid `);
    expect(second.stderr()).toContain('different DATA_DIR');

    const health = await new ApiClient(first.url).get('/api/health');
    expect(health).toEqual({ status: 200, body: { ok: true, database: 'pglite' } });
    const lockPid = Number(fs.readFileSync(path.join(dataDir, 'edgebook.lock'), 'utf8'));
    expect(second.stderr()).toContain(`(pid ${lockPid})`);

    // A crash leaves the lock file behind; its process is gone, so the next server takes over and recovers.
    await first.killAll();
    expect(fs.existsSync(path.join(dataDir, 'edgebook.lock'))).toBe(true);
    const third = await start(ctx, { DATA_DIR: dataDir });
    await third.ready;
    expect((await new ApiClient(third.url).get('/api/health')).body).toEqual({ ok: true, database: 'pglite' });
  });

  it('closes the database on SIGTERM, exits 0 and frees the directory for the next server, which keeps the data', async (ctx) => {
    const dataDir = tempDataDir(ctx);
    const first = await start(ctx, { DATA_DIR: dataDir });
    await first.ready;
    const email = uniqueEmail();
    const trader = new ApiClient(first.url);
    expect((await trader.signUp(email)).status).toBe(200);
    expect((await trader.post('/api/accounts', { name: 'Futures' })).status).toBe(201);

    // Outside NODE_ENV=test better-auth checks origins (tests in this process cannot see it): a page on another
    // site cannot sign in for the trader, nor have a reset token mailed inside a link to itself.
    const elsewhere = new ApiClient(first.url, { origin: 'https://evil.example' });
    expect((await elsewhere.signIn(email)).status).toBe(403);
    for (const redirectTo of ['https://evil.example/reset-password', '//evil.example/reset-password']) {
      expect((await trader.post('/api/auth/request-password-reset', { email, redirectTo })).status, redirectTo).toBe(403);
    }
    expect(first.logs().filter((l) => l.email)).toEqual([]);

    first.signal('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.logs().map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'database closed, bye']));
    expect(fs.existsSync(path.join(dataDir, 'edgebook.lock'))).toBe(false);

    const next = await start(ctx, { DATA_DIR: dataDir });
    await next.ready;
    const again = new ApiClient(next.url);
    expect((await again.signIn(email)).status).toBe(200);
    const accounts = await again.get('/api/accounts');
    expect(accounts.body.map((a: { name: string }) => a.name)).toEqual(['Futures']);
    next.signal('SIGINT');
    expect(await next.exited).toBe(0);
    expect(next.logs().map((l) => l.msg)).toContain('database closed, bye');
  });

  it('exits 1 naming every bad variable, without touching the data directory', async (ctx) => {
    const dataDir = path.join(tempDataDir(ctx), 'never-created');
    const proc = spawnServer({ DATA_DIR: dataDir, PORT: 'abc', DATABASE_URL: 'nope', SMTP_URL: 'http://x' });
    ctx.onTestFinished(() => proc.killAll());
    expect(await proc.exited).toBe(1);
    const stderr = proc.stderr();
    expect(stderr).toContain('Invalid environment');
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL']) expect(stderr).toMatch(new RegExp(`^\\s+- ${name}:`, 'm'));
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe.runIf(inject('pgAdminUrl'))('server process on PostgreSQL', () => {
  it('closes the pool on SIGTERM and exits 0', async (ctx) => {
    const proc = await start(ctx, { DATABASE_URL: await createPostgresDatabase(), DATA_DIR: tempDataDir(ctx) });
    await proc.ready;
    expect((await new ApiClient(proc.url).get('/api/health')).body).toEqual({ ok: true, database: 'postgres' });
    proc.signal('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.logs().map((l) => l.msg)).toContain('database closed, bye');
  });
});
