import { z } from 'zod';

// The request and response shapes live in the shared contract (src/contract), imported by the web app too.
export { accountInput, accountPatch, type AccountInput, type AccountPatch } from '../../../contract/accounts';
export const accountIdParam = z.object({ id: z.uuid('id must be a UUID') });
