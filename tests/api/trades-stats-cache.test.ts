import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  aggregateTradesByDay,
  buildResultsByWeek,
  buildResultsByWeekday,
  createEmptyAggregate,
  summarizeTrades,
  type StatTrade,
} from '../../src/domain/stats';
import { ApiClient, backends, createPostgresDatabase, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { freePort, spawnServer } from '../support/process';
import { importFile, ownFile } from './imports-support';
import { addDays, createAccount, createTrade, importTrades, listAll, money, newTrader, prng, type TradeDto } from './trades-support';

/**
 * Repeated statistics come from a cache per server process, labelled with the trader's trade
 * version. Whatever writes the trades, the next answer equals the statistics computed afresh (here by the domain
 * from the listed trades), on both databases and across server processes.
 */
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

function domainStats(listed: TradeDto[]) {
  const trades: StatTrade[] = [...listed].reverse().map((t) => ({
    tradeDate: t.date,
    status: t.status,
    pnlCents: Math.round(Number(t.pnl) * 100),
    entryTime: t.entry_time as string | null,
    exitTime: t.exit_time as string | null,
    createdAt: t.created_at,
    id: t.id,
  }));
  const days = aggregateTradesByDay(trades);
  return asJson({
    summary: summarizeTrades(trades),
    by_week: buildResultsByWeek(days),
    by_weekday: buildResultsByWeekday(days),
    by_day: days,
    by_day_before: createEmptyAggregate(),
  });
}

/** The statistics of a filter, asked twice (the second from the cache), both equal to a fresh computation. */
async function expectFresh(t: ApiClient, step: string, account = '') {
  const expected = domainStats(await listAll(t, account && `account=${account}`));
  for (const attempt of ['first', 'repeated']) {
    const res = await t.get(`/api/trades/stats${account && `?account=${account}`}`);
    expect(res.status).toBe(200);
    expect(res.body, `${step}, ${attempt} answer`).toEqual(expected);
  }
}

function rows(count: number, seed: number, prefix: string) {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    date: addDays('2025-01-06', i % 40),
    period: 'AM',
    pnl: money(Math.floor(random() * 200_001) - 100_000),
    commission: '1.20',
  }));
}

describe.each(backends())('cached statistics on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('equal a fresh computation after every kind of write: create, patch, delete, bulk delete, assign, restore, import', async () => {
    const t = await newTrader(app, 'cache');
    const [a, b] = [await createAccount(t, 'Cache A'), await createAccount(t, 'Cache B')];
    await expectFresh(t, 'no trades');

    const first = await createTrade(t, { date: '2025-01-06', pnl: 120.5, account_id: a.id });
    await expectFresh(t, 'create');
    const second = await createTrade(t, { date: '2025-01-07', pnl: -40 });
    await expectFresh(t, 'second create');

    expect((await t.patch(`/api/trades/${first.id}`, { pnl: -15.25 })).status).toBe(200);
    await expectFresh(t, 'patch of the P&L');
    expect((await t.patch(`/api/trades/${second.id}`, { date: '2025-02-03' })).status).toBe(200);
    await expectFresh(t, 'patch of the day');

    await importTrades(t, a.id, rows(300, 31, 'restore'));
    await expectFresh(t, 'restore');
    await expectFresh(t, 'restore, one account', a.id);

    const file = ownFile('tradovate-performance-london.csv');
    const imported = await importFile(t, { account_id: b.id, time_zone: 'America/New_York' }, file);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.imported).toBeGreaterThan(0);
    await expectFresh(t, 'broker import');
    await expectFresh(t, 'broker import, one account', b.id);

    const inA = await listAll(t, `account=${a.id}`);
    const moved = inA.slice(0, 25).map((trade) => trade.id);
    expect((await t.post('/api/trades/assign', { ids: moved, account_id: b.id })).status).toBe(200);
    await expectFresh(t, 'assign, the account left', a.id);
    await expectFresh(t, 'assign, the account given', b.id);
    await expectFresh(t, 'assign, all');

    expect((await t.post('/api/trades/bulk-delete', { ids: inA.slice(100, 180).map((trade) => trade.id) })).status).toBe(200);
    await expectFresh(t, 'bulk delete');
    await expectFresh(t, 'bulk delete, one account', a.id);

    expect((await t.delete(`/api/trades/${first.id}`)).status).toBe(204);
    await expectFresh(t, 'delete');

    // A notes edit leaves the statistics' version alone (nothing they read changed) and the answer right.
    expect((await t.patch(`/api/trades/${second.id}`, { notes: 'kept' })).status).toBe(200);
    await expectFresh(t, 'notes edit');
  });

  it('are kept per trader: another trader’s writes change nothing, and nobody reads another’s answers', async () => {
    const [x, y] = [await newTrader(app, 'cache-x'), await newTrader(app, 'cache-y')];
    await createTrade(x, { date: '2025-03-03', pnl: 10 });
    await createTrade(y, { date: '2025-03-03', pnl: -99 });
    // Same query from both: each gets their own trades' figures.
    expect((await x.get('/api/trades/stats')).body.summary.pnlCents).toBe(1000);
    expect((await y.get('/api/trades/stats')).body.summary.pnlCents).toBe(-9900);
    await createTrade(y, { date: '2025-03-04', pnl: 1 });
    expect((await x.get('/api/trades/stats')).body.summary.pnlCents).toBe(1000);
    expect((await y.get('/api/trades/stats')).body.summary.pnlCents).toBe(-9800);
  });
});

describe.runIf(inject('pgAdminUrl'))('cached statistics with several server processes', () => {
  it('a write served by one worker is seen by the other worker’s next statistics', async ({ onTestFinished }) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-stats-cache-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const proc = spawnServer({
      PORT: String(await freePort()),
      DATABASE_URL: await createPostgresDatabase(),
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '2',
    });
    onTestFinished(() => proc.killAll());
    await proc.ready;
    // A new connection for every request, so node:cluster spreads them over the workers; one cookie for both.
    const trader = new ApiClient(proc.url, { connection: 'close' }, { localAddress: '127.0.10.1' });
    expect((await trader.signUp(uniqueEmail('cache-cluster'))).status).toBe(200);
    const workers = () =>
      new Set(
        proc
          .logs()
          .filter((l) => l.msg === 'request' && l.path === '/api/trades/stats')
          .map((l) => l.worker),
      );

    let expectedCents = 0;
    for (let i = 0; i < 6; i++) {
      // Both workers answer (and cache) the statistics before each write...
      for (let j = 0; j < 4; j++) expect((await trader.get('/api/trades/stats')).body.summary.pnlCents).toBe(expectedCents);
      // ...then a write through whichever worker takes it...
      expect((await trader.post('/api/trades', { date: '2025-03-03', period: 'AM', pnl: i + 1 })).status).toBe(201);
      expectedCents += (i + 1) * 100;
      // ...and every answer after it, from either worker, has it.
      for (let j = 0; j < 4; j++) expect((await trader.get('/api/trades/stats')).body.summary.pnlCents, `write ${i}, read ${j}`).toBe(expectedCents);
    }
    expect(workers()).toEqual(new Set([1, 2]));
  });
});
