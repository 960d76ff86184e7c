import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/server/free-port';

/**
 * A throwaway PostgreSQL cluster for the tests: initdb into a temp directory, start on a free port with its socket
 * in that directory, stop and delete it afterwards. initdb refuses to run as root, so as root it runs as `postgres`.
 */
export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  adminUrl: string;
  port: number;
  stop(): void;
}

export function findPostgresBin(): string | null {
  const candidates = [
    process.env.PG_BIN,
    tryExec('pg_config', ['--bindir']),
    ...listVersions('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin`),
  ].filter((p): p is string => Boolean(p));
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) ?? null;
}

function tryExec(cmd: string, args: string[]): string | undefined {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function listVersions(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-pg-'));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  if (asRoot) {
    fs.chmodSync(dir, 0o777);
    execFileSync('chown', ['-R', 'postgres', dir]);
  }
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    const result = asRoot
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', [full, ...args].map(shellQuote).join(' ')], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', dataDir, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
  let stopped = false;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
