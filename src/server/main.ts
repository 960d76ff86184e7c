import cluster from 'node:cluster';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startClusterPrimary, type ClusterPrimary } from './cluster';
import { ConfigError, loadConfig } from './config';
import { createNewDataDirsApart, createPgliteDataDir, CREATE_DATA_DIR_ENV } from './db/client';
import { DataDirLockedError } from './db/lock';
import { DatabaseUnreachableError } from './db/unavailable';
import { createLogger } from './logger';
import { startServer, type RunningServer } from './server';

// A .env file in the working directory is read if present (see .env.example); real environment variables win.
if (fs.existsSync('.env')) process.loadEnvFile('.env');

// A child this entry started to create a new embedded database (db/client.ts): it does that and exits.
const creating = process.env[CREATE_DATA_DIR_ENV];
if (creating) {
  await createPgliteDataDir(creating);
  process.exit(0);
}
createNewDataDirsApart(fileURLToPath(import.meta.url));

// Signals are handled from the first moment: one that arrives while the database is still opening or migrating
// waits for that to finish and then closes it cleanly, so the data directory is never left half-open.
let server: RunningServer | undefined;
let primary: ClusterPrimary | undefined;
let stopSignal: NodeJS.Signals | undefined;
const FORCE_EXIT_MS = 10_000;

async function stop(signal: NodeJS.Signals) {
  if (stopSignal) return;
  stopSignal = signal;
  if (!server && !primary) return; // start-up finishes first, then sees stopSignal
  const logger = server?.logger ?? primaryLogger;
  logger.info({ signal }, 'shutting down');
  // Whatever hangs, the process ends within 10 s (server.close() bounds each step well within that). A repeated
  // signal changes nothing: under `npm start` a signal to the process group arrives twice (npm forwards its own).
  setTimeout(
    () => {
      logger.error('shutdown took more than 10 s: exiting now');
      process.exit(1);
    },
    FORCE_EXIT_MS + (primary ? 1000 : 0),
  ).unref();
  if (primary) {
    const code = await primary.stop(signal);
    logger.info(code === 0 ? 'every worker closed its database, bye' : 'a worker did not close cleanly');
    process.exit(code);
  }
  const { databaseClosed } = await server!.close();
  logger.info(databaseClosed ? 'database closed, bye' : 'exiting without closing the database cleanly');
  process.exit(databaseClosed ? 0 : 1);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

let primaryLogger = createLogger('info');

try {
  const config = loadConfig();
  const clustered = config.WEB_CONCURRENCY > 1 && config.databaseKind === 'postgres';
  if (cluster.isPrimary && clustered) {
    primaryLogger = createLogger(config.LOG_LEVEL);
    primary = await startClusterPrimary(config, primaryLogger);
    primaryLogger.info(
      { url: config.baseUrl, database: config.databaseKind, workers: config.WEB_CONCURRENCY },
      `Edgebook is running at ${config.baseUrl}`,
    );
  } else {
    server = await startServer({ migrate: cluster.isPrimary });
    if (config.WEB_CONCURRENCY > 1 && config.databaseKind === 'pglite') {
      server.logger.warn('WEB_CONCURRENCY is ignored on the embedded database: PGlite runs in one process');
    }
    if (cluster.isPrimary) {
      server.logger.info({ url: server.url, database: server.database.kind, dataDir: server.config.dataDir }, `Edgebook is running at ${server.url}`);
    }
  }
  if (stopSignal) {
    const signal = stopSignal;
    stopSignal = undefined;
    await stop(signal);
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DatabaseUnreachableError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
