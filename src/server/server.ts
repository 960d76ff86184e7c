import crypto from 'node:crypto';
import type http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createAiService } from './ai';
import { createApp } from './app';
import { freePort } from './free-port';
import { createAuth, type PasswordHashing } from './auth/auth';
import { loadConfig, type Config } from './config';
import { openDatabase, queryRows, type Database } from './db/client';
import { useDatabaseTimeZones } from '../contract/common';
import { sql } from 'drizzle-orm';
import { createLogger, type Logger } from './logger';
import { createMailer, type Mailer } from './email';
import { createDirectoryStorage, createMemoryStorage } from './storage';
import { createCaptchaService } from './auth/captcha';
import { createConnectionsRuntime, type ConnectionsRuntime } from './features/connections/runtime';
import { remeasureUnmeasured } from './core/market/excursions';
import { describeError } from './http/error-log';
import { sweepStoppedServersUploads } from './http/read-upload';

export interface RunningServer {
  url: string;
  /** The Hono app: its `routes` list every endpoint (the fuzz test walks them). */
  app: ReturnType<typeof createApp>;
  port: number;
  config: Config;
  database: Database;
  logger: Logger;
  mailer: Mailer;
  /** Bounded: resolves within a few seconds whatever is open (see closeWithin). */
  close(): Promise<{ databaseClosed: boolean }>;
  /** Broker connections of this process (tests wait for its syncs). */
  connections: ConnectionsRuntime;
}

/** AUTH_SECRET, or one generated once and kept beside the data so sessions survive restarts. */
export function authSecret(config: Config): string {
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  if (config.dataDir === 'memory://') return crypto.randomBytes(32).toString('base64url');
  const file = path.join(config.dataDir, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Start the embedded database from a migrated dump (tests). */
  loadDataDir?: Blob;
  /** false in cluster workers: the primary ran the migrations before forking them. */
  migrate?: boolean;
  /** Password hashing in place of better-auth's scrypt (N=16384): the tests' servers pass a cheaper one. */
  passwordHashing?: PasswordHashing;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  let config = loadConfig(options.env ?? process.env);
  if (config.PORT === 0) {
    const port = await freePort(config.HOST);
    config = loadConfig({ ...(options.env ?? process.env), PORT: String(port) });
  }
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    loadDataDir: options.loadDataDir,
    migrate: options.migrate,
    poolSize: config.DATABASE_POOL_SIZE,
    logger,
    startTimeoutMs: config.DATABASE_START_TIMEOUT * 1000,
  });
  // Requests name zones the database knows, spelled its way (src/contract/common.ts timeZone).
  useDatabaseTimeZones((await queryRows<{ name: string }>(database.db, sql`select name from pg_timezone_names`)).map((row) => row.name));
  // What a server killed half way through an upload left in the temporary folder.
  void sweepStoppedServersUploads().catch((error: unknown) => logger.warn({ err: error }, 'could not sweep the uploads of stopped servers'));
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.EMAIL_FROM, logger });
  const captcha = createCaptchaService({ config, database });
  // Read once: without AUTH_SECRET on an in-memory database each call makes up a new one.
  const secret = authSecret(config);
  const auth = createAuth({ config, database, mailer, secret, captcha, logger, passwordHashing: options.passwordHashing });
  const storage = config.dataDir === 'memory://' ? createMemoryStorage() : createDirectoryStorage(path.join(config.dataDir, 'uploads'));
  const ai = createAiService({ config, database, logger });
  // Aborted when shutdown starts: open streams (chat, DeepThink) end with it instead of being cut.
  const shutdown = new AbortController();
  const connections = createConnectionsRuntime({ config, database, logger, authSecret: secret, shutdown: shutdown.signal });
  const app = createApp({ config, database, auth, mailer, logger, storage, ai, captcha, shutdown: shutdown.signal }, { connections });

  const server: ServerType = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => resolve(s));
    s.once('error', reject);
  }).catch(async (error: unknown) => {
    shutdown.abort();
    await connections.close();
    throw error;
  });

  // Trades whose MAE and MFE are due (bars the trader may read are there, no figures stored yet: after an upgrade that
  // changed how they are computed) are measured in the background, a trader and a contract at a time.
  const remeasure = setTimeout(() => {
    void remeasureUnmeasured(database, { signal: shutdown.signal })
      .then((computed) => computed > 0 && logger.info({ computed }, 'trades measured from their bars'))
      .catch((error: unknown) => logger.warn({ error: describeError(error) }, 'trades could not be measured from their bars'));
  }, REMEASURE_AFTER_MS);
  remeasure.unref();
  shutdown.signal.addEventListener('abort', () => clearTimeout(remeasure), { once: true });

  let closing: Promise<{ databaseClosed: boolean }> | undefined;
  return {
    url: config.baseUrl,
    app,
    port: config.PORT,
    config,
    database,
    logger,
    mailer,
    connections,
    close() {
      closing ??= closeWithin(server as http.Server, database, logger, shutdown, connections);
      return closing;
    },
  };
}

/** The background measure of trades due their MAE and MFE starts this long after the server. */
const REMEASURE_AFTER_MS = 3_000;

/** How long requests under way get to finish once a shutdown starts, and how long the database gets to close. */
export const SHUTDOWN_GRACE_MS = 2000;
export const DATABASE_CLOSE_MS = 3000;

/**
 * A bounded shutdown: stop accepting, tell open streams to end (AppDeps.shutdown), close idle
 * keep-alive connections at once and every other one after a short grace, then close the database with a time limit.
 * A request stuck inside a transaction made PGlite's close (and pg's pool.end) wait forever, and the server with it.
 */
async function closeWithin(
  server: http.Server,
  database: Database,
  logger: Logger,
  shutdown: AbortController,
  connections: ConnectionsRuntime,
): Promise<{ databaseClosed: boolean }> {
  shutdown.abort();
  // Broker syncs stop their requests at once (the signal); one in its transaction gets the grace to finish it.
  const syncsStopped = connections.close();
  const connectionsClosed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  if ((await within(connectionsClosed, SHUTDOWN_GRACE_MS)) === 'timeout') {
    server.closeAllConnections();
    await within(connectionsClosed, 500);
  }
  await within(syncsStopped, 500);
  if ((await within(database.close(), DATABASE_CLOSE_MS)) === 'timeout') {
    // The process exits all the same: PostgreSQL rolls the open transaction back, and PGlite recovers it from its
    // write-ahead log on the next start; the data-directory lock names a dead process then and is taken over.
    logger.warn({ afterMs: DATABASE_CLOSE_MS }, 'the database did not close in time (a request was still in a transaction)');
    return { databaseClosed: false };
  }
  return { databaseClosed: true };
}

function within(promise: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms))),
  ]).finally(() => clearTimeout(timer));
}
