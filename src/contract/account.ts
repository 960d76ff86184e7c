import { z } from 'zod';
import { instant } from './common';

/**
 * The trader's own account data and the captcha check: GET /api/account/export, DELETE /api/account and
 * POST /api/verify-recaptcha.
 */

/** DELETE /api/account: the account's email typed again to confirm. */
export const deleteAccountInput = z.object({ email: z.string({ error: 'email must be text' }).max(320, 'email must be at most 320 characters') });
/** DELETE /api/account */
export const accountDeleted = z.strictObject({ deleted: z.literal(true) });

/** GET /api/account/export: one JSON file of everything the trader has here, without secrets. */
export const accountExport = z.strictObject({
  format: z.literal('edgebook-export'),
  version: z.literal(1),
  exported_at: instant,
  user: z.strictObject({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    email_verified: z.boolean(),
    two_factor_enabled: z.boolean(),
    created_at: instant,
  }),
  sign_in_methods: z.array(z.strictObject({ provider: z.string(), created_at: instant })),
  sessions: z.array(
    z.strictObject({ created_at: instant, expires_at: instant, ip_address: z.string().nullable(), user_agent: z.string().nullable() }),
  ),
  /** Each owned table's rows as stored (money and prices as exact decimal strings). */
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  /** Uploaded files (avatars, attachments), base64. */
  files: z.array(z.strictObject({ key: z.string(), size: z.number().int().nonnegative(), base64: z.base64() })),
});

/** POST /api/verify-recaptcha */
export const verifyCaptchaInput = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(10_000, 'token is too long'),
});
/** Its answer: with `pass`, the one-time proof the sign-up that follows sends. A provider out of reach: 502 with `error`. */
export const captchaVerdict = z.strictObject({ success: z.boolean(), pass: z.string().optional(), error: z.string().optional() });

export type AccountExport = z.infer<typeof accountExport>;
export type AccountDeleted = z.infer<typeof accountDeleted>;
export type CaptchaVerdict = z.infer<typeof captchaVerdict>;
