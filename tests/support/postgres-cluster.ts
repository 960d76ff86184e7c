import { execFile, execFileSync, spawnSync } from 'node:child_process';
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
  /** Stops the server and deletes the cluster. */
  stop(): void;
  /**
   * `pg_ctl restart -m fast`, as an operator or a managed database's upgrade does it: every connection is ended
   * (57P01) and the server comes back on the same port. Asynchronous, so the caller's requests keep going meanwhile.
   */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, keeping the cluster's files for `start()`. */
  halt(): Promise<void>;
  /** Starts a halted cluster again on the same port. */
  start(): Promise<void>;
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
  const runAsync = (cmd: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const full = path.join(bin, cmd);
      const callback = (error: Error | null, stdout: string, stderr: string) =>
        error ? reject(new Error(`${cmd} failed: ${stderr || stdout || error.message}`)) : resolve();
      if (asRoot) execFile('su', ['postgres', '-s', '/bin/sh', '-c', [full, ...args].map(shellQuote).join(' ')], { encoding: 'utf8' }, callback);
      else execFile(full, args, { encoding: 'utf8' }, callback);
    });
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const startArgs = ['-D', dataDir, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start'];
  run('pg_ctl', startArgs);
  let stopped = false;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: () => runAsync('pg_ctl', ['-D', dataDir, '-o', opts, '-l', path.join(dir, 'log'), '-m', 'fast', '-w', 'restart']),
    halt: () => runAsync('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    start: () => runAsync('pg_ctl', startArgs),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        // Already halted (a test that stopped it and failed before starting it again) is not an error here.
        if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
