import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BREAKDOWNS } from '../../src/domain/reports';
import { collectBuffers } from '../../src/server/core/engine/columns/merge-columns';
import { tradesCacheOf } from '../../src/server/core/engine/trades-cache';
import { ApiClient, backends, createPostgresDatabase, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { freePort, spawnServer } from '../support/process';
import { importFile, ownFile } from './imports-support';
import { addDays, createAccount, createTrade, importTrades, listAll, money, newTrader, prng } from './trades-support';

/**
 * After a write the reports' copy of a trader's trades reads only the trades that changed (the triggers log
 * them, migration 0030) and merges them in. Whatever the trader writes, every report after it equals the same report
 * from a cold copy (every trade read again), and the write was merged, not read whole; on both databases and across
 * server processes.
 */

/** Every report, with filters that touch the hours (kept per zone in the copy), tags and accounts. */
async function readReports(t: ApiClient) {
  const paths = [
    '/api/reports/overview',
    '/api/reports/overview?hour=9&hour=10&side=Long',
    '/api/reports/overview?tag=A%2B&tagMode=none&range=custom&from=2025-01-01&to=2025-03-31',
    '/api/reports/equity',
    '/api/reports/heatmap',
    '/api/reports/calendar?year=2025',
    '/api/reports/distribution?of=pnl',
    '/api/reports/distribution?of=hold',
    '/api/reports/mistakes',
    '/api/reports/options',
    ...BREAKDOWNS.map((by) => `/api/reports/breakdown?by=${by}`),
  ];
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const res = await t.get(p);
    expect(res.status, `${p}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200);
    out[p] = res.body;
  }
  return out;
}

/** Backup rows with times, sides, sizes, tags and plans: every column the reports read. */
function backupRows(count: number, seed: number, prefix: string, firstDay = '2025-01-06') {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const date = addDays(firstDay, i % 60);
    const minute = Math.floor(random() * 400);
    const entry = new Date(Date.parse(`${date}T14:00:00Z`) + minute * 60_000);
    const exit = new Date(entry.getTime() + Math.floor(random() * 7200 + 5) * 1000);
    const symbol = ['NQ', 'ES', 'MNQ'][i % 3]!;
    return {
      id: `${prefix}-${i}`,
      date,
      period: ['AM', 'PM', 'Lunch'][i % 3],
      symbol,
      side: i % 2 === 0 ? 'Long' : 'Short',
      trade_type: ['Breakout', 'Pullback'][i % 2],
      tags: i % 4 === 0 ? ['A+'] : i % 4 === 1 ? ['FOMO'] : [],
      entry_time: entry.toISOString(),
      exit_time: exit.toISOString(),
      quantity: 1 + (i % 3),
      entry_price: '5000.25',
      ...(i % 5 === 0 && { risk_amount: '150.00' }),
      pnl: money(Math.floor(random() * 200_001) - 100_000),
      commission: '2.48',
    };
  });
}

describe.each(backends())('the reports’ copy of the trades on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  const userIdOf = async (email: string) => {
    const result = await app.server.database.db.execute(sql`select id from "user" where email = ${email}`);
    return String((result as unknown as { rows: Array<{ id: string }> }).rows[0]!.id);
  };

  it('after every kind of write (add, edit, bulk edit, delete, bulk delete, import, restore, account delete) merges the changes and equals a cold copy', async () => {
    const email = uniqueEmail('reports-cache');
    const t = app.client();
    expect((await t.signUp(email)).status).toBe(200);
    const userId = await userIdOf(email);
    const cache = tradesCacheOf(app.server.database);
    const [a, b] = [await createAccount(t, 'Cache A'), await createAccount(t, 'Cache B')];
    expect((await t.put('/api/risk-defaults', { root: 'NQ', stop_points: '20' })).status).toBe(200);

    /**
     * The reports now (from the copy as it is kept), how the copy was brought up to date since the last step (by the
     * write itself, which waits for the copy to catch up with it, or else by the first report), and the cold copy's.
     */
    let mark = { ...cache.counts };
    const expectFresh = async (
      step: string,
      how: 'merged' | 'patched' | 'appended' | 'read' | 'kept',
      { drop = true, byWrite = how !== 'read' && how !== 'kept' } = {},
    ) => {
      const warm = await readReports(t);
      const counted = (['merged', 'patched', 'appended', 'read'] as const).map((way) => [way, cache.counts[way] - mark[way]]);
      expect(Object.fromEntries(counted), step).toEqual({
        merged: how === 'merged' ? 1 : 0,
        patched: how === 'patched' ? 1 : 0,
        appended: how === 'appended' ? 1 : 0,
        read: how === 'read' ? 1 : 0,
      });
      expect(cache.counts.caughtUp - mark.caughtUp, `${step}: the write brought the copy up to date before answering`).toBe(byWrite ? 1 : 0);
      if (drop) {
        cache.drop(userId);
        const cold = await readReports(t);
        expect(warm, step).toEqual(cold);
      }
      mark = { ...cache.counts };
      return warm;
    };

    await importTrades(t, a.id, backupRows(240, 26, 'first'));
    await expectFresh('restore into an empty journal (read whole)', 'read');
    await expectFresh('nothing changed', 'kept');

    const added = await createTrade(t, {
      date: '2025-01-20',
      symbol: 'NQ',
      side: 'Long',
      pnl: 310.5,
      commission: 4.2,
      account_id: a.id,
      tags: ['A+'],
    });
    await expectFresh('add', 'merged');

    const listed = await listAll(t);
    const inA = listed.filter((trade) => trade.account_id === a.id);
    expect((await t.patch(`/api/trades/${inA[3]!.id}`, { pnl: -87.25 })).status).toBe(200);
    await expectFresh('edit of the P&L (patched in place)', 'patched');
    // Texts every report already knows, on a trade whose place stays: patched too; back and forth, a setup and tags.
    expect((await t.patch(`/api/trades/${inA[150]!.id}`, { trade_type: 'Pullback', tags: ['FOMO', 'A+'], quantity: 3 })).status).toBe(200);
    await expectFresh('edit of the setup, tags and size to ones other trades have', 'patched');
    expect((await t.patch(`/api/trades/${inA[150]!.id}`, { trade_type: 'Breakout', tags: [] })).status).toBe(200);
    await expectFresh('edit of the setup and tags back', 'patched');
    // Moved to another day and hour: its place in the trading order changes.
    expect(
      (
        await t.patch(`/api/trades/${inA[7]!.id}`, {
          date: '2025-02-27',
          entry_time: '2025-02-27T20:15:00.000Z',
          exit_time: '2025-02-27T20:45:30.000Z',
        })
      ).status,
    ).toBe(200);
    await expectFresh('edit of the day and times', 'merged');
    // A trade's own plan is read by the R figures (and was missing from the triggers' list before migration 0030).
    const rBefore = (await t.get('/api/reports/overview')).body.r;
    expect((await t.patch(`/api/trades/${added.id}`, { risk_amount: 100 })).status).toBe(200);
    const afterPlan = await expectFresh('edit of the planned risk', 'patched');
    expect((afterPlan['/api/reports/overview'] as { r: unknown }).r).not.toEqual(rBefore);
    expect((await t.patch(`/api/trades/${added.id}`, { symbol: 'RTY', tags: ['FOMO', 'Late'] })).status).toBe(200);
    await expectFresh('edit of the instrument and tags (a new instrument and a new tag)', 'merged');

    expect((await t.post('/api/trades/assign', { ids: inA.slice(10, 40).map((trade) => trade.id), account_id: b.id })).status).toBe(200);
    await expectFresh('bulk edit: 30 trades to another account', 'merged');
    expect(
      (await t.post('/api/trades/bulk-risk', { ids: inA.slice(40, 55).map((trade) => trade.id), risk: { kind: 'amount', amount: 75 } })).status,
    ).toBe(200);
    await expectFresh('bulk edit: a planned risk on 15 trades', 'patched');

    // Nothing a report reads: the copy is kept as it is.
    expect((await t.patch(`/api/trades/${inA[5]!.id}`, { notes: 'only words' })).status).toBe(200);
    await expectFresh('notes edit', 'kept');

    expect((await t.delete(`/api/trades/${inA[3]!.id}`)).status).toBe(204);
    await expectFresh('delete', 'merged');
    expect((await t.post('/api/trades/bulk-delete', { ids: inA.slice(60, 100).map((trade) => trade.id) })).status).toBe(200);
    await expectFresh('bulk delete of 40 trades', 'merged');

    const imported = await importFile(t, { account_id: b.id, time_zone: 'America/New_York' }, ownFile('tradovate-performance-london.csv'));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.imported).toBeGreaterThan(0);
    // Its trades are of July 2025, after every trade so far: appended.
    await expectFresh('broker import', 'appended');
    await importTrades(t, a.id, backupRows(60, 27, 'second', '2024-12-02'));
    await expectFresh('restore of a backup beside the trades', 'merged');

    // The latest trades imported, all after the last one: written after the copy's rows, however many.
    await importTrades(t, a.id, backupRows(1000, 28, 'latest', '2026-01-05'));
    await expectFresh('import of 1,000 trades after the last one', 'appended');
    // One more after them, then another import: the second append writes into the room the first one made.
    await createTrade(t, {
      date: '2026-06-01',
      symbol: 'NQ',
      side: 'Short',
      pnl: -45.5,
      account_id: a.id,
      tags: ['Late entry'],
      entry_time: '2026-06-01T13:00:00.000Z',
      exit_time: '2026-06-01T13:05:00.000Z',
    });
    await expectFresh('one trade added after the last one', 'appended', { drop: false });
    await importTrades(t, a.id, backupRows(40, 29, 'latest-2', '2026-06-01'));
    await expectFresh('import of 40 trades after the last one, the day it ends included', 'appended');
    // A later trade beside an edit of an old one is not an append: merged. (The edit's own write catches the copy up,
    // so the two come together as another process's copy would see them: written behind this one's back.)
    const oldest = (await listAll(t)).find((trade) => trade.account_id === a.id)!;
    await app.server.database.db.execute(sql`update trades set pnl = 1.5, status = 'Win' where user_id = ${userId} and id = ${oldest.id}`);
    await createTrade(t, { date: '2026-09-01', pnl: 10, account_id: a.id });
    await expectFresh('a later trade beside an edit', 'merged');

    // A chain on one copy, as a trader's day goes: an import among older trades (merged into arrays with room, the
    // index of ids moved), an edit found by that index (patched), then the latest trades written into the merge's room
    // (appended); only then compared with a cold copy.
    await importTrades(t, a.id, backupRows(30, 30, 'among', '2025-02-03'));
    await expectFresh('import among older trades, kept for the next write', 'merged', { drop: false });
    expect((await t.patch(`/api/trades/${inA[130]!.id}`, { pnl: 64.75 })).status).toBe(200);
    await expectFresh('edit of a P&L after the merge, kept for the next write', 'patched', { drop: false });
    await importTrades(t, a.id, backupRows(50, 31, 'after-merge', '2026-10-05'));
    await expectFresh('import of later trades after a merge and an edit', 'appended');

    // An account deleted: its trades first (the app refuses an account with trades), then the account itself.
    const inB = (await listAll(t)).filter((trade) => trade.account_id === b.id);
    expect(inB.length).toBeGreaterThan(30);
    expect((await t.post('/api/trades/bulk-delete', { ids: inB.map((trade) => trade.id) })).status).toBe(200);
    expect((await t.delete(`/api/accounts/${b.id}`)).status).toBe(204);
    const afterAccount = await expectFresh('account delete', 'merged');
    expect(
      (afterAccount['/api/reports/breakdown?by=account'] as { breakdown: { rows: Array<{ label: string }> } }).breakdown.rows.map((r) => r.label),
    ).not.toContain('Cache B');

    // A log that no longer reaches back to the copy's version, as the triggers leave it after a write too big to log:
    // the copy is read whole, and is right.
    // (Written behind this process's back, as another process would: a write here would catch its copy up at once.)
    await app.server.database.db.execute(sql`update trades set pnl = 12, status = 'Win' where user_id = ${userId} and id = ${oldest.id}`);
    await app.server.database.db.execute(sql`update trade_versions set logged_after = version, logged_rows = 0 where user_id = ${userId}`);
    await app.server.database.db.execute(sql`delete from trade_changes where user_id = ${userId}`);
    await expectFresh('write after the log was pruned past the copy', 'read');
  }, 120_000);

  /**
   * A new trader with 300 trades (`seed` draws them), the buffers of their current copy, and an import of 20 trades
   * dated among the older ones, which the write merges into the copy (once).
   */
  const mergingTrader = async (name: string, seed: number) => {
    const email = uniqueEmail(`reports-${name}`);
    const t = app.client();
    expect((await t.signUp(email)).status).toBe(200);
    const userId = await userIdOf(email);
    const cache = tradesCacheOf(app.server.database);
    const account = await createAccount(t, name);
    await importTrades(t, account.id, backupRows(300, seed, name));
    const buffersNow = async () => {
      const lease = await cache.acquire(userId, 0);
      const buffers = collectBuffers(lease.snapshot);
      lease.release();
      return buffers;
    };
    let among = 0;
    const importAmong = async () => {
      const merged = cache.counts.merged;
      await importTrades(t, account.id, backupRows(20, seed + 1 + among, `${name}-among-${among}`, addDays('2025-01-13', among++)));
      expect(cache.counts.merged - merged).toBe(1);
    };
    return { t, userId, cache, buffersNow, importAmong };
  };

  it('merges into the buffers of copies no report reads any more, never of one a report still reads; the spares stay within one copy', async () => {
    const { t, userId, cache, buffersNow, importAmong: importMerged } = await mergingTrader('spares', 40);
    await readReports(t);
    const shared = (a: Set<unknown>, b: Set<unknown>) => [...a].filter((buffer) => b.has(buffer)).length;
    // The largest copy so far: the spares never hold more than one copy's worth.
    let largest = cache.spareBytes(userId).copy;
    let among = 0;
    /**
     * An import dated among the older trades (merged by the write), the spares within one copy's bytes after it, and
     * none of the buffers of the copies still read (`kept`) in the new copy.
     */
    const importAmong = async (...kept: Array<Set<unknown>>) => {
      await importMerged();
      among++;
      const { spare, copy } = cache.spareBytes(userId);
      largest = Math.max(largest, copy);
      expect(spare).toBeGreaterThanOrEqual(0);
      expect(spare).toBeLessThanOrEqual(largest);
      const now = await buffersNow();
      for (const buffers of kept) expect(shared(now, buffers), `import ${among}`).toBe(0);
    };

    // A report still reading the copy (as one awaiting the notes of a search would), with what it holds now.
    const reading = await cache.acquire(userId, 0);
    const saw = structuredClone({ columns: reading.snapshot.columns, keys: reading.snapshot.keys });
    const readBuffers = collectBuffers(reading.snapshot);
    await importAmong(readBuffers);
    const firstMerge = await buffersNow();
    await importAmong(readBuffers);
    // A caller that never says when it is done with the copy it took (pinned).
    const pinned = await cache.get(userId, 0);
    const pinnedSaw = structuredClone({ columns: pinned.columns, keys: pinned.keys });
    const pinnedBuffers = collectBuffers(pinned);
    await importAmong(readBuffers);
    // The third merge wrote into the first one's buffers (read by no report once the second replaced it).
    expect(shared(await buffersNow(), firstMerge)).toBeGreaterThan(10);
    await importAmong(readBuffers, pinnedBuffers);
    expect({ columns: reading.snapshot.columns, keys: reading.snapshot.keys }).toEqual(saw);
    expect({ columns: pinned.columns, keys: pinned.keys }).toEqual(pinnedSaw);

    // Let go: its buffers are spare, and the next merge writes into them; the pinned copy's never. Every report then
    // equals a cold copy's.
    reading.release();
    await importAmong(pinnedBuffers);
    expect(shared(await buffersNow(), readBuffers)).toBeGreaterThan(10);
    await importAmong(pinnedBuffers);
    expect({ columns: pinned.columns, keys: pinned.keys }).toEqual(pinnedSaw);
    const warm = await readReports(t);
    cache.drop(userId);
    expect(cache.spareBytes(userId).spare).toBe(0);
    expect(warm).toEqual(await readReports(t));
  }, 60_000);

  it("the playbooks' reports let go of the copy they read: a later merge writes into its buffers", async () => {
    const { t, buffersNow, importAmong } = await mergingTrader('released', 50);
    const playbook = await t.post('/api/playbooks', { name: 'Opening range', rules: [{ text: 'Wait for the retest' }] });
    expect(playbook.status).toBe(201);
    await readReports(t);
    await importAmong();
    const read = await buffersNow();
    // Each reads the merged copy, and must let it go when its answer is made (a pinned copy is never reused).
    expect((await t.get(`/api/playbooks/${playbook.body.id}/report`)).status).toBe(200);
    expect((await t.get('/api/reports/playbooks')).status).toBe(200);
    await importAmong();
    await importAmong();
    // The second merge after it took the buffers of the copy the playbooks' reports read.
    expect([...(await buffersNow())].filter((buffer) => read.has(buffer)).length).toBeGreaterThan(10);
  }, 60_000);

  it('keeps each trader’s copy to their own trades: another trader’s writes merge nothing into it', async () => {
    const [x, y] = [await newTrader(app, 'cache-x'), await newTrader(app, 'cache-y')];
    const [ax, ay] = [await createAccount(x, 'X'), await createAccount(y, 'Y')];
    await importTrades(x, ax.id, backupRows(20, 1, 'x'));
    await importTrades(y, ay.id, backupRows(20, 2, 'y'));
    const net = async (c: ApiClient) => (await c.get('/api/reports/overview')).body.overview.netCents as number;
    const [xNet, yNet] = [await net(x), await net(y)];
    await createTrade(y, { date: '2025-01-06', pnl: 1000 });
    expect(await net(x)).toBe(xNet);
    expect(await net(y)).toBe(yNet + 100_000);
  });
});

describe.runIf(inject('pgAdminUrl'))('the reports’ copy with several server processes', () => {
  it('a write served by one worker is merged into the other worker’s copy; both equal a cold process’s reports', async ({ onTestFinished }) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-reports-cache-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const databaseUrl = await createPostgresDatabase();
    const proc = spawnServer({ PORT: String(await freePort()), DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WEB_CONCURRENCY: '2' });
    onTestFinished(() => proc.killAll());
    await proc.ready;
    // A new connection for every request, so node:cluster spreads them over the workers; one cookie for both.
    const trader = new ApiClient(proc.url, { connection: 'close' }, { localAddress: '127.0.10.2' });
    expect((await trader.signUp(uniqueEmail('reports-cluster'))).status).toBe(200);
    const account = (await trader.post('/api/accounts', { name: 'Cluster' })).body as { id: string };
    expect((await trader.post('/api/trades/import', { account_id: account.id, trades: backupRows(120, 3, 'cluster') })).status).toBe(201);
    const workers = () =>
      new Set(
        proc
          .logs()
          .filter((l) => l.msg === 'request' && l.path === '/api/reports/equity')
          .map((l) => l.worker),
      );
    const equity = async () => (await trader.get('/api/reports/equity')).body.equity as { byTrade: Array<{ equityCents: number }> };

    // Both workers hold a copy before the writes.
    let expected = await equity();
    for (let j = 0; j < 4; j++) expect(await equity()).toEqual(expected);
    const ids = (await listAll(trader)).map((trade) => trade.id);
    const writes: Array<() => Promise<{ status: number }>> = [
      () => trader.post('/api/trades', { date: '2025-01-08', period: 'AM', pnl: 55.55, entry_time: '2025-01-08T15:00:00.000Z' }),
      () => trader.patch(`/api/trades/${ids[5]}`, { pnl: -12.34, date: '2025-02-20' }),
      () => trader.delete(`/api/trades/${ids[9]}`),
      () => trader.post('/api/trades/bulk-delete', { ids: ids.slice(20, 30) }),
      () => trader.post('/api/trades/import', { account_id: account.id, trades: backupRows(15, 4, 'cluster-2', '2025-03-10') }),
    ];
    for (const [i, write] of writes.entries()) {
      expect((await write()).status, `write ${i}`).toBeLessThan(300);
      // Money to the cent: the last point of the equity is the sum of the trades listed now.
      const net = (await listAll(trader)).reduce((sum, trade) => sum + Math.round(Number(trade.pnl) * 100), 0);
      expected = await equity();
      expect(expected.byTrade.at(-1)?.equityCents, `write ${i}`).toBe(net);
      for (let j = 0; j < 4; j++) expect(await equity(), `write ${i}, read ${j}`).toEqual(expected);
    }
    expect(workers()).toEqual(new Set([1, 2]));

    // Every report from the workers' merged copies equals the same report from a process that reads every trade.
    const warm = await readReports(trader);
    // The same data directory: the session's signing secret is kept there.
    const cold = spawnServer({ PORT: String(await freePort()), DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    onTestFinished(() => cold.killAll());
    await cold.ready;
    const coldTrader = new ApiClient(cold.url, { connection: 'close', cookie: trader.cookieHeader }, { localAddress: '127.0.10.3' });
    expect(await readReports(coldTrader)).toEqual(warm);
  }, 120_000);
});
