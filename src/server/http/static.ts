import fs from 'node:fs';
import path from 'node:path';
import type { Context, Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
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
    const html = fs.readFileSync(indexFile, 'utf8');
    // A browser holding a session cookie is told so in the page, so that its data requests start with the session
    // check instead of after it (issue 14). Only the cookie's presence: whether it is valid is the session check's.
    if (!SESSION_COOKIE.test(c.req.header('cookie') ?? '')) return c.html(html);
    // Signed in, / is the dashboard: its code is fetched with the page's own rather than after it has run.
    const preload = c.req.path === '/' ? dashboardPreloads(webRoot, html) : '';
    // The preloads go after the entry's own, which the page needs first.
    return c.html(html.replace('<head>', '<head>\n    <meta name="edgebook-session" content="present" />').replace(/\n?\s*<\/head>/, `${preload}\n  </head>`));
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

const DASHBOARD_PAGE = 'features/dashboard/dashboard-page.tsx';
let preloadCache: { key: string; links: string } | null = null;

/** Module preload links for the dashboard page's chunk and every chunk it imports statically, from Vite's manifest. */
function dashboardPreloads(webRoot: string, html: string): string {
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  let key = '';
  try {
    key = `${fs.statSync(manifestFile).mtimeMs}`;
  } catch {
    return '';
  }
  if (preloadCache?.key === key) return preloadCache.links;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; imports?: string[] }>;
  const files = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(DASHBOARD_PAGE);
  const links = [...files]
    .filter((file) => !html.includes(`/${file}"`))
    .map((file) => `\n    <link rel="modulepreload" crossorigin href="/${file}">`)
    .join('');
  preloadCache = { key, links };
  return links;
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=[^;]/;

function mountFiles(app: Hono<AppEnv>, relativeRoot: string) {
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
      onFound: (_p, c) => {
        c.header('Cache-Control', 'no-cache');
      },
    }),
  );
}
