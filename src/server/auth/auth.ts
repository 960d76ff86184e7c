import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { captcha } from 'better-auth/plugins/captcha';
import type { Config } from '../config';
import type { Database } from '../db/client';
import * as schema from '../db/schema';
import type { Mailer } from '../email';

export type Auth = ReturnType<typeof createAuth>;

/** Paths (under /api/auth) that are rate-limited per client address: sign-in and password reset. */
export const limitedAuthPaths = ['/sign-in/email', '/request-password-reset', '/reset-password', '/send-verification-email'];

export function createAuth(deps: { config: Config; database: Database; mailer: Mailer; secret: string }) {
  const { config, database, mailer } = deps;
  const verifyEmail = mailer.delivers;
  const perMinute = { window: 60, max: config.AUTH_RATE_LIMIT };

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
      requireEmailVerification: verifyEmail,
      autoSignIn: !verifyEmail,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
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
    socialProviders:
      config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
        ? { google: { clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET } }
        : {},
    databaseHooks: {
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
    plugins:
      config.CAPTCHA_PROVIDER && config.CAPTCHA_SECRET_KEY
        ? [captcha({ provider: config.CAPTCHA_PROVIDER, secretKey: config.CAPTCHA_SECRET_KEY, endpoints: ['/sign-up/email', '/sign-in/email', '/request-password-reset'] })]
        : [],
    logger: { disabled: config.NODE_ENV === 'test' },
  });
}
