import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams, readQuery } from '../../http/validate';
import { folderIdParam, folderInput, noteIdParam, noteInput, noteListQuery, notePatch, tagInput } from './schemas';
import { foldersService, notesService, tagsService } from './service';

/** /api/notes: the notebook's notes (spec part 2 §7 "Notes layer"). */
export function noteRoutes({ database, storage }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await notesService.list(database, c.var.user.id, readQuery(c, noteListQuery))))
    .post('/', async (c) => c.json(await notesService.create(database, c.var.user.id, await readJson(c, noteInput)), 201))
    .get('/:id', async (c) => c.json(await notesService.get(database, c.var.user.id, readParams(c, noteIdParam).id)))
    .patch('/:id', async (c) => {
      const { id } = readParams(c, noteIdParam);
      return c.json(await notesService.update(database, c.var.user.id, id, await readJson(c, notePatch)));
    })
    .delete('/:id', async (c) => {
      await notesService.remove(database, storage, c.var.user.id, readParams(c, noteIdParam).id);
      return c.body(null, 204);
    });
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
      return c.json(tag, created ? 201 : 200);
    });
}
