import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context';
import { imageBodyLimit, readImageUpload, sendImage } from '../../http/image-upload';
import { parseOrThrow, readJson, readParams, readQuery } from '../../http/validate';
import { attachmentFileParam, attachmentIdParam, attachmentListQuery, attachmentUploadFields, attachmentUrlInput } from './schemas';
import { attachmentsService } from './service';

/** /api/attachments: images on notes and trades, by URL or uploaded. */
export function attachmentRoutes({ database, storage }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await attachmentsService.list(database, c.var.user.id, readQuery(c, attachmentListQuery))))
    .post('/', async (c) => c.json(await attachmentsService.addUrl(database, c.var.user.id, await readJson(c, attachmentUrlInput)), 201))
    .post('/upload', imageBodyLimit(), async (c) => {
      const upload = await readImageUpload(c);
      const fields = parseOrThrow(attachmentUploadFields, upload.fields);
      return c.json(await attachmentsService.addUpload(database, storage, c.var.user.id, fields, upload), 201);
    })
    .get('/files/:file', async (c) =>
      sendImage(c, await attachmentsService.readFile(database, storage, c.var.user.id, readParams(c, attachmentFileParam).file)),
    )
    .delete('/:id', async (c) => {
      await attachmentsService.remove(database, storage, c.var.user.id, readParams(c, attachmentIdParam).id);
      return c.body(null, 204);
    });
}
