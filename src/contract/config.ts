import { z } from 'zod';
import { timeZone } from './common';

/** The public endpoints' contract: GET /api/config, GET /api/health, and POST /api/onboarding. */

/** GET /api/config: public settings of this Edgebook server. */
export const appConfig = z.strictObject({
  emailVerification: z.boolean(),
  googleSignIn: z.boolean(),
  /** The self-hoster's OpenID Connect provider, by the name its button shows. */
  oidc: z.strictObject({ name: z.string() }).nullable(),
  captcha: z.strictObject({ provider: z.enum(['hcaptcha', 'cloudflare-turnstile']), siteKey: z.string() }).nullable(),
  /** Hosted tutorial videos (Trades Log, Reflect Page, ReflectAI), or null for the recorded ones. */
  tutorialVideoUrls: z.array(z.string()).length(3).nullable(),
  links: z.strictObject({ community: z.string(), social: z.string(), support: z.string() }),
  /** Whether this server has an AI provider (never its key or address), and its models. */
  ai: z.strictObject({ configured: z.boolean(), model: z.string().nullable(), reasoningModel: z.string().nullable() }),
});

/** GET /api/health */
export const health = z.strictObject({
  ok: z.boolean(),
  database: z.enum(['pglite', 'postgres']),
  /** Only when the database cannot be reached (503, with Retry-After). */
  error: z.string().optional(),
});

/**
 * POST /api/onboarding (body optional): the browser's time zone, which becomes the trader's own at their first
 * sign-in; without it, or after that, the trader's zone stays as it is.
 */
export const onboardingInput = z
  .object({
    time_zone: timeZone().optional(),
  })
  .strict();

/** POST /api/onboarding: whether this request created the sample trades and onboarding tasks (once per trader). */
export const onboardingResult = z.strictObject({ created: z.boolean() });

export type AppConfig = z.infer<typeof appConfig>;
export type Health = z.infer<typeof health>;
export type OnboardingInput = z.infer<typeof onboardingInput>;
export type OnboardingResult = z.infer<typeof onboardingResult>;
