import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/server/free-port';
import { collectBenchGarbage, signUp, spawnServer, summarize, tempDir, time, type PostgresForBench, type Row, type ServerProcess } from '../lib';

const SUITE = 'peers';
const TRADES = 10_000;
const TIME_ZONE = 'America/New_York';
const REST_MS = 20_000;
/** Imports of the file per server (each by a new trader), the first before the other measurements, the rest after. */
const IMPORT_ROUNDS = 3;

/**
 * Edgebook beside TradeTally (an open-source trading journal, v2.9.2), on this machine, in one run: the same
 * 10,000-trade Tradovate Performance file imported through each one's API (three times, by three traders), the trade
 * list's first page of 50 (right after the import, and warm), the statistics (TradeTally's analytics: the first after
 * a write, and repeated, which TradeTally answers from its cache) and the servers' resident memory at rest and at
 * peak. Requests go to the
 * servers in turn (TradeTally, Edgebook on PGlite, Edgebook on PostgreSQL, again...), so the shared machine's load
 * falls on all alike, and each figure is also given as a ratio to TradeTally's of the same run.
 *
 * TradeTally is not part of this repository: TRADETALLY_DIR names a checkout with its backend's dependencies
 * installed (docs/peers.md says how). Without it the suite says so and measures nothing.
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const dir = process.env.TRADETALLY_DIR;
  if (!dir) {
    console.warn('peers: skipped, TRADETALLY_DIR is not set (a TradeTally v2.9.2 checkout with its backend installed: see docs/peers.md)');
    return [];
  }
  if (!ctx.postgres) {
    console.warn('peers: skipped, TradeTally needs PostgreSQL and no PostgreSQL binaries were found');
    return [];
  }
  const backendDir = path.resolve(dir, 'backend');
  if (!fs.existsSync(path.join(backendDir, 'node_modules')))
    throw new Error(`${backendDir}/node_modules is missing: install TradeTally's backend first (docs/peers.md)`);

  const file = tradovatePerformanceCsv(TRADES);
  const started: Array<{ stop(): Promise<void> }> = [];
  const dirs: string[] = [];
  const logs: string[] = [];
  try {
    const tradetally = await startTradeTally(backendDir, ctx.postgres);
    started.push(tradetally);
    const pgliteDir = tempDir('peers-pglite');
    const pgDir = tempDir('peers-pg');
    dirs.push(pgliteDir, pgDir);
    const pglite = (await spawnServer({ DATA_DIR: pgliteDir })).server;
    started.push(pglite);
    const postgres = (await spawnServer({ DATABASE_URL: await ctx.postgres.newDatabase(), DATA_DIR: pgDir })).server;
    started.push(postgres);

    // Each trader signs up afresh on every server: one for the measurements, more for the further imports.
    let trader = 0;
    const newTraders = async (): Promise<Side[]> => {
      trader++;
      return [
        await tradeTallySide(tradetally, trader),
        await edgebookSide(pglite, 'Edgebook, PGlite'),
        await edgebookSide(postgres, 'Edgebook, PostgreSQL'),
      ];
    };
    const rows = await measure(newTraders, file, ctx.quick);
    // Its log is kept only when something failed (a line or more per imported row: megabytes).
    logs.push(tradetally.log);
    return rows;
  } finally {
    for (const server of started.reverse()) await server.stop().catch(() => undefined);
    for (const d of [...dirs, ...logs]) fs.rmSync(d, { recursive: true, force: true });
  }
}

/** One server as the measurements see it: the same questions, each asked its own way. */
interface Side {
  name: string;
  pid: number;
  /** Imports the file; resolves when the trades are stored (TradeTally imports in the background: polled). */
  importFile(csv: string): Promise<void>;
  firstPage(): Promise<Response>;
  statistics(): Promise<Response>;
  /** Adds one trade (which invalidates a statistics cache). */
  addTrade(): Promise<void>;
  /** The trade count and the sum of every trade's gross P&L in cents, as the server reports them. */
  totals(): Promise<{ trades: number; pnlCents: number }>;
}

const CONTRACTS = [
  { symbol: 'MNQM6', price: 21000, tick: 0.25, point: 2 },
  { symbol: 'NQM6', price: 21000, tick: 0.25, point: 20 },
  { symbol: 'ESM6', price: 5600, tick: 0.25, point: 50 },
  { symbol: 'MESM6', price: 5600, tick: 0.25, point: 5 },
];

/**
 * A Tradovate Performance export (its real 13-column layout) of `count` round trips, each its own pair of fills (one
 * buy, one sell), longs and shorts, 20 a weekday from Monday 2026-01-05, 09:30 to 15:30 New York: a file both
 * importers read as exactly `count` trades. Deterministic.
 */
export function tradovatePerformanceCsv(count: number): string {
  let seed = 31;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = (day: number, minute: number, second: number) => {
    const date = new Date(Date.UTC(2026, 0, 5 + Math.floor(day / 5) * 7 + (day % 5)));
    const clock = 9 * 60 + 30 + minute;
    return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()} ${pad(Math.floor(clock / 60))}:${pad(clock % 60)}:${pad(second)}`;
  };
  const money = (cents: number) => (cents < 0 ? `$(${(-cents / 100).toFixed(2)})` : `$${(cents / 100).toFixed(2)}`);
  const lines = [
    'symbol,_priceFormat,_priceFormatType,_tickSize,buyFillId,sellFillId,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,duration',
  ];
  let fillId = 700_000_000_000;
  for (let i = 0; i < count; i++) {
    const c = CONTRACTS[i % CONTRACTS.length]!;
    const qty = 1 + Math.floor(random() * 3);
    const long = random() < 0.55;
    const entry = c.price + Math.round((random() - 0.5) * 400) * c.tick;
    const exit = entry + Math.round((random() - 0.45) * 80) * c.tick;
    const [buy, sell] = long ? [entry, exit] : [exit, entry];
    // Ticks of a quarter point: the P&L in cents is an integer, computed without floats.
    const pnlCents = Math.round((sell - buy) * 4) * 25 * qty * c.point;
    const day = Math.floor(i / 20);
    const minute = (i % 20) * 18;
    const opened = stamp(day, minute, 5);
    const closed = stamp(day, minute + 1, 35);
    const buyId = ++fillId;
    const sellId = ++fillId;
    lines.push(
      [
        c.symbol,
        -2,
        0,
        c.tick,
        buyId,
        sellId,
        qty,
        buy.toFixed(2),
        sell.toFixed(2),
        money(pnlCents),
        long ? opened : closed,
        long ? closed : opened,
        '1min 30sec',
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The file's own totals, to check both servers against. */
function fileTotals(csv: string): { trades: number; pnlCents: number } {
  const rows = csv.trim().split('\r\n').slice(1);
  let pnlCents = 0;
  for (const row of rows) {
    const pnl = row.split(',')[9]!;
    const cents = Math.round(Number(pnl.replace(/[$()]/g, '')) * 100);
    pnlCents += pnl.includes('(') ? -cents : cents;
  }
  return { trades: rows.length, pnlCents };
}

interface TradeTallyServer {
  url: string;
  pid: number;
  log: string;
  stop(): Promise<void>;
}

/**
 * TradeTally's backend (`node src/server.js`, as its Dockerfile starts it) on its own database of the bench's cluster,
 * with the settings of a minimal self-hosted setup: no rate limit (the bench's requests would exceed it) and no
 * background jobs (they poll market-data services this machine has no keys for).
 */
async function startTradeTally(backendDir: string, postgres: PostgresForBench): Promise<TradeTallyServer> {
  const admin = new pg.Client({ connectionString: postgres.cluster.adminUrl });
  await admin.connect();
  try {
    await admin.query('drop database if exists tradetally_bench with (force)');
    await admin.query('drop role if exists tradetally_bench');
    // Its migrations create extensions and own what they make: the role a self-hoster's docker-compose gives it.
    await admin.query(`create role tradetally_bench login superuser password 'tradetally-bench'`);
    await admin.query('create database tradetally_bench owner tradetally_bench');
  } finally {
    await admin.end();
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = path.join(os.tmpdir(), `edgebook-bench-peers-tradetally-${port}.log`);
  const out = fs.openSync(log, 'w');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: 'production',
    PORT: String(port),
    FRONTEND_URL: 'http://127.0.0.1:5173',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-bench-secret',
    DB_HOST: '127.0.0.1',
    DB_PORT: String(postgres.cluster.port),
    DB_USER: 'tradetally_bench',
    DB_PASSWORD: 'tradetally-bench',
    DB_NAME: 'tradetally_bench',
    REGISTRATION_MODE: 'open',
    RATE_LIMIT_ENABLED: 'false',
    DISABLE_BACKGROUND_JOBS: 'true',
  };
  // Its output (a line or more per imported row) goes to a file, as a self-hoster's log would.
  const child: ChildProcess = spawn(process.execPath, ['src/server.js'], { cwd: backendDir, env, stdio: ['ignore', out, out] });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`TradeTally exited with ${child.exitCode}: see ${log}`);
    if (Date.now() > deadline) throw new Error(`TradeTally did not answer /api/health in 3 minutes: see ${log}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet (its migrations run first)
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    log,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          fs.closeSync(out);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function tradeTallySide(server: TradeTallyServer, trader: number): Promise<Side> {
  const { url } = server;
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${trader}@example.com`, username: `bench${trader}`, password: 'bench-password-1' }),
  });
  if (!res.ok) throw new Error(`TradeTally register: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  let added = 0;
  return {
    name: 'TradeTally 2.9.2',
    pid: server.pid,
    async importFile(csv) {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'Performance.csv');
      form.append('broker', 'tradovate');
      const started = await fetch(`${url}/api/trades/import`, { method: 'POST', headers: auth, body: form });
      if (started.status !== 202) throw new Error(`TradeTally import: ${started.status} ${await started.text()}`);
      const { importId } = (await started.json()) as { importId: string };
      for (;;) {
        const status = await getAgain(`${url}/api/trades/import/status/${importId}`, { headers: auth });
        const { importLog } = (await status.json()) as { importLog: { status: string; error_details: unknown } };
        if (importLog.status === 'completed') return;
        if (importLog.status === 'failed') throw new Error(`TradeTally import failed: ${JSON.stringify(importLog.error_details)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    firstPage: () => getAgain(`${url}/api/trades?limit=50`, { headers: auth }),
    statistics: () => getAgain(`${url}/api/trades/analytics`, { headers: auth }),
    async addTrade() {
      const day = `2026-11-${String(2 + added++).padStart(2, '0')}`;
      const res = await fetch(`${url}/api/trades`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          symbol: 'ESM6',
          entryTime: `${day}T14:31:00.000Z`,
          exitTime: `${day}T14:35:00.000Z`,
          entryPrice: 5600,
          exitPrice: 5601,
          quantity: 1,
          side: 'long',
        }),
      });
      if (!res.ok) throw new Error(`TradeTally add trade: ${res.status} ${await res.text()}`);
    },
    async totals() {
      const body = (await (await getAgain(`${url}/api/trades/analytics`, { headers: auth })).json()) as { summary: Record<string, unknown> };
      return { trades: Number(body.summary.totalTrades), pnlCents: Math.round(Number(body.summary.totalGrossPnL) * 100) };
    },
  };
}

async function edgebookSide(server: ServerProcess, name: string): Promise<Side> {
  const { url } = server;
  const { cookie } = await signUp(url);
  const json = { cookie, origin: url, 'content-type': 'application/json' };
  const account = (await (await fetch(`${url}/api/accounts`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Peers' }) })).json()) as {
    id: string;
  };
  const stats = `${url}/api/trades/stats?account=all&days=none`;
  let added = 0;
  return {
    name,
    pid: server.child.pid!,
    async importFile(csv) {
      const query = `account_id=${account.id}&time_zone=${encodeURIComponent(TIME_ZONE)}`;
      const res = await fetch(`${url}/api/imports?${query}`, {
        method: 'POST',
        headers: { cookie, origin: url, 'content-type': 'text/csv' },
        body: csv,
      });
      if (!res.ok) throw new Error(`${name} import: ${res.status} ${await res.text()}`);
    },
    firstPage: () => getAgain(`${url}/api/trades?account=all&limit=50`, { headers: { cookie } }),
    statistics: () => getAgain(stats, { headers: { cookie } }),
    async addTrade() {
      const day = `2026-11-${String(2 + added++).padStart(2, '0')}`;
      const res = await fetch(`${url}/api/trades`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ account_id: account.id, date: day, period: 'AM', pnl: 1 }),
      });
      if (!res.ok) throw new Error(`${name} add trade: ${res.status} ${await res.text()}`);
    },
    async totals() {
      // Gross: a new account's fee schedule takes commissions off the net P&L (TradeTally charges none by default).
      const trades = (await (await getAgain(`${url}/api/trades/export`, { headers: { cookie } })).json()) as Array<{ gross_pnl: string | null }>;
      let pnlCents = 0;
      for (const trade of trades) pnlCents += Math.round(Number(trade.gross_pnl) * 100);
      return { trades: trades.length, pnlCents };
    },
  };
}

/** Whether a failed fetch is a connection the server reset or closed under load (not an answer). */
function isReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNREFUSED'].includes(cause?.code ?? '');
}

/**
 * A GET asked again when its connection was reset: a GET changes nothing, so asking twice is safe, and a status poll
 * reset under load (the peer's server busy importing) is no reason to end the run. At most three attempts.
 */
async function getAgain(url: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, { ...init, method: 'GET' });
    } catch (error) {
      if (attempt >= 3 || !isReset(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1]) / 1024;
}

/** One request, timed until its body is read; a failed answer stops the run. */
async function timed(ask: () => Promise<Response>): Promise<number> {
  const [ms, res] = await time(async () => {
    const r = await ask();
    await r.arrayBuffer();
    return r;
  });
  if (!res.ok) throw new Error(`answered ${res.status}`);
  return ms;
}

/** `n` rounds of one request to each server in turn; the samples per server. The bench's own garbage goes first. */
async function interleave(sides: Side[], n: number, ask: (side: Side) => Promise<Response>): Promise<number[][]> {
  collectBenchGarbage();
  const samples = sides.map(() => [] as number[]);
  for (let i = 0; i < n; i++) for (const [k, side] of sides.entries()) samples[k]!.push(await timed(() => ask(side)));
  return samples;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(newTraders: () => Promise<Side[]>, csv: string, quick: boolean): Promise<Row[]> {
  const sides = await newTraders();
  const rows: Row[] = [];
  const n = quick ? 20 : 60;
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const expected = fileTotals(csv);
  const note = `${TRADES.toLocaleString('en-US')}-trade Tradovate file`;
  // Each figure, and beside TradeTally's each of Edgebook's as TradeTally's over Edgebook's (above 1: Edgebook faster).
  const add = (measure: string, samples: number[][], unit = 'ms', lowerIsBetter = true) => {
    const base = samples[0]!;
    for (const [k, side] of sides.entries()) {
      const row = summarize(SUITE, measure, side.name, samples[k]!, unit, note);
      if (k > 0) {
        const [a, b] = lowerIsBetter ? [base, samples[k]!] : [samples[k]!, base];
        const p95 = (xs: number[]) => summarize('', '', '', xs).p95;
        row.note = `${note}; TradeTally/Edgebook ${(median(a) / median(b)).toFixed(2)}x p50, ${(p95(a) / p95(b)).toFixed(2)}x p95`;
      }
      rows.push(row);
    }
  };

  // The imports: one server after the other (an import takes the machine), each server's VmRSS sampled meanwhile;
  // the first round's trader is the one measured below. Further rounds, each a new trader on every server, come at
  // the end, so the import's time has more than one sample, taken in turns like the rest.
  const importMs: number[][] = sides.map(() => []);
  const importLoads: number[][] = sides.map(() => []);
  const importRound = async (round: Side[]) => {
    const peaks: number[] = [];
    for (const [k, side] of round.entries()) {
      importLoads[k]!.push(os.loadavg()[0]!);
      let peak = status(side.pid, 'VmRSS');
      const sampler = setInterval(() => (peak = Math.max(peak, status(side.pid, 'VmRSS'))), 50);
      try {
        const [ms] = await time(() => side.importFile(csv));
        importMs[k]!.push(ms);
      } finally {
        clearInterval(sampler);
      }
      // VmHWM too: a peak shorter than the sampling interval is still counted.
      peaks.push(Math.max(peak, status(side.pid, 'VmRSS'), status(side.pid, 'VmHWM')));
    }
    return peaks;
  };
  const peaks = (await importRound(sides)).map((peak) => [peak]);
  // At rest: every server left alone long enough for V8 to give back the import's heap.
  await settle(REST_MS);
  add(
    'server RSS at rest after the import',
    sides.map((s) => [status(s.pid, 'VmRSS')]),
    'MB',
  );
  add('server RSS at peak during the import', peaks, 'MB');

  // Only now (its requests would have moved the memory at rest): the same trades and gross P&L in every server.
  for (const side of sides) {
    const totals = await side.totals();
    if (totals.trades !== expected.trades || totals.pnlCents !== expected.pnlCents) {
      throw new Error(
        `${side.name} holds ${totals.trades} trades, P&L ${totals.pnlCents} cents; the file has ${expected.trades}, ${expected.pnlCents} cents`,
      );
    }
  }
  console.error(`peers: every server holds ${expected.trades} trades, P&L ${(expected.pnlCents / 100).toFixed(2)}`);

  // Right after the import (no warm-up beyond the import itself), then the statistics, then warm.
  add('trade list, first page of 50, right after the import', await interleave(sides, n, (s) => s.firstPage()));
  const firsts = sides.map(() => [] as number[]);
  for (let i = 0; i < (quick ? 5 : 15); i++) {
    for (const [k, side] of sides.entries()) {
      await side.addTrade();
      firsts[k]!.push(await timed(() => side.statistics()));
    }
  }
  add('statistics, first after a write (TradeTally: GET /api/trades/analytics, uncached)', firsts);
  add('statistics, repeated (TradeTally: its cache)', await interleave(sides, n, (s) => s.statistics()));
  add('trade list, first page of 50, warm', await interleave(sides, n, (s) => s.firstPage()));
  // At rest again, and the high-water mark so far (the further imports come after): TradeTally's memory grows with its analytics.
  await settle(REST_MS);
  add(
    'server RSS at rest at the end of the measurements',
    sides.map((s) => [status(s.pid, 'VmRSS')]),
    'MB',
  );
  add(
    'server RSS high-water mark over the measurements (VmHWM)',
    sides.map((s) => [status(s.pid, 'VmHWM')]),
    'MB',
  );

  for (let i = 1; i < (quick ? 1 : IMPORT_ROUNDS); i++) await importRound(await newTraders());
  const importRows = rows.length;
  add('import of the file, end to end, a new trader each time', importMs);
  // The machine's load when each import started, to read them by.
  for (const [k, loads] of importLoads.entries()) rows[importRows + k]!.note += `; load ${loads.map((l) => l.toFixed(1)).join(', ')} at their starts`;
  // The figures mean little without the machine's load beside them (it is shared).
  console.error(
    `peers: load average ${loadAtStart} at the start of the run, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} at its end`,
  );
  return rows;
}
