import { z } from 'zod';
import { decimal, dollarAmount, instant, storedDecimal } from './common';

/**
 * Default planned risk: per account (or every account) and instrument root (or any), a stop
 * distance in points or dollars a trade, for trades without a plan of their own. Amounts as exact decimal strings.
 */

/** PUT /api/risk-defaults: sets the default of one account and root (made or replaced). */
export const riskDefaultInput = z.object({
  /** null: every account. */
  account_id: z.uuid('account_id must be a trading account id or null').nullable().default(null),
  /** An instrument root (NQ, MES; a contract such as NQZ5 reads as its root); null or '': any instrument. */
  root: z
    .string()
    .max(20)
    .nullable()
    .default(null)
    .transform((value) => (value && value.trim() ? value.trim() : null)),
  /** Points from the entry, more than 0 as stored (numeric(24,8)). */
  stop_points: storedDecimal({ positive: true }).nullable().optional(),
  risk_amount: dollarAmount().nullable().optional(),
});

export const riskDefaultParam = z.object({ id: z.uuid('id must be a risk default id') });

export const riskDefault = z.strictObject({
  id: z.uuid(),
  account_id: z.uuid().nullable(),
  root: z.string().nullable(),
  stop_points: decimal.nullable(),
  risk_amount: decimal.nullable(),
  updated_at: instant,
});

/** GET /api/risk-defaults: most specific first (account and root, account, root, any). */
export const riskDefaultList = z.array(riskDefault);

export type RiskDefaultInput = z.infer<typeof riskDefaultInput>;
export type RiskDefaultBody = z.input<typeof riskDefaultInput>;
export type RiskDefaultDto = z.infer<typeof riskDefault>;

/**
 * Mistakes: the tags a trader marks as mistakes (FOMO, moved stop, oversized). PUT sets the whole
 * list; names compare without case, as tags do.
 */
export const mistakeTagsInput = z.object({
  tags: z
    .array(z.string().trim().min(1, 'tags: a tag name must not be empty').max(100, 'tags: a tag name must be at most 100 characters'))
    .max(100, 'tags: at most 100 mistakes'),
});
export const mistakeTags = z.strictObject({ tags: z.array(z.string()) });
export type MistakeTags = z.infer<typeof mistakeTags>;
