import { Hono } from 'hono';
import { z } from 'zod';
import { brokerAccountUpdate, connectionInput, connectionUpdate } from '../../../contract/connections';
import type { AppEnv } from '../../http/context';
import type { ConnectionsRuntime } from './runtime';
import { readJson, readParams } from '../../http/validate';

const connectionParam = z.object({ id: z.uuid('id must be a UUID') });
const accountParam = z.object({ id: z.uuid('id must be a UUID'), brokerAccountId: z.uuid('brokerAccountId must be a UUID') });

/** /api/connections. Thin: read the request through its contract, call the service. */
export function connectionRoutes(connections: ConnectionsRuntime) {
  const service = connections.service;
  return (
    new Hono<AppEnv>()
      .get('/', async (c) => c.json(await service.list(c.var.user.id)))
      .post('/test', async (c) => c.json(await service.test(await readJson(c, connectionInput))))
      .post('/', async (c) => c.json(await service.connect(c.var.user.id, await readJson(c, connectionInput)), 201))
      .get('/:id', async (c) => c.json(await service.get(c.var.user.id, readParams(c, connectionParam).id)))
      .patch('/:id', async (c) => {
        const { id } = readParams(c, connectionParam);
        return c.json(await service.update(c.var.user.id, id, await readJson(c, connectionUpdate)));
      })
      .delete('/:id', async (c) => {
        await service.remove(c.var.user.id, readParams(c, connectionParam).id);
        return c.body(null, 204);
      })
      // Not /:id/accounts/...: an id of '..' would make that /api/accounts/..., another endpoint.
      .patch('/:id/broker-accounts/:brokerAccountId', async (c) => {
        const { id, brokerAccountId } = readParams(c, accountParam);
        return c.json(await service.mapAccount(c.var.user.id, id, brokerAccountId, await readJson(c, brokerAccountUpdate)));
      })
      .post('/:id/sync', async (c) => c.json(await service.sync(c.var.user.id, readParams(c, connectionParam).id), 202))
  );
}
