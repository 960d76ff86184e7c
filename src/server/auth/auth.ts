import { AsyncLocalStorage } from 'node:async_hooks';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth, type GenericOAuthConfig } from 'better-auth/plugins/generic-oauth';
import { twoFactor } from 'better-auth/plugins/two-factor';
import type { Config } from '../config';
import type { Database } from '../db/client';
import * as schema from '../db/schema';
import type { Mailer } from '../email';
import type { CaptchaService } from './captcha';
import { isDatabaseUnavailable } from '../db/unavailable';
import { describeError } from '../http/error-log';
import type { Logger } from '../logger';
import { assertAuthBody } from './guards';
import { checkProviderSession, noteProviderProfile } from './provider-sign-in';
import { createSignInLimiter } from './sign-in-limits';

export type Auth = ReturnType<typeof createAuth>;

/**
 * better-auth answers a failed query with its own 500, which says nothing of the cause; only the error it logs does
 * (its error hook is not called for every failure). So its logger below notes it: a request forwarded through
 * `watchAuthFailures` learns whether the database was away.
 */
const authFailures = new AsyncLocalStorage<{ databaseAway: boolean }>();

export async function watchAuthFailures<T>(run: () => Promise<T>): Promise<{ result: T; databaseAway: boolean }> {
  const seen = { databaseAway: false };
  const result = await authFailures.run(seen, run);
  return { result, databaseAway: seen.databaseAway };
}

/**
 * Paths (under /api/auth) that are rate-limited per client address: every step of signing in (password, the
 * second factor, the start of and return from Google or the OpenID provider), every check of a signed-in trader's
 * password (change it, two-factor settings), and reset. Each is limited per account too (sign-in-limits.ts).
 */
export const limitedAuthPaths = [
  '/sign-in/email',
  '/sign-in/social',
  '/callback/*',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
  '/two-factor/verify-otp',
  '/change-password',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
  '/request-password-reset',
  '/reset-password',
  '/send-verification-email',
];

/** The captcha provider's name as the trader sees it in messages. */
export const captchaLabel = (provider: 'hcaptcha' | 'cloudflare-turnstile') => (provider === 'hcaptcha' ? 'hCaptcha' : 'Turnstile');

/** Both Google and the self-hoster's own identity provider are OpenID Connect, discovered from their issuer. */
export function oauthProviders(config: Config): GenericOAuthConfig[] {
  const providers: GenericOAuthConfig[] = [];
  // With a captcha, an unknown account may only be created from the register page, which passes the captcha first.
  const disableImplicitSignUp = config.captcha !== null;
  // Changes nothing in the profile: it tells the sign-in limits which account the provider vouches for.
  const noteProfile = (profile: Record<string, unknown>) => {
    noteProviderProfile(profile);
    return {};
  };
  const discovery = (issuer: string) => `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    providers.push({
      providerId: 'google',
      name: 'Google',
      discoveryUrl: discovery(config.GOOGLE_ISSUER),
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      scopes: ['openid', 'email', 'profile'],
      requireIdTokenVerification: true,
      disableImplicitSignUp,
      mapProfileToUser: noteProfile,
    });
  }
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) {
    providers.push({
      providerId: 'oidc',
      name: config.OIDC_NAME,
      discoveryUrl: discovery(config.OIDC_ISSUER),
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      scopes: ['openid', 'email', 'profile'],
      requireIdTokenVerification: true,
      disableImplicitSignUp,
      mapProfileToUser: noteProfile,
    });
  }
  return providers;
}

/** How passwords are hashed and checked; better-auth's own scrypt unless a caller (the tests) gives another. */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
}

export function createAuth(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  secret: string;
  captcha: CaptchaService;
  logger?: Logger;
  passwordHashing?: PasswordHashing;
}) {
  const { config, database, mailer, captcha } = deps;
  const providers = oauthProviders(config);
  const verifyEmail = mailer.delivers;
  const perMinute = { window: 60, max: config.AUTH_RATE_LIMIT };
  // The per-account count of a return from Google or the OpenID provider (provider-sign-in.ts); state is in the
  // database, so this limiter and the handler's share it.
  const limiter = createSignInLimiter(database, config.AUTH_ACCOUNT_ATTEMPTS);

  return betterAuth({
    appName: 'Edgebook',
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: deps.secret,
    trustedOrigins: [config.baseUrl],
    database: drizzleAdapter(database.db, { provider: 'pg', schema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      ...(deps.passwordHashing && { password: { hash: deps.passwordHashing.hash, verify: deps.passwordHashing.verify } }),
      requireEmailVerification: verifyEmail,
      autoSignIn: !verifyEmail,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // With email confirmation on, signing up with a registered email answers exactly as a new sign-up does (so the
      // form does not reveal who has an account); the owner hears of it by email instead.
      async onExistingUserSignUp({ user }) {
        await mailer.send({
          to: user.email,
          subject: 'Someone tried to create an Edgebook account with your email',
          text: `Someone tried to create a new Edgebook account with this email address, which already has one.\n\nIf it was you, sign in instead, or reset your password from the sign-in page:\n${config.baseUrl}/login\n\nIf it was not you, you can ignore this email: nothing was changed.`,
        });
      },
      async sendResetPassword({ user, url }) {
        await mailer.send({
          to: user.email,
          subject: 'Reset your Edgebook password',
          text: `Someone asked to reset the password of your Edgebook account.\n\nSet a new password here (valid for one hour):\n${url}\n\nIf it was not you, ignore this email.`,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: verifyEmail,
      sendOnSignIn: verifyEmail,
      autoSignInAfterVerification: true,
      async sendVerificationEmail({ user, url }) {
        await mailer.send({
          to: user.email,
          subject: 'Confirm your Edgebook account',
          text: `Welcome to Edgebook.\n\nConfirm your email address to sign in:\n${url}\n`,
        });
      },
    },
    // Google and the OpenID provider link to an existing account of the same email only when the provider says the
    // email is verified (better-auth's default: no trusted providers, local email verified too).
    account: { accountLinking: { enabled: true, trustedProviders: [] } },
    hooks: {
      // Every sign-up passes the captcha, whichever way it comes: the server checks, not the form.
      before: createAuthMiddleware(async (ctx) => {
        // Limits better-auth does not set on its own bodies (a null name was a database error, a 500).
        assertAuthBody(ctx.path, ctx.body);
        if (!config.captcha) return;
        const body = ctx.body as { requestSignUp?: unknown } | undefined;
        const signingUp = ctx.path === '/sign-up/email' || (ctx.path === '/sign-in/social' && body?.requestSignUp === true);
        if (!signingUp) return;
        const pass = ctx.headers?.get('x-captcha-response');
        const label = captchaLabel(config.captcha.provider);
        if (!pass) throw new APIError('BAD_REQUEST', { code: 'CAPTCHA_REQUIRED', message: `Please complete the ${label} verification` });
        if (!(await captcha.consumePass(pass))) {
          throw new APIError('FORBIDDEN', { code: 'CAPTCHA_FAILED', message: `${label} verification failed. Please try again.` });
        }
      }),
    },
    databaseHooks: {
      session: {
        create: {
          async before(session, ctx) {
            if (!ctx?.path.startsWith('/callback/')) return;
            const user = await ctx.context.internalAdapter.findUserById(session.userId);
            await checkProviderSession(limiter, user?.email);
          },
        },
      },
      user: {
        create: {
          // Without SMTP nobody could receive a confirmation email: the account is confirmed at once.
          async before(user) {
            return { data: { ...user, emailVerified: verifyEmail ? user.emailVerified : true } };
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 300,
      customRules: { ...Object.fromEntries(limitedAuthPaths.map((p) => [p, perMinute])), '/get-session': false },
    },
    advanced: {
      // The node adapter sees no client address; app.ts sets x-real-ip from the socket (and drops any forged one).
      ipAddress: { ipAddressHeaders: ['x-real-ip'] },
      database: { generateId: 'uuid' },
      useSecureCookies: config.baseUrl.startsWith('https://'),
    },
    plugins: [
      ...(providers.length > 0 ? [genericOAuth({ config: providers })] : []),
      // TOTP with an authenticator app, and one-time backup codes (stored encrypted). It guards password sign-in;
      // Google and the OpenID provider apply their own second factor.
      twoFactor({ issuer: 'Edgebook', backupCodeOptions: { amount: 10, length: 10 } }),
    ],
    // Through our logger, and without the values better-auth passes along (bodies, SQL parameters): errors only as
    // their kind, code and stack frames.
    logger: {
      disabled: !deps.logger,
      // Warnings and errors only: its info lines quote emails ("Sign-up attempt for existing email: ..."). Its
      // errors are mostly what hostile or stale requests cause (a forged OAuth state, an expired token), so they are
      // warnings here; a failure of the server itself still answers 500 and is counted by its status.
      level: 'warn',
      log: (level, message, ...args) => {
        if (args.some(isDatabaseUnavailable)) {
          const seen = authFailures.getStore();
          if (seen) seen.databaseAway = true;
        }
        deps.logger?.warn({ auth: level, errors: args.filter((a) => a instanceof Error).map((a) => describeError(a)) }, message);
      },
    },
  });
}
