import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { barFormats, barsQuery, chartQuery, coverageQuery, deleteBarsQuery } from '../../../contract/market';
import { fileTooLargeMessage, MAX_IMPORT_BYTES } from '../../../domain/importers';
import { BAR_FORMATS } from '../../../domain/importers/bars';
import type { AppDeps, AppEnv } from '../../http/context';
import { withSavedUpload, type SavedUpload } from '../../http/read-upload';
import { readParams, readQuery } from '../../http/validate';
import { idParam } from '../../../contract/trades';
import { createMarketService } from './service';

/**
 * /api/market: bar files (preview and import; the body is the file as the trader has it, the options in the query, as
 * trade imports), the trader's bars per contract and day, deleting them by day, and a trade's chart with its MAE, MFE
 * and exit analysis.
 */
const importBarsQuery = barsQuery.extend({
  skip_unreadable: z
    .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** A bar file's upload, on disk while it is read (withSavedUpload). */
const withFile = <T>(c: Context<AppEnv>, use: (upload: SavedUpload) => Promise<T>) =>
  withSavedUpload(c, 'Send the file itself as the request body (text/csv or text/plain)', use);

export function marketRoutes({ database, config }: AppDeps) {
  const marketService = createMarketService(config);
  const limit = bodyLimit({ maxSize: MAX_IMPORT_BYTES, onError: (c) => c.json({ error: fileTooLargeMessage(), code: 'too-large' }, 413) });
  return new Hono<AppEnv>()
    .get('/formats', (c) => c.json(BAR_FORMATS.map((f) => ({ id: f.id, label: f.label, columns: f.columns })) satisfies z.infer<typeof barFormats>))
    .post('/bars/preview', limit, async (c) => {
      const query = readQuery(c, barsQuery);
      return c.json(await withFile(c, (upload) => marketService.previewBars(database, c.var.user.id, upload, query)));
    })
    .post('/bars', limit, async (c) => {
      const query = readQuery(c, importBarsQuery);
      return c.json(await withFile(c, (upload) => marketService.importBars(database, c.var.user.id, upload, query)));
    })
    .get('/bars/coverage', async (c) => c.json(await marketService.coverage(database, c.var.user.id, readQuery(c, coverageQuery).contract)))
    .delete('/bars', async (c) => c.json(await marketService.deleteDay(database, c.var.user.id, readQuery(c, deleteBarsQuery))))
    .get('/trades/:id/chart', async (c) => {
      const { id } = readParams(c, idParam);
      return c.json(await marketService.chart(database, c.var.user.id, id, readQuery(c, chartQuery)));
    });
}
