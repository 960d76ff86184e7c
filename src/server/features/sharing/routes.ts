import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { shareLinkIdParam, shareLinkInput } from '../../../contract/share-links';
import type { AppDeps, AppEnv } from '../../http/context';
import { createRateLimiter } from '../../http/rate-limit';
import { readJson, readParams } from '../../http/validate';
import { previewSvg, sharedPage, TOO_MANY_PAGE, UNKNOWN_PAGE } from './page';
import { sharingService } from './service';

/** /api/share-links: the signed-in trader's own links (behind the session check and the same-origin rule of /api). */
export function shareLinkRoutes({ database, config }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await sharingService.list(database, c.var.user.id)))
    .post('/', async (c) => {
      const input = await readJson(c, shareLinkInput);
      return c.json(await sharingService.create(database, c.var.user.id, input, config.baseUrl, new Date()), 201);
    })
    .delete('/:id', async (c) => {
      await sharingService.revoke(database, c.var.user.id, readParams(c, shareLinkIdParam).id, new Date());
      return c.body(null, 204);
    });
}

/**
 * What every shared page answers with: never stored by a browser or a proxy (a revoked link must stop at once), never
 * indexed, and its address (which holds the secret) never sent on to another site.
 */
function privateHeaders(c: Context) {
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex, nofollow, noarchive');
}

/**
 * The app's security headers name the page to the sites it links to (origin only, across sites); a shared page names
 * nothing, since its address is the secret. Mounted before the security headers, so this runs after them.
 */
export function sharedPageReferrer(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set('Referrer-Policy', 'no-referrer');
  };
}

/** Unknown, revoked, expired and malformed tokens: one answer, so none can be told from another. */
function unknownLink(c: Context) {
  privateHeaders(c);
  return c.html(UNKNOWN_PAGE, 404);
}

/** Guesses per client address: a burst of 30, then one every 2 seconds. */
export const SHARE_RATE = { capacity: 30, refillMs: 2_000 };

/** /s/:token and its preview image, public: the page as the link's owner would have it read, and nothing more. */
export function sharedPageRoutes({ database, config }: AppDeps) {
  const limiter = createRateLimiter(SHARE_RATE);
  const base = config.baseUrl.replace(/\/$/, '');
  return new Hono<AppEnv>()
    .use('*', async (c, next) => {
      const wait = limiter.take(c.var.clientIp ?? 'unknown');
      if (wait > 0) {
        privateHeaders(c);
        c.header('Retry-After', String(wait));
        return c.html(TOO_MANY_PAGE, 429);
      }
      await next();
    })
    .get('/:token', async (c) => {
      const token = c.req.param('token');
      const shared = await sharingService.read(database, token, new Date(), true);
      if (!shared) return unknownLink(c);
      privateHeaders(c);
      return c.html(sharedPage(shared.view, { url: `${base}/s/${token}`, image: `${base}/s/${token}/preview` }));
    })
    .get('/:token/preview', async (c) => {
      const shared = await sharingService.read(database, c.req.param('token'), new Date(), false);
      if (!shared) return unknownLink(c);
      privateHeaders(c);
      c.header('Content-Type', 'image/svg+xml; charset=utf-8');
      return c.body(previewSvg(shared.view));
    })
    .all('*', (c) => unknownLink(c));
}
