import path from 'node:path';
import { z } from 'zod';
import { invalidProxyEntries } from './http/client-address';

/**
 * The one place that reads the environment. Every variable is validated at start-up and every bad one is named
 * in a single error, so a self-hoster fixes their .env in one pass. `.env.example` documents each of them.
 */

const optionalUrl = z.url().optional();
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('localhost'),
    /** Where the embedded PGlite database (and uploads) live when DATABASE_URL is not set. */
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    /** Public address of the app, used in emailed links and for better-auth's origin check. */
    BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
    /** Signs session cookies and tokens. Generated and stored under DATA_DIR when not given. */
    AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
    SMTP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
    EMAIL_FROM: z.string().min(3).default('Edgebook <no-reply@edgebook.local>'),
    GOOGLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    GOOGLE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Google's OpenID issuer; only tests (or a Google-compatible gateway) change it. */
    GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
    /** Any OpenID Connect provider (Authentik, Keycloak, Authelia, Entra, Okta), discovered from its issuer. */
    OIDC_ISSUER: z.preprocess(emptyToUndefined, optionalUrl),
    OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
    /** The provider's name on the sign-in button ('Sign in with <name>'). */
    OIDC_NAME: z.string().trim().min(1).max(40).default('Single sign-on'),
    CAPTCHA_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['hcaptcha', 'cloudflare-turnstile']).optional()),
    CAPTCHA_SITE_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    CAPTCHA_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    /** The provider's siteverify endpoint; only tests (or a verifying proxy) change it. */
    CAPTCHA_VERIFY_URL: z.preprocess(emptyToUndefined, optionalUrl),
    /** Three comma-separated video URLs (Trades Log, Reflect Page, ReflectAI) instead of the recorded ones. */
    TUTORIAL_VIDEO_URLS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .transform((value) => value.split(',').map((url) => url.trim()))
        .pipe(z.array(z.url({ protocol: /^https?$/ })).length(3, 'give three URLs: Trades Log, Reflect Page, ReflectAI'))
        .optional(),
    ),
    AI_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
    AI_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    AI_REASONING_MODEL: z.preprocess(emptyToUndefined, z.string().optional()),
    /** AI requests (chat, DeepThink, analysis, drafting) one trader may start per minute, and per day. */
    AI_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
    AI_DAILY_LIMIT: z.coerce.number().int().min(1).default(500),
    /** Longest an AI request may run before it is cut off, in seconds. */
    AI_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(120),
    /** The most characters of prompt (system, context, history, question) sent to the provider in one request. */
    AI_MAX_PROMPT_CHARS: z.coerce.number().int().min(1000).default(120_000),
    COMMUNITY_URL: z.url().default('https://discord.com/'),
    SOCIAL_URL: z.url().default('https://x.com/'),
    SUPPORT_EMAIL: z.email().default('support@edgebook.local'),
    /** Sign-in and password-reset attempts allowed per client address per minute. */
    AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    /** Sign-in attempts at one account, from any address, before each further one waits twice as long. */
    AUTH_ACCOUNT_ATTEMPTS: z.coerce.number().int().min(1).default(5),
    /** Reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For names the client. */
    TRUSTED_PROXIES: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Server processes sharing the port (node:cluster), PostgreSQL only; PGlite is one process by design. */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
    /** How long a process reuses a session it looked up (0: every request reads the database). */
    SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    /** PostgreSQL connections per server process. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** Seconds the server waits at start-up for a PostgreSQL server that is not reachable yet, before it gives up. */
    DATABASE_START_TIMEOUT: z.coerce.number().int().min(0).max(3600).default(60),
    /**
     * The ProjectX Gateway API that broker connections speak to: TopstepX's by default. Other prop firms on
     * ProjectX have their own address; tests point it at a stand-in.
     */
    PROJECTX_API_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.topstepx.com' })
      .default('https://api.topstepx.com'),
    /** The firm's name as its traders know it, on the connection screens and in messages. */
    PROJECTX_NAME: z.string().trim().min(1).max(40).default('TopstepX'),
    /** Minutes between scheduled syncs of every connection while the server runs (0: only when a trader asks). */
    PROJECTX_SYNC_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1440).optional()),
    /** Longest one request to the gateway may take, in seconds. */
    PROJECTX_TIMEOUT: z.coerce.number().int().min(1).max(300).default(30),
    /**
     * The crypto exchanges traders connect with a read-only key (or a wallet address): their public APIs by default;
     * tests point them at stand-ins. Binance reads futures from its USD-M API and a key's permissions from its spot API.
     */
    BINANCE_FUTURES_API_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://fapi.binance.com' })
      .default('https://fapi.binance.com'),
    BINANCE_API_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.binance.com' })
      .default('https://api.binance.com'),
    BYBIT_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.bybit.com' }).default('https://api.bybit.com'),
    HYPERLIQUID_API_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.hyperliquid.xyz' })
      .default('https://api.hyperliquid.xyz'),
    /** Longest one request to an exchange may take, in seconds. */
    EXCHANGE_TIMEOUT: z.coerce.number().int().min(1).max(300).default(30),
    /**
     * A weekly economic calendar in the JSON the public calendars publish (title, country, date, impact, forecast,
     * previous). Without one the dashboard's events card shows its sample week, labelled as mock data, and the reports'
     * news filter has only the events a trader imported from a file. Each good read keeps the high-impact USD events.
     */
    ECONOMIC_CALENDAR_URL: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of a weekly calendar in JSON' }).optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_SECRET'], message: 'set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither' });
    }
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none' });
    }
    const badProxies = env.TRUSTED_PROXIES ? invalidProxyEntries(env.TRUSTED_PROXIES) : [];
    if (badProxies.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['TRUSTED_PROXIES'], message: `not an address or CIDR range: ${badProxies.join(', ')}` });
    }
    if (env.CAPTCHA_PROVIDER && (!env.CAPTCHA_SITE_KEY || !env.CAPTCHA_SECRET_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['CAPTCHA_SECRET_KEY'], message: 'CAPTCHA_PROVIDER needs CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  dataDir: string;
  /** The captcha sign-ups must pass, or null when none is configured or in development mode. */
  captcha: null | { provider: 'hcaptcha' | 'cloudflare-turnstile'; siteKey: string; secretKey: string };
  baseUrl: string;
  databaseKind: 'pglite' | 'postgres';
  /** PROJECTX_SYNC_MINUTES, or its default: every 15 minutes, never under NODE_ENV=test (tests sync on demand). */
  projectxSyncMinutes: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  const env = parsed.data;
  const displayHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  return {
    ...env,
    dataDir: env.DATA_DIR.startsWith('memory://') ? 'memory://' : path.resolve(env.DATA_DIR),
    baseUrl: (env.BASE_URL ?? `http://${displayHost}:${env.PORT}`).replace(/\/$/, ''),
    databaseKind: env.DATABASE_URL ? 'postgres' : 'pglite',
    projectxSyncMinutes: env.PROJECTX_SYNC_MINUTES ?? (env.NODE_ENV === 'test' ? 0 : 15),
    captcha:
      env.CAPTCHA_PROVIDER && env.CAPTCHA_SITE_KEY && env.CAPTCHA_SECRET_KEY && env.NODE_ENV !== 'development'
        ? { provider: env.CAPTCHA_PROVIDER, siteKey: env.CAPTCHA_SITE_KEY, secretKey: env.CAPTCHA_SECRET_KEY }
        : null,
  };
}
