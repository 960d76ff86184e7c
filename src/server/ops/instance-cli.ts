import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import { createLogger } from '../logger';
import { backupInstance, RestoreRefused, restoreInstance } from './instance-backup';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (a backup of PostgreSQL may run beside the server). The
 * database and DATA_DIR come from the same settings the server reads (the environment, then a .env file in the working
 * directory), so a restore with DATABASE_URL set moves an embedded instance onto PostgreSQL.
 */

if (fs.existsSync('.env')) process.loadEnvFile('.env');

const [command, file] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !file) {
  console.error('usage: npm run backup -- FILE   |   npm run restore -- FILE');
  process.exit(2);
}

try {
  const config = loadConfig();
  if (config.dataDir === 'memory://') throw new Error('DATA_DIR is memory://: there is no instance on disk to back up or restore into.');
  const target = path.resolve(file);
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  // Opening runs the migrations: a restore lands in the newest schema of this version, as the server would make it.
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: 2,
    logger,
    startTimeoutMs: config.DATABASE_START_TIMEOUT * 1000,
    autovacuum: false,
  });
  const place = { database, dataDir: config.dataDir, authSecret: config.AUTH_SECRET };
  const where = config.DATABASE_URL ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`;
  try {
    if (command === 'backup') {
      const done = await backupInstance(place, target);
      console.log(`Backed up ${where} to ${target}: ${done.tables} tables, ${done.rows} rows, ${done.files} files.`);
    } else {
      const done = await restoreInstance(place, target);
      console.log(`Restored ${target} into ${where}: ${done.tables} tables, ${done.rows} rows, ${done.files} files.`);
    }
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof RestoreRefused || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
}
