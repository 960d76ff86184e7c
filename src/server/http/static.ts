import fs from 'node:fs';
import path from 'node:path';
import type { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AppEnv } from './context';

/**
 * Serves the built single-page app from `dist/web`: hashed files under /assets are cached for a year, index.html
 * is revalidated, and any other GET that is not an API path or a file gets index.html (history fallback).
 */
export function mountWebApp(app: Hono<AppEnv>, webRoot: string) {
  const indexFile = path.join(webRoot, 'index.html');
  if (fs.existsSync(webRoot)) mountFiles(app, path.relative(process.cwd(), webRoot) || '.');
  app.get('*', (c) => {
    if (c.req.path.startsWith('/api/')) return c.json({ error: 'Not found' }, 404);
    // A tab left open across a deploy asks for hashed files that no longer exist: index.html in their place
    // fails in the browser as a baffling MIME-type error instead of a plain 404.
    if (c.req.path.startsWith('/assets/')) return c.text('Not found', 404);
    if (!fs.existsSync(indexFile)) {
      return c.text('The web app is not built yet. Run `npm run build` (npm start does it for you).', 503);
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(fs.readFileSync(indexFile, 'utf8'));
  });
}

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
