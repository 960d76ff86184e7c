import http from 'node:http';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { guestsServed } from '../../src/server/db/client';
import { backends, startTestApp } from '../support/app';
import { backupRows } from '../support/backup-file';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Shutdown is bounded. A request stuck inside a transaction made PGlite's close (and pg's
 * pool.end) wait forever, and the server with it; now the server stops accepting, ends connections after a short
 * grace and gives the database a time limit (the process then exits within 10 s, src/server/main.ts).
 */
describe.each(backends())('bounded shutdown on %s', (backend) => {
  it('closes at once when nothing is under way, idle keep-alive connections included', async () => {
    const app = await startTestApp({ backend });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http.get(`${app.url}/api/health`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject),
    );
    const started = performance.now();
    expect(await app.server.close()).toEqual({ databaseClosed: true });
    expect(performance.now() - started).toBeLessThan(1500);
    agent.destroy();
  });

  it('finishes within its bounds while a request is stuck behind a transaction that never ends', async () => {
    const app = await startTestApp({ backend });
    const trader = await newTrader(app);
    const userId = (await trader.get('/api/auth/get-session')).body.user.id as string;
    await trader.get('/api/preferences');

    // A transaction that holds the trader's preferences row and never finishes (on PGlite it holds the one connection).
    let entered!: () => void;
    const holding = new Promise<void>((resolve) => (entered = resolve));
    void app.server.database
      .withUser(userId, async (tx) => {
        await tx.execute(sql`select 1 from user_preferences where user_id = ${userId} for update`);
        entered();
        await new Promise(() => {});
      })
      .catch(() => undefined);
    await holding;
    // A request that needs that row waits behind it.
    const stuck = trader.patch('/api/preferences', { theme: 'light' }).then(
      (res) => `answered ${res.status}`,
      () => 'connection closed',
    );
    await new Promise((r) => setTimeout(r, 300));

    const started = performance.now();
    const result = await app.server.close();
    const seconds = (performance.now() - started) / 1000;
    expect(result).toEqual({ databaseClosed: false });
    // Grace 2 s + 0.5 s for connections, 3 s for the database: well under the process's 10 s.
    expect(seconds).toBeLessThan(7);
    expect(seconds).toBeGreaterThan(1.5);
    expect(await stuck).toBe('connection closed');
    expect(app.logs.some((l) => l.msg === 'the database did not close in time (a request was still in a transaction)')).toBe(true);
    await expect(fetch(`${app.url}/api/health`)).rejects.toThrow();
  });
});

describe('shutdown during a long import on PGlite', () => {
  it('stops the import at its next pause and closes the database, within the grace and a moment', { timeout: 300_000 }, async () => {
    const app = await startTestApp({ backend: 'pglite' });
    const importer = await newTrader(app, 'importer');
    const account = await createAccount(importer, 'Import');
    const other = await newTrader(app, 'other');
    await createTrade(other, { symbol: 'ES', pnl: 10 });
    const body = JSON.stringify({ account_id: account.id, trades: backupRows(40_000) });
    const importing = importer.send('POST', '/api/trades/import', body, { 'content-type': 'application/json' }).then(
      (res) => `answered ${res.status}`,
      () => 'connection closed',
    );
    // Once the import's transaction is inserting, it lends the connection to the other trader's reads.
    const guests = guestsServed(app.server.database)!;
    while (guestsServed(app.server.database)! <= guests) {
      expect((await other.get('/api/trades?limit=5')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const started = performance.now();
    const result = await app.server.close();
    const seconds = (performance.now() - started) / 1000;
    // Closed cleanly (the process then exits 0): the grace for requests (2 s), 0.5 s for connections, and the moment
    // the import takes to reach its next pause and roll back, well within the 3 s the database is given.
    expect(result).toEqual({ databaseClosed: true });
    expect(seconds).toBeLessThan(4.5);
    expect(await importing).toBe('connection closed');
    expect(app.logs.some((l) => l.msg === 'the database did not close in time (a request was still in a transaction)')).toBe(false);
  });
});
