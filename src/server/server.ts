import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createAiService } from './ai';
import { createApp } from './app';
import { freePort } from './free-port';
import { createAuth } from './auth/auth';
import { loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { createLogger, type Logger } from './logger';
import { createMailer, type Mailer } from './email';
import { createDirectoryStorage, createMemoryStorage } from './storage';
import { createCaptchaService } from './features/captcha/service';

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  database: Database;
  logger: Logger;
  mailer: Mailer;
  close(): Promise<void>;
}

/** AUTH_SECRET, or one generated once and kept beside the data so sessions survive restarts. */
function authSecret(config: Config): string {
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
  });
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.EMAIL_FROM, logger });
  const captcha = createCaptchaService({ config, database });
  const auth = createAuth({ config, database, mailer, secret: authSecret(config), captcha });
  const storage = config.dataDir === 'memory://' ? createMemoryStorage() : createDirectoryStorage(path.join(config.dataDir, 'uploads'));
  const ai = createAiService({ config, database, logger });
  const app = createApp({ config, database, auth, mailer, logger, storage, ai, captcha });

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => resolve(s));
    s.once('error', reject);
  });

  let closing: Promise<void> | undefined;
  return {
    url: config.baseUrl,
    port: config.PORT,
    config,
    database,
    logger,
    mailer,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await database.close();
      })();
      return closing;
    },
  };
}
