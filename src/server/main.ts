import fs from 'node:fs';
import { ConfigError } from './config';
import { DataDirLockedError } from './db/lock';
import { startServer, type RunningServer } from './server';

// A .env file in the working directory is read if present (see .env.example); real environment variables win.
if (fs.existsSync('.env')) process.loadEnvFile('.env');

// Signals are handled from the first moment: one that arrives while the database is still opening or migrating
// waits for that to finish and then closes it cleanly, so the data directory is never left half-open.
let server: RunningServer | undefined;
let stopSignal: string | undefined;

async function stop(signal: string) {
  if (stopSignal) return;
  stopSignal = signal;
  if (!server) return; // start-up finishes first, then sees stopSignal
  server.logger.info({ signal }, 'shutting down');
  await server.close();
  server.logger.info('database closed, bye');
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

try {
  server = await startServer();
  server.logger.info({ url: server.url, database: server.database.kind, dataDir: server.config.dataDir }, `Edgebook is running at ${server.url}`);
  if (stopSignal) {
    const signal = stopSignal;
    stopSignal = undefined;
    await stop(signal);
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
