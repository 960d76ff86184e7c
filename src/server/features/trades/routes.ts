import { Hono } from 'hono';
import type { AssignResult, BulkDeleteResult, BulkRiskResult, TradeIds, UnassignedCount } from '../../../contract/trades';
import type { AppDeps, AppEnv } from '../../http/context';
import { withSavedUpload } from '../../http/read-upload';
import { assertJsonType, readFilterQuery, readJson, readParams, readQuery } from '../../http/validate';
import {
  assignInput,
  bulkEditInput,
  bulkRestoreInput,
  bulkRiskInput,
  idList,
  idParam,
  idsQuery,
  listQuery,
  statsQuery,
  tradeInput,
  tradePatch,
  unassignedCountQuery,
} from '../../../contract/trades';
import { tradesService } from './service';
import { bulkTradesService } from './bulk-service';
import { fillsInput } from '../../../contract/market';
import { tradeFillsService } from './fills-service';

const LIST_OWN = ['q', 'limit', 'cursor', 'offset', 'sort', 'dir'] as const;
const STATS_OWN = ['q', 'days', 'exclude'] as const;
const IDS_OWN = ['q', 'sort', 'dir'] as const;

export function tradeRoutes({ database }: AppDeps) {
  return (
    new Hono<AppEnv>()
      // The filter model's lists repeat their parameter (?symbol=NQ&symbol=ES): read as the reports read them.
      .get('/', async (c) => c.json(await tradesService.list(database, c.var.user.id, readFilterQuery(c, listQuery, LIST_OWN), new Date())))
      .get('/stats', async (c) => c.json(await tradesService.stats(database, c.var.user.id, readFilterQuery(c, statsQuery, STATS_OWN), new Date())))
      .get('/ids', async (c) =>
        c.json((await tradesService.ids(database, c.var.user.id, readFilterQuery(c, idsQuery, IDS_OWN), new Date())) satisfies TradeIds),
      )
      .get('/unassigned-count', async (c) => {
        const { exclude } = readQuery(c, unassignedCountQuery);
        return c.json({ count: await tradesService.unassignedCount(database, c.var.user.id, exclude) } satisfies UnassignedCount);
      })
      .get('/export', async (c) => {
        const trades = await tradesService.exportAll(database, c.var.user.id);
        const date = new Date().toISOString().slice(0, 10);
        c.header('Content-Disposition', `attachment; filename="trades-backup-${date}.json"`);
        return c.json(trades);
      })
      // The body (up to 50 MB) is read as JSON in the parse worker, not here: see core/parse/backup-file.ts.
      .post('/import', async (c) => {
        assertJsonType(c);
        return c.json(await withSavedUpload(c, null, (upload) => tradesService.importBackup(database, c.var.user.id, upload)), 201);
      })
      .post('/bulk-delete', async (c) => {
        const { ids } = await readJson(c, idList);
        const deleted = await tradesService.removeMany(database, c.var.user.id, ids);
        return c.json({ deleted } satisfies BulkDeleteResult);
      })
      .post('/assign', async (c) => {
        const { ids, account_id } = await readJson(c, assignInput);
        const assigned = await tradesService.assign(database, c.var.user.id, ids, account_id);
        return c.json({ assigned } satisfies AssignResult);
      })
      .post('/bulk-risk', async (c) => {
        const input = await readJson(c, bulkRiskInput);
        return c.json({ updated: await tradesService.bulkRisk(database, c.var.user.id, input) } satisfies BulkRiskResult);
      })
      .post('/bulk-edit', async (c) => c.json(await bulkTradesService.edit(database, c.var.user.id, await readJson(c, bulkEditInput))))
      .post('/bulk-restore', async (c) =>
        c.json(await bulkTradesService.restore(database, c.var.user.id, (await readJson(c, bulkRestoreInput)).trades)),
      )
      .post('/', async (c) => c.json(await tradesService.create(database, c.var.user.id, await readJson(c, tradeInput)), 201))
      .get('/:id', async (c) => c.json(await tradesService.get(database, c.var.user.id, readParams(c, idParam).id)))
      // A trade's fills; a manual trade's are the trader's to change, and its prices and times follow them.
      .get('/:id/fills', async (c) => c.json(await tradeFillsService.list(database, c.var.user.id, readParams(c, idParam).id)))
      .put('/:id/fills', async (c) => {
        const { id } = readParams(c, idParam);
        return c.json(await tradeFillsService.save(database, c.var.user.id, id, await readJson(c, fillsInput)));
      })
      .patch('/:id', async (c) => {
        const { id } = readParams(c, idParam);
        return c.json(await tradesService.update(database, c.var.user.id, id, await readJson(c, tradePatch)));
      })
      .delete('/:id', async (c) => {
        await tradesService.remove(database, c.var.user.id, readParams(c, idParam).id);
        return c.body(null, 204);
      })
  );
}
