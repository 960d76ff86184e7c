import { Hono } from 'hono';
import { AI_MESSAGES, AiError, sseResponse, toAiError, wantsEventStream } from '../../ai';
import type { DraftEvent, DraftResult, TagRef } from '../../../contract/notes';
import type { AppDeps, AppEnv } from '../../http/context';
import { HttpError } from '../../http/errors';
import { readJson, readParams, readQuery } from '../../http/validate';
import { buildDraftRequest } from './draft';
import { draftInput, folderIdParam, folderInput, noteIdParam, noteInput, noteListQuery, notePatch, tagInput } from './schemas';
import { foldersService, notesService, tagsService } from './service';

/** /api/notes: the notebook's notes. */
export function noteRoutes({ database, storage, ai, logger }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .get('/', async (c) => c.json(await notesService.list(database, c.var.user.id, readQuery(c, noteListQuery))))
      /**
       * 'Write with AI': a draft from the configured provider, streamed as Server-Sent Events ({type: 'text', delta},
       * {type: 'restart'} when the stream broke and the fallback starts over, {type: 'done'}, or {type: 'error',
       * message}); without Accept: text/event-stream, one JSON {text}. Without a provider: 503 saying how to set one.
       */
      .post('/draft', async (c) => {
        const input = await readJson(c, draftInput);
        const userId = c.var.user.id;
        if (!ai.configured) throw new HttpError(503, AI_MESSAGES.notConfigured);
        if (!wantsEventStream(c)) {
          try {
            const result = await ai.complete(userId, await buildDraftRequest(database, userId, input, c.req.raw.signal));
            return c.json({ text: result.text } satisfies DraftResult);
          } catch (error) {
            if (error instanceof AiError) throw new HttpError(error.httpStatus === 499 ? 400 : error.httpStatus, error.message);
            throw error;
          }
        }
        const request = await buildDraftRequest(database, userId, input, c.req.raw.signal);
        return sseResponse(c, async (sse) => {
          try {
            for await (const event of ai.stream(userId, { ...request, signal: sse.signal })) {
              if (event.type === 'text') await sse.send({ type: 'text', delta: event.delta } satisfies DraftEvent);
              else if (event.type === 'restart') await sse.send({ type: 'restart' } satisfies DraftEvent);
              else if (event.type === 'done') await sse.send({ type: 'done' } satisfies DraftEvent);
            }
          } catch (error) {
            const mapped = toAiError(error);
            if (mapped.kind === 'aborted') return;
            if (!(error instanceof AiError)) logger.error({ err: error }, 'note draft failed');
            await sse.send({ type: 'error', status: mapped.httpStatus, message: mapped.message } satisfies DraftEvent);
          }
        });
      })
      .post('/', async (c) => c.json(await notesService.create(database, c.var.user.id, await readJson(c, noteInput)), 201))
      .get('/:id', async (c) => c.json(await notesService.get(database, c.var.user.id, readParams(c, noteIdParam).id)))
      .patch('/:id', async (c) => {
        const { id } = readParams(c, noteIdParam);
        return c.json(await notesService.update(database, c.var.user.id, id, await readJson(c, notePatch)));
      })
      .delete('/:id', async (c) => {
        await notesService.remove(database, storage, c.var.user.id, readParams(c, noteIdParam).id);
        return c.body(null, 204);
      })
  );
}

/** /api/note-folders */
export function folderRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await foldersService.list(database, c.var.user.id)))
    .post('/', async (c) => {
      const { name } = await readJson(c, folderInput);
      return c.json(await foldersService.create(database, c.var.user.id, name), 201);
    })
    .patch('/:id', async (c) => {
      const { id } = readParams(c, folderIdParam);
      const { name } = await readJson(c, folderInput);
      return c.json(await foldersService.rename(database, c.var.user.id, id, name));
    })
    .delete('/:id', async (c) => {
      await foldersService.remove(database, c.var.user.id, readParams(c, folderIdParam).id);
      return c.body(null, 204);
    });
}

/** /api/tags: the trader's note tags, unique by name. */
export function tagRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await tagsService.list(database, c.var.user.id)))
    .post('/', async (c) => {
      const { name } = await readJson(c, tagInput);
      const { created, ...tag } = await tagsService.upsert(database, c.var.user.id, name);
      return c.json(tag satisfies TagRef, created ? 201 : 200);
    });
}
