import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(suite: string, measure: string, backend: string, samples: number[], unit = 'ms', note?: string): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  return { suite, measure, backend, p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: samples.length, unit, note };
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
  stop(): Promise<void>;
}

/** Starts `src/server/main.ts` as its own process, as a self-hoster would, and waits until /api/health answers. */
export async function spawnServer(env: Record<string, string>): Promise<{ server: ServerProcess; startMs: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server processes (NODE_OPTIONS refuses it).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-00', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
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
}

export async function startPostgresForBench(): Promise<PostgresForBench | null> {
  const bin = findPostgresBin();
  if (!bin) return null;
  const cluster = await startPostgresCluster(bin);
  return {
    cluster,
    async newDatabase() {
      const name = `edgebook_bench_${crypto.randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: cluster.adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      return cluster.adminUrl.replace(/\/[^/]*$/, `/${name}`);
    },
  };
}

/** A signed-in HTTP session against a running server (cookie from sign-up). */
export async function signUp(url: string, email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`) {
  const res = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password: 'bench-password-1', name: 'bench' }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
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
  const fmt = (v: number) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v.toFixed(1)) : '-');
  const lines = [
    '| suite | measure | backend | p50 | p95 | n | unit |',
    '|---|---|---|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.suite} | ${r.measure}${r.note ? ` (${r.note})` : ''} | ${r.backend} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${r.n} | ${r.unit} |`),
  ];
  return lines.join('\n');
}
