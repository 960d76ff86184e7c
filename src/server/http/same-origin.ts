import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Identity providers post their answer back to these (OAuth "form_post"): they come from the provider's origin by
 * design and are bound to the sign-in that started them by better-auth's state parameter instead.
 */
const CROSS_SITE_ENDPOINTS = [/^\/api\/auth\/callback\//, /^\/api\/auth\/oauth2\/callback\//];

/**
 * Cross-site request forgery: a page on another origin (even another port of the same site, whose requests carry
 * the trader's SameSite=Lax cookie) must not change anything. Browsers name the page that sent a request in
 * `Origin` and `Sec-Fetch-Site`; a state-changing request from any origin but BASE_URL's is refused. Clients that are
 * not browsers (scripts, curl) send neither header and cannot carry a victim's cookie, so they pass.
 */
export function sameOriginWrites(baseUrl: string): MiddlewareHandler<AppEnv> {
  const appOrigin = new URL(baseUrl).origin;
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || CROSS_SITE_ENDPOINTS.some((p) => p.test(c.req.path))) return next();
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const foreignOrigin = origin !== undefined && origin !== appOrigin;
    const foreignSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (foreignOrigin || foreignSite) {
      return c.json({ error: 'origin: requests from another site are refused', code: 'cross-origin' }, 403);
    }
    return next();
  };
}
