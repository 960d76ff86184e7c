import { secureHeaders } from 'hono/secure-headers';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config';

/** Where each captcha provider serves its widget (script, frame, styles) and the calls the widget makes. */
const CAPTCHA_ORIGINS: Record<'hcaptcha' | 'cloudflare-turnstile', string[]> = {
  hcaptcha: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  'cloudflare-turnstile': ['https://challenges.cloudflare.com'],
};

/** The Content-Security-Policy directives: our own origin only, widened just for what this server configures. */
export function contentSecurityPolicy(config: Pick<Config, 'captcha' | 'TUTORIAL_VIDEO_URLS'>) {
  const captcha = config.captcha ? CAPTCHA_ORIGINS[config.captcha.provider] : [];
  const videos = [...new Set((config.TUTORIAL_VIDEO_URLS ?? []).map((url) => new URL(url).origin))];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...captcha],
    // Mantine sets element styles at run time.
    styleSrc: ["'self'", "'unsafe-inline'", ...captcha],
    // Chart screenshots a trader links or attaches (TradingView snapshots and the like) live on other hosts; notes and
    // trades may attach an image by any http or https address (an Image URL attachment, a markdown image).
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...captcha],
    frameSrc: ["'self'", ...captcha],
    mediaSrc: ["'self'", ...videos],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/**
 * Security headers for every response. Scripts only from our own origin (and the captcha's when configured). HSTS
 * when BASE_URL is https: on http://localhost it would be ignored anyway, and pinning https on a host that has none
 * would lock the trader out.
 */
export const securityHeaders = (config: Pick<Config, 'captcha' | 'TUTORIAL_VIDEO_URLS' | 'baseUrl'>) =>
  secureHeaders({
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: config.baseUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false,
  });

/**
 * A trader's numbers stay out of every cache (the browser's disk cache, a proxy's): API responses are no-store
 * unless the route chose its own caching (uploaded images, server-sent events).
 */
export const noStoreByDefault = (): MiddlewareHandler => async (c, next) => {
  await next();
  if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
};
