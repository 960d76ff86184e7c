import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../support/app';
import { tradovateOrdersCsv } from '../support/broker-files';
import { importFile } from './imports-support';
import { createAccount, newTrader } from './trades-support';

/**
 * A long import must not block everyone. The file is read in a worker thread, so while a 25 MB
 * import runs, a second connection's /api/health keeps answering. Before, it waited for the whole parse (7.4 s on
 * PGlite, 3.3 s on PostgreSQL): the bound below, both absolute and relative to the import's own duration, is one a
 * server that parses on its event loop cannot meet.
 */
const CSV = tradovateOrdersCsv(100_000);

describe.each(backends())('a 25 MB import on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('keeps /api/health answering on a second connection while it runs', { timeout: 300_000 }, async () => {
    expect(Buffer.byteLength(CSV)).toBeGreaterThan(23 * 1024 * 1024);
    const trader = await newTrader(app, 'bulk');
    const account = await createAccount(trader, 'Bulk');
    const watcher = app.client();
    // Warm the worker and the health route, so start-up costs are not measured.
    await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, 'symbol,side\n');
    await watcher.get('/api/health');

    const started = performance.now();
    let done = false;
    const running = importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, CSV).finally(() => {
      done = true;
    });
    const latencies: number[] = [];
    while (!done) {
      const t0 = performance.now();
      const health = await watcher.get('/api/health');
      latencies.push(performance.now() - t0);
      expect(health.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const result = await running;
    const importMs = performance.now() - started;
    expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(200);
    expect(result.body.imported).toBe(36_332);

    const worst = Math.max(...latencies);
    const report = `import ${Math.round(importMs)} ms, ${latencies.length} health checks, worst ${Math.round(worst)} ms`;
    console.info(`[${backend}] ${report}`);
    expect(latencies.length, report).toBeGreaterThanOrEqual(10);
    // Parsing alone is about half of the import: a server parsing on its event loop holds health for at least that
    // long. A bound relative to the import's own duration holds on a loaded CI machine as on a quiet one (an absolute
    // one failed at a load of 25 on 2 cores); the milliseconds themselves are the bench's to measure.
    expect(worst, report).toBeLessThan(importMs / 4);
  });
});
