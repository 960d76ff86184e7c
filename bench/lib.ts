import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import pg from 'pg';
import { freePort } from '../src/server/free-port';
import { findPostgresBin, startPostgresCluster, type PostgresCluster } from '../tests/support/postgres-cluster';

export const repoRoot = path.resolve(import.meta.dirname, '..');

export interface Row {
  suite: string;
  measure: string;
  backend: 'pglite' | 'postgres' | 'chromium' | string;
  p50: number;
  p95: number;
  n: number;
  unit: string;
  note?: string;
  /** A target from an issue: the row's ratio is measured/limit (or limit/measured for an at-least target); <= 1 meets it. */
  target?: Target;
}

export interface Target {
  limit: number;
  /** Which figure the target is about (p95 unless said). */
  on?: 'p50' | 'p95';
  /** A floor (a score of at least 0.9) rather than a ceiling. */
  atLeast?: boolean;
}

/** The ratio of a row to its target: <= 1 meets it. */
export function targetRatio(row: Row): number | undefined {
  if (!row.target) return undefined;
  const value = row.target.on === 'p50' ? row.p50 : row.p95;
  return row.target.atLeast ? row.target.limit / value : value / row.target.limit;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(suite: string, measure: string, backend: string, samples: number[], unit = 'ms', note?: string, target?: Target): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  return { suite, measure, backend, p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: samples.length, unit, note, target };
}

let collectClient: (() => void) | undefined;

/**
 * A full collection of this bench process's own heap, run before a timed series. The suites build their imports here
 * (100,000 trade objects and their JSON), and the collection of that garbage, 30 ms and more, otherwise fell inside
 * some series and was counted as the server's latency (seen with --trace-gc on the bench: a 31 ms mark-compact made
 * one first page 43.5 ms). The servers are left alone: their collections are theirs to pay.
 */
export function collectBenchGarbage(): void {
  if (!collectClient) {
    v8.setFlagsFromString('--expose-gc');
    collectClient = vm.runInNewContext('gc') as () => void;
  }
  collectClient();
}

export async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `edgebook-bench-${prefix}-`));
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** The process's resident memory now, in MB (Linux /proc). */
  rssMb(): number;
  stop(): Promise<void>;
}

let built = false;
/** The compiled server and the web app, built as `npm start` builds them (only when their sources changed). */
export function buildIfNeeded() {
  if (built) return;
  const result = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building the server or the web app failed');
  built = true;
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb / 1024;
}

/**
 * Starts the compiled server (dist/server/main.mjs, what `npm start` runs) as its own process, as a self-hoster
 * would, and waits until /api/health answers.
 */
export async function spawnServer(env: Record<string, string>): Promise<{ server: ServerProcess; startMs: number }> {
  // BENCH_FROM_SOURCE=1 runs the server's sources through tsx instead of building it (API-only measurements).
  const fromSource = Boolean(process.env.BENCH_FROM_SOURCE);
  if (!fromSource) buildIfNeeded();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server processes (NODE_OPTIONS refuses it).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, ...(fromSource ? ['--import', 'tsx', 'src/server/main.ts'] : ['dist/server/main.mjs'])], {
    cwd: repoRoot,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      ...env,
    },
    // BENCH_SERVER_STDOUT=1 shows the servers' standard output (with BENCH_NODE_ARGS=--trace-gc, their collections).
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const startMs = performance.now() - t0;
  return {
    startMs,
    server: {
      url,
      child,
      rssMb: () => rssMb(child.pid!),
      stop: () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    },
  };
}

export interface PostgresForBench {
  cluster: PostgresCluster;
  newDatabase(): Promise<string>;
  /**
   * Drops the databases made so far and waits until the cluster is idle (checkpoint written, no autovacuum
   * running): run between suites, so that one suite's 100,000-trade databases being vacuumed and analysed do not
   * take CPU from the next suite's measurements (it had cost the load suite a third of its throughput).
   */
  settle(): Promise<void>;
}

export async function startPostgresForBench(): Promise<PostgresForBench | null> {
  const bin = findPostgresBin();
  if (!bin) return null;
  const cluster = await startPostgresCluster(bin);
  const made: string[] = [];
  const asAdmin = async <T>(work: (admin: pg.Client) => Promise<T>): Promise<T> => {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.end();
    }
  };
  return {
    cluster,
    async newDatabase() {
      const name = `edgebook_bench_${crypto.randomBytes(4).toString('hex')}`;
      await asAdmin((admin) => admin.query(`create database ${name}`));
      made.push(name);
      return cluster.adminUrl.replace(/\/[^/]*$/, `/${name}`);
    },
    async settle() {
      await asAdmin(async (admin) => {
        for (const name of made.splice(0)) await admin.query(`drop database if exists ${name} with (force)`);
        await admin.query('checkpoint');
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline) {
          const { rows } = await admin.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`,
          );
          if (rows[0]!.n === 0) break;
          await new Promise((r) => setTimeout(r, 500));
        }
      });
    },
  };
}

/** A signed-in HTTP session against a running server (cookie from sign-up). */
export async function signUp(url: string, email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`) {
  let res: Response;
  for (let attempt = 0; ; attempt++) {
    res = await fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email, password: 'bench-password-1', name: 'bench' }),
    });
    // Three sign-ups from one address in 10 s are the limit: a suite that signs up a trader per run waits its turn.
    if (res.status !== 429 || attempt === 10) break;
    await res.text();
    const seconds = Number(res.headers.get('x-retry-after') ?? res.headers.get('retry-after') ?? '2');
    await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(seconds) ? Math.max(1, seconds) : 2) * 1000));
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${text}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, email };
}

/** Sequential requests (one client), after a warm-up, so the figures are latency rather than throughput. */
export async function measureRequests(url: string, init: RequestInit, n: number): Promise<number[]> {
  for (let i = 0; i < 20; i++) await (await fetch(url, init)).arrayBuffer();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const [ms, res] = await time(() => fetch(url, init));
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    samples.push(ms);
  }
  return samples;
}

export function formatTable(rows: Row[]): string {
  // Two decimals below 1 (a layout shift of 0.02, a score of 0.93).
  const fmt = (v: number) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v >= 1 || v === 0 ? v.toFixed(1) : v.toFixed(2)) : '-');
  const target = (r: Row) => {
    const ratio = targetRatio(r);
    if (!r.target || ratio === undefined) return '';
    return `${r.target.atLeast ? '≥' : '≤'} ${r.target.limit} ${r.target.on ?? 'p95'}: ${Number.isFinite(ratio) ? ratio.toFixed(2) : '-'}x ${ratio <= 1 ? 'met' : 'MISSED'}`;
  };
  const lines = [
    '| suite | measure | backend | p50 | p95 | n | unit | target: ratio |',
    '|---|---|---|---:|---:|---:|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.suite} | ${r.measure}${r.note ? ` (${r.note})` : ''} | ${r.backend} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${r.n} | ${r.unit} | ${target(r)} |`,
    ),
  ];
  return lines.join('\n');
}
