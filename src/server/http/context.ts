import type { AiService } from '../ai';
import type { Auth } from '../auth/auth';
import type { CaptchaService } from '../auth/captcha';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Logger } from '../logger';
import type { Mailer } from '../email';
import type { FileStorage } from '../storage';
import type { SessionCache } from './session';

export interface AppDeps {
  config: Config;
  database: Database;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
  storage: FileStorage;
  /** Every call to the AI provider goes through this (src/server/ai). */
  ai: AiService;
  captcha: CaptchaService;
  /** Aborted when the server starts shutting down: long-lived responses (streams) end themselves on it. */
  shutdown?: AbortSignal;
  /** Sessions this process has looked up recently (http/session.ts): a route that ends sessions clears it. */
  sessions?: SessionCache;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** Hono variables: every protected route reads the signed-in user from here, never from the request body. */
export type AppEnv = {
  Variables: {
    user: SessionUser;
    requestId: string;
    /** The client's address: the socket's, or the forwarded one behind a TRUSTED_PROXIES proxy. */
    clientIp: string;
  };
};
