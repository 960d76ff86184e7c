import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config';
import { openDatabase } from './db/client';
import type { Logger } from './logger';
import { authSecret } from './server';

/**
 * WEB_CONCURRENCY > 1 on PostgreSQL: one primary process and that many workers sharing the port (node:cluster hands
 * each new connection to the next worker). Nothing a request needs lives in a worker: sessions, rate limits, sign-in
 * counts and AI limits are in the database, so any worker can serve any request. The primary runs the migrations and
 * makes sure of the auth secret once, before any worker starts; it replaces a worker that dies, and on SIGTERM or
 * SIGINT passes the signal on and waits (bounded) for every worker's own clean shutdown.
 */
export interface ClusterPrimary {
  stop(signal: NodeJS.Signals): Promise<number>;
}

const STOP_LIMIT_MS = 10_000;

export async function startClusterPrimary(config: Config, logger: Logger): Promise<ClusterPrimary> {
  const migrated = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    migrate: true,
    poolSize: 1,
    logger,
    startTimeoutMs: config.DATABASE_START_TIMEOUT * 1000,
  });
  await migrated.close();
  authSecret(config);

  let stopping = false;
  const fork = () => cluster.fork({ EDGEBOOK_WORKER: '1' });
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) return;
    logger.error({ worker: worker.id, code, signal }, 'a worker process died; starting another');
    fork();
  });
  const listening = new Promise<void>((resolve) => {
    let count = 0;
    cluster.on('listening', () => {
      if (++count === config.WEB_CONCURRENCY) resolve();
    });
  });
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
  await listening;

  return {
    async stop(signal) {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
      const exits = workers.map((w) => new Promise<number>((resolve) => (w.isDead() ? resolve(0) : w.once('exit', (code) => resolve(code ?? 1)))));
      // Under a process-group signal the workers have it already; a signal to the primary alone reaches them here.
      for (const worker of workers) worker.process.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const codes = await Promise.race([
        Promise.all(exits),
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), STOP_LIMIT_MS))),
      ]);
      clearTimeout(timer);
      if (codes === null) {
        for (const worker of workers) worker.process.kill('SIGKILL');
        return 1;
      }
      return codes.every((code) => code === 0) ? 0 : 1;
    },
  };
}
