import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context';
import { readParams } from '../../http/validate';
import { idParam } from '../../../contract/trades';
import { tradeDetailsService } from './service';

/** /api/trade-details/:id: the page /trade/{id} in one request. */
export function tradeDetailsRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>().get('/:id', async (c) => c.json(await tradeDetailsService.get(database, c.var.user.id, readParams(c, idParam).id)));
}
