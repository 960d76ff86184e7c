import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export { freePort } from '../../src/server/free-port';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** stdout's JSON log lines. */
  logs: () => Array<Record<string, unknown>>;
  /** Resolves once the server logs that it is running; rejects if it exits first. */
  ready: Promise<void>;
  /** Resolves with the exit code (or the signal name) when the process ends. */
  exited: Promise<number | string>;
  /** Sends a signal to the server process, as a process manager would. */
  signal(name: NodeJS.Signals): void;
  /** SIGKILL to the process group: a crash, or the cleanup after a test. */
  killAll(): Promise<void>;
}

/**
 * Starts src/server/main.ts as a real process with only the given environment (plus PATH/HOME), so nothing from
 * the developer's shell leaks in. It runs as `node --import tsx`, not the `tsx` CLI: the CLI relays a signal to its
 * child and SIGKILLs it when the child does not acknowledge within 30 ms, which on a busy machine turns a clean
 * SIGTERM into a crash. Signals here reach the server itself.
 */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a cleanup kill reaches anything it started and nothing else.
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes('Edgebook is running at')) {
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`server exited (${code}) before it was ready:\n${err}\n${out}`)));
  });
  ready.catch(() => {});
  return {
    child,
    url: `http://127.0.0.1:${env.PORT}`,
    stdout: () => out,
    stderr: () => err,
    logs: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ready,
    exited,
    signal: (name) => void child.kill(name),
    async killAll() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    },
  };
}
