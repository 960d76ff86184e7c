import { Hono } from 'hono';
import { savedViewIdParam, savedViewInput, savedViewPatch } from '../../../contract/saved-views';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams } from '../../http/validate';
import { savedViewsService } from './service';

/** /api/saved-views: the trader's named Reports filters. */
export function savedViewRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await savedViewsService.list(database, c.var.user.id)))
    .post('/', async (c) => c.json(await savedViewsService.create(database, c.var.user.id, await readJson(c, savedViewInput)), 201))
    .patch('/:id', async (c) => {
      const { id } = readParams(c, savedViewIdParam);
      return c.json(await savedViewsService.rename(database, c.var.user.id, id, (await readJson(c, savedViewPatch)).name));
    })
    .delete('/:id', async (c) => {
      await savedViewsService.remove(database, c.var.user.id, readParams(c, savedViewIdParam).id);
      return c.body(null, 204);
    });
}
