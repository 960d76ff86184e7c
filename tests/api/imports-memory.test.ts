import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_BUSY_MESSAGE } from '../../src/server/core/parse/parse-gate';
import { ApiClient, backends, createPostgresDatabase, nextLoopbackAddress, uniqueEmail } from '../support/app';
import { tradovateExports } from '../support/broker-files';
import { freePort, spawnServer, type ServerProcess } from '../support/process';

/**
 * Three previews of 15 MB exports at once took a server from ~600 MB to 2.4 GB (PGlite) and from
 * 230 MB to 2.4 GB (PostgreSQL): each upload was read in full several times over, parsed, copied for the preview and
 * kept, all at once. Now uploads are read one budget at a time (the rest wait their turn, and the dialog says so),
 * with fewer copies of each. Measured on a real server process, as a self-hoster runs it: its resident memory (the
 * parse workers are threads of it).
 */
const ZONE = 'America/New_York';
/** A Tradovate Performance export of 15 MB: 205,000 fills, 74,513 round trips. */
const LARGE = tradovateExports(205_000).performance;
/** 3 MB of the same: 15,000 round trips or so. */
const SMALL = tradovateExports(41_000).performance;
/**
 * Before: +1,110 MB for the three previews below on PGlite and +924 MB on PostgreSQL (+1.9 GB for 22 MB files); then
 * about +450 and +500 MB; since uploads wait on disk and the worker collects between a parse's steps, about +330 and
 * +320 MB; since the parse lets each row, pair and fill go once read and holds the trades once, +211 and +241 MB;
 * since the CSV is parsed a block at a time as its rows are read, the pairs are made as read and the text goes once
 * read, +139 and +149 MB; since the upload is read from its file a piece at a time and checking the trades for the
 * database makes no garbage, +103 and +108 MB. The bound is the memory target for three such previews.
 */
const GROWTH_BOUND_MB = 200;

describe.each(backends())('large imports at once, on %s', (backend) => {
  let server: ServerProcess;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-memory-'));
    server = spawnServer({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      AUTH_SECRET: 'memory-secret-memory-secret-memory-secret',
      ...(backend === 'postgres' && { DATABASE_URL: await createPostgresDatabase() }),
    });
    await server.ready;
  }, 120_000);
  afterAll(async () => {
    await server?.killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) / 1024;

  /** The server's peak resident memory while `work` runs, sampled every 25 ms. */
  async function peakWhile<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
    let peak = rssMb();
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 25);
    try {
      return { result: await work(), peak };
    } finally {
      clearInterval(sampler);
    }
  }

  async function trader() {
    const client = new ApiClient(server.url, {}, { localAddress: nextLoopbackAddress() });
    expect((await client.signUp(uniqueEmail('memory'))).status).toBe(200);
    const account = await client.post('/api/accounts', { name: 'Futures' });
    expect(account.status).toBe(201);
    return { client, accountId: account.body.id as string };
  }

  async function preview(t: { client: ApiClient; accountId: string }, file: string) {
    const res = await t.client.send('POST', `/api/imports/preview?account_id=${t.accountId}&time_zone=${encodeURIComponent(ZONE)}&limit=50`, file, {
      'content-type': 'text/csv',
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('three 15 MB previews at once all answer, and the server grows by less than 200 MB', { timeout: 600_000 }, async () => {
    const traders = await Promise.all([trader(), trader(), trader()]);
    // The parse worker is started and warm, as on a server that has imported before.
    expect((await preview(traders[0]!, SMALL)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rssMb();
    const { result, peak } = await peakWhile(() => Promise.all(traders.map((t) => preview(t, LARGE))));
    const report = `RSS ${Math.round(before)} MB before, peak ${Math.round(peak)} MB (+${Math.round(peak - before)})`;
    console.info(`[${backend}] three 15 MB previews: ${report}`);
    for (const r of result) expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(result.map((r) => r.body.new_trades)).toEqual([74_513, 74_513, 74_513]);
    expect(peak - before, report).toBeLessThan(GROWTH_BOUND_MB);
  });

  it('a dozen traders previewing at once each get their preview or are told to wait, and the queue says so', { timeout: 600_000 }, async () => {
    const traders = await Promise.all(Array.from({ length: 12 }, () => trader()));
    const before = rssMb();
    let done = false;
    const seen: Array<{ waiting: number; ahead: number }> = [];
    const watching = (async () => {
      while (!done) {
        for (const t of traders) {
          const queue = await t.client.get('/api/imports/queue');
          expect(queue.status).toBe(200);
          seen.push(queue.body);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const { result, peak } = await peakWhile(() => Promise.all(traders.map((t) => preview(t, SMALL))).finally(() => (done = true)));
    await watching;
    const report = `RSS ${Math.round(before)} MB before, peak ${Math.round(peak)} MB (+${Math.round(peak - before)})`;
    console.info(`[${backend}] a dozen 3 MB previews: ${report}; ${result.filter((r) => r.status === 200).length} answered`);
    for (const r of result) {
      if (r.status === 503) expect(r.body).toMatchObject({ code: 'import-busy', error: IMPORT_BUSY_MESSAGE });
      else expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    }
    expect(result.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    // Some uploads waited their turn, and their traders could see how many files were ahead of theirs.
    expect(seen.some((q) => q.waiting > 0 && q.ahead > 0)).toBe(true);
    // Nobody is left waiting, and the server is alive and well.
    for (const t of traders) expect((await t.client.get('/api/imports/queue')).body).toEqual({ waiting: 0, ahead: 0 });
    expect(server.child.exitCode).toBeNull();
    expect((await traders[0]!.client.get('/api/health')).status).toBe(200);
    expect(peak - before, report).toBeLessThan(GROWTH_BOUND_MB);
  });
});
