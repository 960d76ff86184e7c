import fs from 'node:fs';
import { ConfigError } from './config';
import { DataDirLockedError } from './db/lock';
import { startServer } from './server';

// A .env file in the working directory is read if present (see .env.example); real environment variables win.
if (fs.existsSync('.env')) process.loadEnvFile('.env');

try {
  const server = await startServer();
  server.logger.info({ url: server.url, database: server.database.kind, dataDir: server.config.dataDir }, `Edgebook is running at ${server.url}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    await server.close();
    server.logger.info('database closed, bye');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
