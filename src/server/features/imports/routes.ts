import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { fileTooLargeMessage, listFormats, MAX_IMPORT_BYTES } from '../../../domain/importers';
import type { ImportFormats, ImportOutcome, ImportQueue } from '../../../contract/imports';
import type { AppDeps, AppEnv } from '../../http/context';
import { badRequest } from '../../http/errors';
import { withSavedUpload, type SavedUpload } from '../../http/read-upload';
import { parseOrThrow, readJson, readParams } from '../../http/validate';
import { feeSchedulesService, readSchedule } from './fee-schedules';
import { importQueueStatus } from '../../core/parse/parse-pool';
import { ACCOUNT_REQUIRED_MESSAGE, accountParam, feeScheduleInput, importQuery, previewQuery } from './schemas';
import { propWarningsAfterImport } from '../../core/prop/status';
import { importsService } from './service';

/**
 * POST /api/imports/preview and POST /api/imports: the body is the file itself (text/csv or application/json), the
 * options are query parameters (format, time_zone, account_id, skip_unreadable). GET /api/imports/formats lists the
 * formats for the Trade Import Guide; GET /api/imports/queue says whether the caller's upload waits its turn.
 */
export function importRoutes({ database }: AppDeps) {
  const limit = bodyLimit({
    maxSize: MAX_IMPORT_BYTES,
    onError: (c) => c.json({ error: fileTooLargeMessage(), code: 'too-large' }, 413),
  });
  return (
    new Hono<AppEnv>()
      .get('/formats', (c) => c.json(listFormats() satisfies ImportFormats))
      // Whether the caller's upload is waiting its turn to be read (the import dialog says so).
      .get('/queue', (c) => c.json(importQueueStatus(c.var.user.id) satisfies ImportQueue))
      // An account's commission and fee schedule, and applying it again to its imported trades.
      .get('/fees/:accountId', async (c) => c.json(await feeSchedulesService.get(database, c.var.user.id, readParams(c, accountParam).accountId)))
      .put('/fees/:accountId', async (c) => {
        const { accountId } = readParams(c, accountParam);
        const schedule = readSchedule(await readJson(c, feeScheduleInput));
        return c.json(await feeSchedulesService.save(database, c.var.user.id, accountId, schedule));
      })
      .post('/fees/:accountId/apply', async (c) =>
        c.json(await feeSchedulesService.apply(database, c.var.user.id, readParams(c, accountParam).accountId)),
      )
      .post('/preview', limit, async (c) => {
        const query = readImportQuery(c, previewQuery);
        return c.json(await withFile(c, (upload) => importsService.preview(database, c.var.user.id, upload, query)));
      })
      .post('/', limit, async (c) => {
        const query = readImportQuery(c, importQuery);
        const outcome = await withFile(c, (upload) => importsService.import(database, c.var.user.id, upload, query));
        // The prop accounts this import put near or past a limit, for the dialog's warning.
        const written = outcome.accounts.filter((a) => a.imported > 0).map((a) => a.account_id);
        return c.json({
          ...outcome,
          prop_warnings: await propWarningsAfterImport(database, c.var.user.id, written, new Date()),
        } satisfies ImportOutcome);
      })
  );
}

/**
 * The import options. A missing account gets the account picker's own words, checked before
 * anything else; a malformed one, like every other bad option, a 400 naming the field.
 */
function readImportQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  const query = c.req.query();
  const result = schema.safeParse(query);
  if (!result.success && result.error.issues.some((i) => i.path[0] === 'account_id') && !query.account_id) {
    throw badRequest(ACCOUNT_REQUIRED_MESSAGE, { code: 'account-required', fields: [{ field: 'account_id', message: ACCOUNT_REQUIRED_MESSAGE }] });
  }
  return parseOrThrow(schema, query, 'query');
}

/** The file as sent, on disk while it is read (withSavedUpload); it is decoded in the parse worker (convert.ts decodeText). */
const withFile = <T>(c: Context<AppEnv>, use: (upload: SavedUpload) => Promise<T>) =>
  withSavedUpload(c, 'Send the file itself as the request body (text/csv or application/json)', use);
