import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams } from '../../http/validate';
import { accountIdParam, accountInput, accountPatch } from './schemas';
import { accountsService } from './service';

export function accountRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await accountsService.list(database, c.var.user.id)))
    .post('/', async (c) => {
      const input = await readJson(c, accountInput);
      return c.json(await accountsService.create(database, c.var.user.id, input), 201);
    })
    .patch('/:id', async (c) => {
      const { id } = readParams(c, accountIdParam);
      return c.json(await accountsService.update(database, c.var.user.id, id, await readJson(c, accountPatch)));
    })
    .post('/:id/default', async (c) => {
      const { id } = readParams(c, accountIdParam);
      return c.json(await accountsService.setDefault(database, c.var.user.id, id));
    })
    .delete('/:id', async (c) => {
      const { id } = readParams(c, accountIdParam);
      await accountsService.remove(database, c.var.user.id, id);
      return c.body(null, 204);
    });
}
