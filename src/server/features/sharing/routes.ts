import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { shareLinkIdParam, shareLinkInput } from '../../../contract/share-links';
import type { AppDeps, AppEnv } from '../../http/context';
import { createRateLimiter } from '../../http/rate-limit';
import { detectImageType } from '../../../domain/files/image-type';
import { sendImage } from '../../http/image-upload';
import { readJson, readParams } from '../../http/validate';
import { previewSvg, sharedPage, TOO_MANY_PAGE, UNKNOWN_PAGE } from './page';
import { renderPreviewPng } from './preview-png';
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

/**
 * Requests per client address to shared pages (pages, previews, images): a burst of 30, then one every 2 seconds,
 * counted once across every server process on the database.
 */
export const SHARE_RATE = { capacity: 30, refillMs: 2_000 };

/**
 * /s/:token, its preview image (PNG for chat apps, and its SVG source) and the images it shows, public: the page as the
 * link's owner would have it read, and nothing more. Every one of them counts against the rate limit.
 */
export function sharedPageRoutes({ database, config, storage }: AppDeps) {
  const limiter = createRateLimiter(database, 'shared-page', SHARE_RATE);
  const base = config.baseUrl.replace(/\/$/, '');
  return new Hono<AppEnv>()
    .use('*', async (c, next) => {
      const wait = await limiter.take(c.var.clientIp ?? 'unknown');
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
      return c.html(sharedPage(shared.view, `${base}/s/${token}`));
    })
    .get('/:token/preview', async (c) => {
      const shared = await sharingService.read(database, c.req.param('token'), new Date(), false);
      if (!shared) return unknownLink(c);
      privateHeaders(c);
      c.header('Content-Type', 'image/svg+xml; charset=utf-8');
      return c.body(previewSvg(shared.view));
    })
    .get('/:token/preview.png', async (c) => {
      const shared = await sharingService.read(database, c.req.param('token'), new Date(), false);
      if (!shared) return unknownLink(c);
      const png = await renderPreviewPng(previewSvg(shared.view));
      privateHeaders(c);
      c.header('Content-Type', 'image/png');
      return c.body(png as Uint8Array<ArrayBuffer>);
    })
    .get('/:token/image/:id', async (c) => {
      const bytes = await sharingService.image(database, storage, c.req.param('token'), c.req.param('id'), new Date());
      // A file that is not one of our image types (it was checked when uploaded) answers like a missing one.
      if (!bytes || !detectImageType(bytes)) return unknownLink(c);
      privateHeaders(c);
      return sendImage(c, bytes, 'no-store');
    })
    .all('*', (c) => unknownLink(c));
}
