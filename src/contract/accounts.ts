import { z } from 'zod';
import { ACCOUNT_KINDS, type AccountKind } from '../domain/prop/types';
import { MAX_MONEY_CENTS, MONEY_RANGE_MESSAGE, toCents } from '../domain/cents';
import { CURRENCIES } from '../domain/reports/currency';
import { decimal } from './common';

/**
 * The trading-accounts endpoints' one contract: the server validates requests with these schemas and types
 * its responses with them, the web app takes its types from here (types only: no zod in the browser bundle), and
 * the API tests check every response against them.
 */

const name = z
  .string({ error: 'Account name is required' })
  .trim()
  .min(1, 'Account name is required')
  .max(100, 'Account name must be at most 100 characters');
const description = z.string().trim().max(500, 'Description must be at most 500 characters').nullable().optional();

/** What kind of account it is; a prop firm's evaluation or funded account has rules (src/domain/prop). */
const kind = z.enum(ACCOUNT_KINDS as [AccountKind, ...AccountKind[]], { error: "must be 'personal', 'evaluation' or 'funded'" });
/** An amount of money as a number or a decimal string ("50000", 50000.5); numeric(16,2) holds under a billion. */
const amount = () =>
  z
    .union([z.number(), z.string().max(100)], { error: 'must be an amount of money' })
    .refine((v) => (typeof v === 'number' ? Number.isFinite(v) : /^\s*-?\d+(\.\d+)?\s*$/.test(v)), 'must be an amount of money such as 50000.00')
    .refine((v) => Math.abs(toCents(v)) <= MAX_MONEY_CENTS, MONEY_RANGE_MESSAGE);
/** The plan's size (a 50K account: 50000), positive once rounded to the cent as stored; null for none. */
const size = amount()
  .refine((v) => Number(v) > 0, 'must be more than 0')
  .refine((v) => toCents(v) > 0, 'must be at least 0.01')
  .nullable()
  .optional();
/** The balance its equity curve, balance and percentages start from (10000 by default). */
const startingBalance = amount().optional();
const firm = z.string().trim().max(100, 'must be at most 100 characters').nullable().optional();
/** What the account's money is counted in: USD, or an exchange's USDT or USDC (never added to another currency's). */
const currency = z.enum(CURRENCIES, { error: "must be 'USD', 'USDT' or 'USDC'" });
const fields = { description, kind: kind.optional(), size, starting_balance: startingBalance, firm, currency: currency.optional() };

/** POST /api/accounts */
export const accountInput = z.object({ name, ...fields, is_default: z.boolean().optional().default(false) });
/** PATCH /api/accounts/:id */
export const accountPatch = z
  .object({ name: name.optional(), ...fields, is_default: z.boolean().optional() })
  .refine((p) => Object.keys(p).length > 0, 'Nothing to update');

/** One account, as every accounts endpoint answers it. */
export const tradingAccount = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  is_default: z.boolean(),
  kind,
  /** Exact decimal strings ("50000.00"). */
  size: decimal.nullable(),
  starting_balance: decimal,
  firm: z.string().nullable(),
  currency,
  created_at: z.string(),
  updated_at: z.string(),
});
/** GET /api/accounts */
export const tradingAccountList = z.array(tradingAccount);

export type AccountInput = z.infer<typeof accountInput>;
export type AccountPatch = z.infer<typeof accountPatch>;
export type TradingAccount = z.infer<typeof tradingAccount>;
