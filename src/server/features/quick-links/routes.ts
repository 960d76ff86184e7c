import { Hono, type MiddlewareHandler } from 'hono';
import type { Auth } from '../../auth/auth';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams } from '../../http/validate';
import { importInput, quickLinkIdParam, quickLinkInput, quickLinkPatch, reorderInput } from './schemas';
import { quickLinksService } from './service';

/** The one quick-link error the spec words. */
export const DEFAULTS_UNAUTHENTICATED = 'User must be authenticated to import default links';

/** /api/quick-links. */
export function quickLinkRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await quickLinksService.list(database, c.var.user.id)))
    .post('/', async (c) => c.json(await quickLinksService.create(database, c.var.user.id, await readJson(c, quickLinkInput)), 201))
    .post('/reorder', async (c) => c.json(await quickLinksService.reorder(database, c.var.user.id, (await readJson(c, reorderInput)).ids)))
    .post('/import', async (c) => {
      const { links, only_if_empty } = await readJson(c, importInput);
      return c.json(await quickLinksService.importLinks(database, c.var.user.id, links, only_if_empty));
    })
    .post('/defaults', async (c) => c.json(await quickLinksService.importDefaults(database, c.var.user.id)))
    .patch('/:id', async (c) => {
      const { id } = readParams(c, quickLinkIdParam);
      return c.json(await quickLinksService.update(database, c.var.user.id, id, await readJson(c, quickLinkPatch)));
    })
    .delete('/:id', async (c) => {
      await quickLinksService.remove(database, c.var.user.id, readParams(c, quickLinkIdParam).id);
      return c.body(null, 204);
    });
}

/**
 * Answers the default-links import without a session with the spec's own message (the API's other endpoints say
 * 'Not authenticated'). Mounted before the session check.
 */
export function requireUserForDefaults(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = await auth.api.getSession({ headers: c.req.raw.headers });
    if (!session) return c.json({ error: DEFAULTS_UNAUTHENTICATED }, 401);
    await next();
  };
}
