import { z } from 'zod';

/**
 * The trading-accounts endpoints' one contract (issue 14): the server validates requests with these schemas and types
 * its responses with them, the web app takes its types from here (types only: no zod in the browser bundle), and
 * the API tests check every response against them.
 */

const name = z.string({ error: 'Account name is required' }).trim().min(1, 'Account name is required').max(100, 'Account name must be at most 100 characters');
const description = z.string().trim().max(500, 'Description must be at most 500 characters').nullable().optional();

/** POST /api/accounts */
export const accountInput = z.object({ name, description, is_default: z.boolean().optional().default(false) });
/** PATCH /api/accounts/:id */
export const accountPatch = z
  .object({ name: name.optional(), description, is_default: z.boolean().optional() })
  .refine((p) => Object.keys(p).length > 0, 'Nothing to update');

/** One account, as every accounts endpoint answers it. */
export const tradingAccount = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  is_default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** GET /api/accounts */
export const tradingAccountList = z.array(tradingAccount);

export type AccountInput = z.infer<typeof accountInput>;
export type AccountPatch = z.infer<typeof accountPatch>;
export type TradingAccount = z.infer<typeof tradingAccount>;
