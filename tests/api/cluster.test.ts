import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ApiClient, createPostgresDatabase, uniqueEmail } from '../support/app';
import { freePort, spawnServer } from '../support/process';

/**
 * The server uses every core on PostgreSQL (WEB_CONCURRENCY worker processes on one port). Any
 * worker must serve any request: sessions, rate limits and sign-in counts live in the database, not in a process.
 */
describe.runIf(inject('pgAdminUrl'))('several server processes on one PostgreSQL', () => {
  it('share sessions and rate limits, and stop together on SIGTERM', async ({ onTestFinished }) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-cluster-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const proc = spawnServer({
      PORT: String(await freePort()),
      DATABASE_URL: await createPostgresDatabase(),
      // No AUTH_SECRET: the primary generates it once, before the workers read it.
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '2',
      AUTH_RATE_LIMIT: '4',
      AUTH_ACCOUNT_ATTEMPTS: '1000',
      SESSION_CACHE_SECONDS: '60',
    });
    onTestFinished(() => proc.killAll());
    await proc.ready;

    // A new connection for every request, so node:cluster spreads them over the workers.
    const browser = (address: string) => new ApiClient(proc.url, { connection: 'close' }, { localAddress: address });
    const trader = browser('127.0.9.1');
    const email = uniqueEmail();
    expect((await trader.signUp(email)).status).toBe(200);
    for (let i = 0; i < 16; i++) expect((await trader.get('/api/accounts')).status, `request ${i}`).toBe(200);
    const servedBy = (requestPath: string) =>
      new Set(
        proc
          .logs()
          .filter((l) => l.msg === 'request' && l.path === requestPath)
          .map((l) => l.worker),
      );
    expect(servedBy('/api/accounts')).toEqual(new Set([1, 2]));

    // One client's sign-in attempts, spread over both workers, are counted once.
    const attacker = browser('127.0.9.2');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attacker.signIn(email, 'wrong-password-x')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    expect(servedBy('/api/auth/sign-in/email').size).toBe(2);

    // Each worker keeps the sessions it looked up for a while (SESSION_CACHE_SECONDS); a revocation served by one
    // worker ends the session on the other at once, not when its cached copy runs out.
    const laptop = browser('127.0.9.3');
    expect((await laptop.signIn(email)).status).toBe(200);
    const phone = browser('127.0.9.4');
    expect((await phone.signIn(email)).status).toBe(200);
    const { body: sessions } = await laptop.get<Array<{ token: string }>>('/api/auth/list-sessions');
    const phoneToken = sessions.find((s) => phone.cookieHeader.includes(s.token))!.token;
    // Nothing under /api/auth between these requests and the revocation: any of them clears its worker's cache.
    for (let i = 0; i < 4; i++) expect((await phone.get('/api/accounts')).status, `cached ${i}`).toBe(200);
    expect((await laptop.post('/api/auth/revoke-session', { token: phoneToken })).status).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < 4; i++) after.push((await phone.get('/api/accounts')).status);
    expect(after).toEqual([401, 401, 401, 401]);

    proc.signal('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(
      proc
        .logs()
        .filter((l) => l.msg === 'database closed, bye')
        .map((l) => l.worker)
        .sort(),
    ).toEqual([1, 2]);
    expect(proc.logs().map((l) => l.msg)).toContain('every worker closed its database, bye');
  });
});
