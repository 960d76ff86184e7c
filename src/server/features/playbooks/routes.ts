import { Hono } from 'hono';
import { playbookInput, playbookParam, tradePlaybookInput } from '../../../contract/playbooks';
import { reportFilter } from '../../../contract/reports';
import type { AppDeps, AppEnv } from '../../http/context';
import { readFilterQuery, readJson, readParams } from '../../http/validate';
import { idParam } from '../../../contract/trades';
import { playbooksService } from './service';

/** /api/playbooks. */
export function playbookRoutes({ database, storage }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await playbooksService.list(database, c.var.user.id)))
    .post('/', async (c) => c.json(await playbooksService.create(database, c.var.user.id, await readJson(c, playbookInput)), 201))
    .get('/:id', async (c) => c.json(await playbooksService.get(database, c.var.user.id, readParams(c, playbookParam).id)))
    .put('/:id', async (c) => {
      const { id } = readParams(c, playbookParam);
      return c.json(await playbooksService.update(database, c.var.user.id, id, await readJson(c, playbookInput)));
    })
    .delete('/:id', async (c) => {
      await playbooksService.remove(database, storage, c.var.user.id, readParams(c, playbookParam).id);
      return c.body(null, 204);
    })
    .get('/:id/report', async (c) => {
      const { id } = readParams(c, playbookParam);
      return c.json(await playbooksService.report(database, c.var.user.id, id, readFilterQuery(c, reportFilter), new Date()));
    });
}

/** /api/trade-playbooks/:id: a trade's playbook and the rules of it the trade followed. */
export function tradePlaybookRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/:id', async (c) => c.json(await playbooksService.getTradePlaybook(database, c.var.user.id, readParams(c, idParam).id)))
    .put('/:id', async (c) => {
      const { id } = readParams(c, idParam);
      return c.json(await playbooksService.setTradePlaybook(database, c.var.user.id, id, await readJson(c, tradePlaybookInput)));
    });
}
