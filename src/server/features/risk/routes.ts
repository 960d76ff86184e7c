import { Hono } from 'hono';
import { riskDefaultInput, riskDefaultParam } from '../../../contract/risk';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams } from '../../http/validate';
import { riskService } from './service';

/** /api/risk-defaults. */
export function riskDefaultRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await riskService.list(database, c.var.user.id)))
    .put('/', async (c) => c.json(await riskService.put(database, c.var.user.id, await readJson(c, riskDefaultInput))))
    .delete('/:id', async (c) => {
      await riskService.remove(database, c.var.user.id, readParams(c, riskDefaultParam).id);
      return c.body(null, 204);
    });
}
