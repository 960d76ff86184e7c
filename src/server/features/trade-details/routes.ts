import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../../http/context';
import { readParams } from '../../http/validate';
import { tradeDetailsService } from './service';

const idParam = z.object({ id: z.uuid('id must be a trade id') });

/** /api/trade-details/:id: the page /trade/{id} in one request (spec part 2 "Trade details"). */
export function tradeDetailsRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>().get('/:id', async (c) => c.json(await tradeDetailsService.get(database, c.var.user.id, readParams(c, idParam).id)));
}
