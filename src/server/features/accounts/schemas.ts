import { z } from 'zod';

const name = z.string({ error: 'Account name is required' }).trim().min(1, 'Account name is required').max(100, 'Account name must be at most 100 characters');
const description = z.string().trim().max(500, 'Description must be at most 500 characters').nullable().optional();

export const accountInput = z.object({ name, description, is_default: z.boolean().optional().default(false) });
export const accountPatch = z
  .object({ name: name.optional(), description, is_default: z.boolean().optional() })
  .refine((p) => Object.keys(p).length > 0, 'Nothing to update');
export const accountIdParam = z.object({ id: z.uuid('id must be a UUID') });

export type AccountInput = z.infer<typeof accountInput>;
export type AccountPatch = z.infer<typeof accountPatch>;
