import fs from 'node:fs';
import { backupRows } from '../../tests/support/backup-file';
import { tradovateExports } from '../../tests/support/broker-files';
import { signUp, spawnServer, summarize, tempDir, time, type PostgresForBench, type Row, type ServerProcess } from '../lib';

const SUITE = 'big-files';
const TIME_ZONE = 'America/New_York';
const BACKUP_ROWS = 30_000;

/**
 * Big files, on the compiled server as `npm start` runs it:
 *  - the embedded database while one trader restores a 30,000-row JSON backup (POST /api/trades/import): the latency
 *    of /api/health and of another trader's first Trade Log page, polled one after another (20 ms apart) for as long as
 *    the restore runs (before: both waited for all of it, 12 s);
 *  - the server's peak resident memory while three traders preview a 15 MB Tradovate Performance export each, at
 *    once, on PGlite and on PostgreSQL (before: from ~600 MB to 2.4 GB, and from 230 MB to 2.4 GB);
 *  - a 50 MB bar file (a million 1-minute bars of NinjaTrader's export) previewed then imported on PGlite: the growth
 *    of the server's memory over its rest (target: at most 200 MB; before: 2.1-2.2 GB for the preview alone), and the
 *    latency of /api/health and of another trader's first Trade Log page meanwhile (target: at most 1 s; before: 6-13 s
 *    stalls while the parse worker handed a million parsed bars to the server's thread).
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const runs = ctx.quick ? 1 : 3;
  const rows: Row[] = [];
  rows.push(...(await backupWhileServing(runs)));
  rows.push(...(await backupOnLongUsedServer(ctx.quick ? 1 : 2)));
  rows.push(...(await barsFileWhileServing()));
  const large = tradovateExports(205_000).performance;
  const note = `3 x ${(Buffer.byteLength(large) / 1024 / 1024).toFixed(1)} MB, 74,513 trades each`;
  rows.push(...(await previewMemory('pglite', async () => ({ DATA_DIR: tempDir('big-files-pglite') }), large, runs, note)));
  const postgres = ctx.postgres;
  if (postgres) {
    const env = async () => ({ DATABASE_URL: await postgres.newDatabase(), DATA_DIR: tempDir('big-files-pg') });
    rows.push(...(await previewMemory('postgres', env, large, runs, note)));
  }
  return rows;
}

/** A NinjaTrader export of 1-minute bars of about `megabytes` MB: bar end times in UTC, a gentle walk of prices. */
export function ninjaTraderBars(megabytes: number): string {
  const lines: string[] = [];
  let bytes = 0;
  let price = 15_000;
  const pad = (n: number) => String(n).padStart(2, '0');
  for (let t = Date.UTC(2023, 0, 2, 0, 1), i = 0; bytes < megabytes * 1024 * 1024; t += 60_000, i++) {
    const d = new Date(t);
    const step = ((i * 7919) % 9) - 4;
    const open = price;
    price = Math.max(1000, price + step * 0.25);
    const high = Math.max(open, price) + 0.5;
    const low = Math.min(open, price) - 0.25;
    const line = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00;${open.toFixed(2)};${high.toFixed(2)};${low.toFixed(2)};${price.toFixed(2)};${100 + (i % 400)}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A 50 MB bar file previewed, then imported, by one trader on PGlite, while /api/health and another trader's first
 * Trade Log page are polled one after another (20 ms apart), and the server's memory sampled every 25 ms.
 */
export async function barsFileWhileServing(): Promise<Row[]> {
  // Made first: building it holds this process's event loop for seconds, long enough for idle sockets to go stale.
  const file = ninjaTraderBars(49.5);
  const dir = tempDir('big-files-bars');
  const { server } = await spawnServer({ DATA_DIR: dir });
  try {
    const other = await signUp(server.url);
    await post(server, other.cookie, '/api/trades', JSON.stringify({ date: '2026-02-02', period: 'AM', symbol: 'ES', pnl: 10 }));
    const trader = await signUp(server.url);
    const megabytes = Buffer.byteLength(file) / 1024 / 1024;
    const lines = file.split('\n').length - 1;
    // The parse worker started, as on a server that has imported before.
    await post(
      server,
      trader.cookie,
      '/api/market/bars/preview?contract=MNQH5',
      '20250305 150100;1;2;1;2;1\n20250305 150200;1;2;1;2;1\n',
      'text/plain',
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rest = server.rssMb();
    let peak = rest;
    const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 25);
    const health: number[] = [];
    const reads: number[] = [];
    const steps: number[] = [];
    let done = false;
    const isDone = () => done;
    const polling = Promise.all([
      pollUntil(isDone, health, `${server.url}/api/health`),
      pollUntil(isDone, reads, `${server.url}/api/trades?limit=50`, other.cookie),
    ]);
    try {
      const [previewMs, preview] = await time(() => post(server, trader.cookie, '/api/market/bars/preview?contract=MNQH5', file, 'text/plain'));
      const bars = (preview.series as Array<{ bars: number }>)[0]?.bars;
      if (bars !== lines) throw new Error(`the preview read ${String(bars)} of ${lines} bars`);
      steps.push(previewMs);
      const [importMs, outcome] = await time(() => post(server, trader.cookie, '/api/market/bars?contract=MNQH5', file, 'text/plain'));
      if (outcome.added !== lines) throw new Error(`the import added ${String(outcome.added)} of ${lines} bars`);
      steps.push(importMs);
    } finally {
      done = true;
      clearInterval(sampler);
      await polling;
    }
    const note = `${megabytes.toFixed(1)} MB, ${lines.toLocaleString('en-US')} 1-minute bars (NinjaTrader export)`;
    return [
      summarize(SUITE, 'POST /api/market/bars/preview of a 50 MB bar file', 'pglite', [steps[0]!], 'ms', note),
      summarize(SUITE, 'POST /api/market/bars of that file (stored, its trader had no trades)', 'pglite', [steps[1]!], 'ms', note),
      summarize(SUITE, 'growth of the RSS over the server at rest, that preview then import', 'pglite', [peak - rest], 'MB', note, { limit: 200 }),
      summarize(SUITE, 'GET /api/health while that file is previewed and imported', 'pglite', health, 'ms', 'polled 20 ms apart', { limit: 1000 }),
      summarize(
        SUITE,
        "another trader's GET /api/trades?limit=50 while that file is previewed and imported",
        'pglite',
        reads,
        'ms',
        'polled 20 ms apart',
        { limit: 1000 },
      ),
    ];
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Asks `url` again and again, 20 ms apart, until `done()`: each answer's time goes to `samples`. */
async function pollUntil(done: () => boolean, samples: number[], url: string, cookie?: string): Promise<void> {
  while (!done()) {
    const [ms, res] = await time(() => fetch(url, cookie ? { headers: { cookie } } : {}));
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    if (!done()) samples.push(ms);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function post(server: ServerProcess, cookie: string, path: string, body: string, type = 'application/json') {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { cookie, origin: server.url, 'content-type': type }, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown> & { id: string };
}

/** /api/health and another trader's Trade Log while one trader restores a 30,000-row backup, on PGlite. */
async function backupWhileServing(runs: number): Promise<Row[]> {
  const dir = tempDir('big-files-backup');
  const { server } = await spawnServer({ DATA_DIR: dir });
  try {
    const other = await signUp(server.url);
    await post(server, other.cookie, '/api/trades', JSON.stringify({ date: '2026-02-02', period: 'AM', symbol: 'ES', pnl: 10 }));
    const trades = backupRows(BACKUP_ROWS);
    const health: number[] = [];
    const reads: number[] = [];
    const restores: number[] = [];
    for (let i = 0; i < runs; i++) {
      const trader = await signUp(server.url);
      const account = await post(server, trader.cookie, '/api/accounts', JSON.stringify({ name: `Restore ${i}` }));
      const body = JSON.stringify({ account_id: account.id, trades });
      let done = false;
      const restoring = time(() => post(server, trader.cookie, '/api/trades/import', body)).finally(() => (done = true));
      const isDone = () => done;
      await Promise.all([
        pollUntil(isDone, health, `${server.url}/api/health`),
        pollUntil(isDone, reads, `${server.url}/api/trades?limit=50`, other.cookie),
      ]);
      const [ms, outcome] = await restoring;
      if (outcome.imported !== BACKUP_ROWS) throw new Error(`the restore imported ${String(outcome.imported)}`);
      restores.push(ms);
    }
    const note = `${BACKUP_ROWS.toLocaleString('en-US')} rows, ${(Buffer.byteLength(JSON.stringify(trades)) / 1024 / 1024).toFixed(1)} MB`;
    return [
      summarize(SUITE, 'POST /api/trades/import of a JSON backup', 'pglite', restores, 'ms', note),
      summarize(SUITE, 'GET /api/health while that backup is restored', 'pglite', health, 'ms', 'polled 20 ms apart'),
      summarize(SUITE, "another trader's GET /api/trades?limit=50 while that backup is restored", 'pglite', reads, 'ms', 'polled 20 ms apart'),
    ];
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The other trader's Trade Log is opened this often during a restore on a used server. */
const POLL_MS = 200;
/** Restores and deletes of the backup by a trader of its own before the measured restore on a used server. */
export const USE_CYCLES = 4;

export interface RestoreWaits {
  restoreMs: number;
  /** The other trader's longest wait for their Trade Log's first page. */
  longestMs: number;
  /** The sum of the other trader's waits that took more than 1 s. */
  stalledMs: number;
  polls: number;
}

/** Restores `trades` for `trader` into a new account while `other` opens their Trade Log's first page every 200 ms. */
export async function restoreWhilePolling(server: ServerProcess, trader: string, other: string, trades: unknown[]): Promise<RestoreWaits> {
  const account = await post(server, trader, '/api/accounts', JSON.stringify({ name: `Restore ${Date.now()}` }));
  const body = JSON.stringify({ account_id: account.id, trades });
  let done = false;
  const restoring = time(() => post(server, trader, '/api/trades/import', body)).finally(() => (done = true));
  const waits: number[] = [];
  while (!done) {
    const t0 = performance.now();
    // A connection the server dropped (its keep-alive timer ran late, after a long block) is tried again at once: the
    // trader's wait goes on.
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${server.url}/api/trades?limit=50`, { headers: { cookie: other } });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`the Trade Log answered ${res.status}`);
        break;
      } catch (error) {
        if (attempt >= 3 || !String((error as Error).cause ?? error).includes('ECONNRESET')) throw error;
      }
    }
    waits.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const [restoreMs, outcome] = await restoring;
  if (outcome.imported !== trades.length) throw new Error(`the restore imported ${String(outcome.imported)}`);
  return {
    restoreMs,
    longestMs: Math.max(0, ...waits),
    stalledMs: waits.filter((ms) => ms > 1000).reduce((a, b) => a + b, 0),
    polls: waits.length,
  };
}

/** A server used for a while: one trader restores the backup into a new account and deletes all of it, `cycles` times. */
export async function useForAWhile(server: ServerProcess, trades: unknown[], cycles: number): Promise<void> {
  const { cookie } = await signUp(server.url);
  for (let i = 0; i < cycles; i++) {
    const account = await post(server, cookie, '/api/accounts', JSON.stringify({ name: `Churn ${i}` }));
    const done = await post(server, cookie, '/api/trades/import', JSON.stringify({ account_id: account.id, trades }));
    if (done.imported !== trades.length) throw new Error(`the restore of the used server imported ${String(done.imported)}`);
    const res = await fetch(`${server.url}/api/trades/ids`, { headers: { cookie } });
    const { ids } = (await res.json()) as { ids: string[] };
    const deleted = await post(server, cookie, '/api/trades/bulk-delete', JSON.stringify({ ids }));
    if (deleted.deleted !== ids.length) throw new Error(`deleted ${String(deleted.deleted)} of ${ids.length}`);
  }
}

/** One restore while another trader polls, on a new server, fresh or first used for a while; its data removed after. */
export async function measureRestore(used: boolean, trades: unknown[]): Promise<RestoreWaits> {
  const dir = tempDir(`big-files-${used ? 'used' : 'fresh'}`);
  const { server } = await spawnServer({ DATA_DIR: dir });
  try {
    const other = await signUp(server.url);
    await post(server, other.cookie, '/api/trades', JSON.stringify({ date: '2026-02-02', period: 'AM', symbol: 'ES', pnl: 10 }));
    if (used) await useForAWhile(server, trades, USE_CYCLES);
    const trader = await signUp(server.url);
    return await restoreWhilePolling(server, trader.cookie, other.cookie, trades);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Another trader's Trade Log while a 30,000-row backup is restored on PGlite, on a new server and on one used for a
 * while (the backup restored and deleted again four times first, the way a long-used server's trades table has pages
 * of dead rows and statistics taken right after a large delete): the longest wait and the waits over 1 s added up,
 * a sample a run (target: at most 1 s; before: up to 29 s on the used server, 1.2 s on a new one).
 */
async function backupOnLongUsedServer(runs: number): Promise<Row[]> {
  const trades = backupRows(BACKUP_ROWS);
  const rows: Row[] = [];
  for (const used of [false, true]) {
    const results: RestoreWaits[] = [];
    for (let i = 0; i < runs; i++) results.push(await measureRestore(used, trades));
    const server = used ? `a used server (${USE_CYCLES} restores and deletes before)` : 'a new server';
    const note = `polled every ${POLL_MS} ms`;
    rows.push(
      summarize(
        SUITE,
        `another trader's longest wait for GET /api/trades?limit=50 while a 30,000-row backup is restored, ${server}`,
        'pglite',
        results.map((r) => r.longestMs),
        'ms',
        note,
        { limit: 1000, on: 'p95' },
      ),
      summarize(
        SUITE,
        `that trader's waits over 1 s added up, ${server}`,
        'pglite',
        results.map((r) => r.stalledMs),
        'ms',
        note,
      ),
      summarize(
        SUITE,
        `that restore, ${server}`,
        'pglite',
        results.map((r) => r.restoreMs),
        'ms',
      ),
    );
  }
  return rows;
}

/**
 * Peak RSS of a server while three traders preview the same 15 MB file at once (sampled every 25 ms), and the time of
 * /api/health meanwhile: a new server and database each run, since a server's memory, once grown, is not all given back.
 */
async function previewMemory(
  backend: string,
  makeEnv: () => Promise<Record<string, string>>,
  file: string,
  runs: number,
  note: string,
): Promise<Row[]> {
  const peaks: number[] = [];
  const growths: number[] = [];
  const durations: number[] = [];
  const health: number[] = [];
  for (let i = 0; i < runs; i++) {
    const env = await makeEnv();
    const { server } = await spawnServer(env);
    try {
      const traders = await Promise.all(
        [0, 1, 2].map(async () => {
          const { cookie } = await signUp(server.url);
          const account = await post(server, cookie, '/api/accounts', JSON.stringify({ name: 'Futures' }));
          return { cookie, query: `account_id=${account.id}&time_zone=${encodeURIComponent(TIME_ZONE)}&limit=200` };
        }),
      );
      // The parse worker started, as on a server that has imported before.
      await post(server, traders[0]!.cookie, `/api/imports/preview?${traders[0]!.query}`, 'symbol,side\n', 'text/csv').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const before = server.rssMb();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 25);
      let done = false;
      const polling = pollUntil(() => done, health, `${server.url}/api/health`);
      const [ms] = await time(() =>
        Promise.all(traders.map((t) => post(server, t.cookie, `/api/imports/preview?${t.query}`, file, 'text/csv'))).finally(() => (done = true)),
      );
      await polling;
      clearInterval(sampler);
      peaks.push(peak);
      growths.push(peak - before);
      durations.push(ms);
    } finally {
      await server.stop();
      fs.rmSync(env.DATA_DIR!, { recursive: true, force: true });
    }
  }
  return [
    summarize(SUITE, 'peak RSS of the server, three 15 MB previews at once', backend, peaks, 'MB', note),
    summarize(SUITE, 'growth of the RSS over the idle server, three 15 MB previews at once', backend, growths, 'MB', note, { limit: 200 }),
    summarize(SUITE, 'three 15 MB previews at once, until the last answers', backend, durations, 'ms', note),
    summarize(SUITE, 'GET /api/health while three 15 MB files are previewed', backend, health, 'ms', 'polled 20 ms apart', { limit: 1000 }),
  ];
}
