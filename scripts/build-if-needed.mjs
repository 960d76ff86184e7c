// `npm start` builds the web app and the server only when their output is missing or older than their sources, so a
// restart is instant.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const p = (...parts) => path.join(root, ...parts);

function newest(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(target).map((name) => newest(path.join(target, name))));
}

const stale = (output, sources) => !fs.existsSync(output) || fs.statSync(output).mtimeMs < Math.max(...sources.map(newest));
const thisScript = p('scripts', 'build-if-needed.mjs');

if (
  stale(p('dist', 'web', 'index.html'), [
    p('src', 'web'),
    p('src', 'domain'),
    p('src', 'contract'),
    p('vite.config.ts'),
    p('package-lock.json'),
    thisScript,
  ])
) {
  console.log('Building the web app...');
  // NODE_ENV=production whoever calls: under vitest (NODE_ENV=test) Vite would bundle React's development build.
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// /intro and the signed-in dashboard's frame drawn at build time (src/web/prerender.tsx), from the web app just built.
const prerendered = [p('dist', 'web', 'intro.html'), p('dist', 'web', 'dashboard.html')];
if (prerendered.some((page) => stale(page, [p('dist', 'web', 'index.html'), p('scripts', 'prerender.mjs')]))) {
  const result = spawnSync(process.execPath, [p('scripts', 'prerender.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The server, compiled to one ES module (packages stay in node_modules): running TypeScript through tsx at run time
// cost memory and start-up (~200 MB RSS on PostgreSQL, 0.9-1 GB with PGlite).
// The import parse worker (src/server/core/parse/parse-pool.ts) is a second entry beside it: a worker thread
// runs a file of its own, which parse-pool.ts finds as ./parse-worker.mjs next to the bundle.
export const serverEntry = p('dist', 'server', 'main.mjs');
const workerEntry = p('dist', 'server', 'parse-worker.mjs');
const serverSources = [p('src', 'server'), p('src', 'domain'), p('src', 'contract'), p('package-lock.json'), thisScript];
if (stale(serverEntry, serverSources) || stale(workerEntry, serverSources)) {
  console.log('Building the server...');
  await build({
    entryPoints: {
      main: p('src', 'server', 'main.ts'),
      'parse-worker': p('src', 'server', 'core', 'parse', 'parse-worker.ts'),
    },
    outdir: p('dist', 'server'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    // The migrations are read at run time from src/server/db/migrations (found from the package root).
    loader: { '.sql': 'empty' },
  });
}
