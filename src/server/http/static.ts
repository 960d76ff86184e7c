import fs from 'node:fs';
import path from 'node:path';
import type { Context, Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { compressedAssets } from './asset-cache';
import type { AppEnv } from './context';

/**
 * Serves the built single-page app from `dist/web`: hashed files under /assets are cached for a year, index.html
 * is revalidated, and any other GET that is not an API path or a file gets index.html (history fallback).
 */
export function mountWebApp(app: Hono<AppEnv>, webRoot: string) {
  const indexFile = path.join(webRoot, 'index.html');
  const serveIndex = (c: Context<AppEnv>) => {
    if (!fs.existsSync(indexFile)) {
      return c.text('The web app is not built yet. Run `npm run build` (npm start does it for you).', 503);
    }
    c.header('Cache-Control', 'no-cache');
    c.header('Vary', 'Cookie');
    // A browser holding a session cookie is told so in the page, so that its data requests start with the session
    // check instead of after it. Only the cookie's presence: whether it is valid is the session check's.
    const signedIn = SESSION_COOKIE.test(c.req.header('cookie') ?? '');
    // /intro, and the dashboard to a browser with a session cookie, are sent drawn (scripts/prerender.mjs), so that
    // their first paint does not wait for the code.
    const prerendered = prerenderedPage(webRoot, c.req.path, signedIn);
    const html = fs.readFileSync(prerendered ?? indexFile, 'utf8');
    // The route's page is fetched with the page's own code rather than after it has run: the public pages always,
    // the signed-in ones (/ is the dashboard) only with a session cookie, since without one they go to /intro.
    // The drawn /intro starts its code after its first paint (scripts/prerender.mjs): nothing to preload there.
    const page = prerendered && html.includes('data-prerendered') ? undefined : pageModule(c.req.path, signedIn);
    const preload = page ? pagePreloads(webRoot, html, page) : '';
    const meta = signedIn ? '\n    <meta name="edgebook-session" content="present" />' : '';
    if (!meta && !preload) return c.html(html);
    // The preloads go after the entry's own, which the page needs first.
    return c.html(html.replace('<head>', `<head>${meta}`).replace(/\n?\s*<\/head>/, `${preload}\n  </head>`));
  };
  // The app's root is index.html too: served here, not as a plain file, for the hint above.
  app.get('/', serveIndex);
  app.get('/index.html', serveIndex);
  if (fs.existsSync(webRoot)) mountFiles(app, path.relative(process.cwd(), webRoot) || '.');
  app.get('*', (c) => {
    if (c.req.path.startsWith('/api/')) return c.json({ error: 'Not found' }, 404);
    // A tab left open across a deploy asks for hashed files that no longer exist: index.html in their place
    // fails in the browser as a baffling MIME-type error instead of a plain 404.
    if (c.req.path.startsWith('/assets/')) return c.text('Not found', 404);
    return serveIndex(c);
  });
}

/** The page drawn at build time for this path, if there is one and it was built. */
function prerenderedPage(webRoot: string, pathname: string, signedIn: boolean): string | null {
  const name = pathname === '/intro' ? 'intro' : signedIn && (pathname === '/' || pathname === '/index.html') ? 'dashboard' : null;
  const file = name && path.join(webRoot, `${name}.html`);
  return file && fs.existsSync(file) ? file : null;
}

/** Each route's page module (as src/web/app/router.tsx loads it), by the name Vite's manifest gives it. */
const PUBLIC_PAGES: Record<string, string> = {
  '/intro': 'features/intro/intro-page.tsx',
  '/login': 'features/auth/login-page.tsx',
  '/register': 'features/auth/register-page.tsx',
  '/forgot-password': 'features/auth/forgot-password-page.tsx',
  '/reset-password': 'features/auth/reset-password-page.tsx',
};
const SIGNED_IN_PAGES: Record<string, string> = {
  '/': 'features/dashboard/dashboard-page.tsx',
  '/index.html': 'features/dashboard/dashboard-page.tsx',
  '/trade-log': 'features/trade-log/trade-log-page.tsx',
  '/reflect': 'features/reflect/reflect-page.tsx',
  '/reflect-ai': 'features/reflect-ai/reflect-ai-page.tsx',
  '/notebook': 'features/notebook/notebook-page.tsx',
  '/journal': 'features/journal/journal-page.tsx',
  '/tutorials': 'features/tutorials/tutorials-page.tsx',
  '/market-data': 'features/market-data/market-data-page.tsx',
};

function pageModule(pathname: string, signedIn: boolean): string | undefined {
  if (PUBLIC_PAGES[pathname]) return PUBLIC_PAGES[pathname];
  if (!signedIn) return undefined;
  if (/^\/trade\/[^/]+$/.test(pathname)) return 'features/trade-details/trade-details-page.tsx';
  if (/^\/reports(\/[a-z-]+){0,2}$/.test(pathname)) return 'features/reports/reports-page.tsx';
  return SIGNED_IN_PAGES[pathname];
}

let manifestCache: { key: string; manifest: Manifest; links: Map<string, string> } | null = null;
type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>;

/**
 * Preload links for a page's chunk, every chunk it imports statically and their styles, from Vite's manifest: the
 * scripts as module preloads, the styles fetched early without holding up the first paint.
 */
function pagePreloads(webRoot: string, html: string, page: string): string {
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  let key = '';
  try {
    key = `${fs.statSync(manifestFile).mtimeMs}`;
  } catch {
    return '';
  }
  if (manifestCache?.key !== key) {
    manifestCache = { key, manifest: JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest, links: new Map() };
  }
  const cached = manifestCache.links.get(page);
  if (cached !== undefined) return cached;
  const { manifest } = manifestCache;
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(page);
  const notInPage = (file: string) => !html.includes(`/${file}"`);
  const links = [
    ...[...scripts].filter(notInPage).map((file) => `\n    <link rel="modulepreload" crossorigin href="/${file}">`),
    ...[...styles].filter(notInPage).map((file) => `\n    <link rel="preload" as="style" crossorigin href="/${file}">`),
  ].join('');
  manifestCache.links.set(page, links);
  return links;
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=[^;]/;

function mountFiles(app: Hono<AppEnv>, relativeRoot: string) {
  app.use('/assets/*', compressedAssets(path.join(relativeRoot, 'assets')));
  app.use(
    '/assets/*',
    serveStatic({
      root: relativeRoot,
      onFound: (_p, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.use(
    '*',
    serveStatic({
      root: relativeRoot,
      onFound: (file, c) => {
        c.header('Cache-Control', 'no-cache');
        // The tutorial videos' captions: Hono's table has no WebVTT, and a <track> wants it by its type.
        if (file.endsWith('.vtt')) c.header('Content-Type', 'text/vtt; charset=utf-8');
      },
    }),
  );
}
