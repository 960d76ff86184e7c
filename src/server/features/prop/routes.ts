import { Hono } from 'hono';
import { z } from 'zod';
import { ledgerInput, ledgerPatch, ruleSetInput } from '../../../contract/prop';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams } from '../../http/validate';
import { propService } from './service';

const accountParam = z.object({ id: z.uuid('id must be a trading account id') });
const entryParam = z.object({ id: z.uuid('id must be a ledger entry id') });

/** Prop-firm accounts: rule sets, status, the ledger. The owner is always the session's trader. */
export function propRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/status', async (c) => c.json(await propService.statusList(database, c.var.user.id, new Date())))
    .get('/accounts/:id', async (c) => {
      const { id } = readParams(c, accountParam);
      return c.json(await propService.detail(database, c.var.user.id, id, new Date()));
    })
    .put('/accounts/:id/rules', async (c) => {
      const { id } = readParams(c, accountParam);
      return c.json(await propService.setRules(database, c.var.user.id, id, await readJson(c, ruleSetInput)));
    })
    .delete('/accounts/:id/rules', async (c) => {
      const { id } = readParams(c, accountParam);
      await propService.deleteRules(database, c.var.user.id, id);
      return c.body(null, 204);
    })
    .post('/accounts/:id/ledger', async (c) => {
      const { id } = readParams(c, accountParam);
      return c.json(await propService.addLedgerEntry(database, c.var.user.id, id, await readJson(c, ledgerInput)), 201);
    })
    .get('/ledger', async (c) => c.json(await propService.ledger(database, c.var.user.id)))
    .patch('/ledger/:id', async (c) => {
      const { id } = readParams(c, entryParam);
      return c.json(await propService.updateLedgerEntry(database, c.var.user.id, id, await readJson(c, ledgerPatch)));
    })
    .delete('/ledger/:id', async (c) => {
      const { id } = readParams(c, entryParam);
      await propService.deleteLedgerEntry(database, c.var.user.id, id);
      return c.body(null, 204);
    });
}
