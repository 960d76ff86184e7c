import { z } from 'zod';
import { REFLECTION_PERIODS } from '../../../domain/reflections';
import { accountFilter } from '../trades/schemas';

const period = z.enum(REFLECTION_PERIODS as ['day', 'week', 'month'], { error: 'period must be day, week or month' });
// Ten years of days back is far beyond any journal; a bound keeps the date arithmetic sane.
const offset = z.coerce.number({ error: 'offset must be a whole number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').max(3660, 'offset must be at most 3660').default(0);

export const reflectionsQuery = z.object({
  period: period.default('week'),
  offset,
  account: accountFilter,
});
export type ReflectionsQuery = z.infer<typeof reflectionsQuery>;

export const tradeIdParam = z.object({ tradeId: z.uuid('tradeId must be a trade id') });

const tag = z.string().trim().min(1, 'tags must not be blank').max(50, 'tags must be at most 50 characters each');

export const overridePatch = z
  .object({
    followed_rules: z.boolean({ error: 'followed_rules must be true, false or null' }).nullable().optional(),
    tags: z.array(tag, { error: 'tags must be a list of tags' }).max(20, 'tags must be at most 20').nullable().optional(),
    description: z.string({ error: 'description must be text' }).max(5000, 'description must be at most 5000 characters').nullable().optional(),
  })
  .strict()
  .refine((p) => p.followed_rules !== undefined || p.tags !== undefined || p.description !== undefined, 'Nothing to update');
export type OverridePatch = z.infer<typeof overridePatch>;

/**
 * POST /api/analyze-reflections. Our page sends {period, offset, account}. The spec's analysis server took
 * {trades, timeframe} (part 2 §7): `timeframe` is read as the period, and `trades` (reflections or trades with an
 * id) narrows the analysis to those of the trader's own trades; their contents are never trusted, the figures always
 * come from the database.
 */
export const analyzeInput = z
  .object({
    period: period.optional(),
    timeframe: period.optional(),
    offset,
    account: accountFilter,
    trades: z
      .array(z.object({ tradeId: z.uuid().optional(), id: z.string().max(100).optional() }).passthrough(), { error: 'trades must be a list' })
      .max(10_000, 'trades must be at most 10000')
      .optional(),
  })
  .strict();
export type AnalyzeInput = z.infer<typeof analyzeInput>;

/** What the model must return (part 2 §5: valid JSON with summary, strengths and weaknesses). */
const prose = z
  .array(z.unknown())
  .transform((items) => items.filter((i): i is string => typeof i === 'string' && i.trim() !== '').map((i) => i.trim().slice(0, 600)).slice(0, 10));

export const modelAnalysis = z.object({
  summary: z.union([z.object({ patterns: prose.optional() }).passthrough(), z.string()]),
  strengths: prose,
  weaknesses: prose,
  suggestions: prose.optional(),
  actionPlan: prose.optional(),
});
