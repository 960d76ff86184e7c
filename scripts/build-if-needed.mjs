// `npm start` builds the web app only when dist/web is missing or older than its sources, so a restart is instant.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist', 'web', 'index.html');
const sources = ['src/web', 'src/domain', 'vite.config.ts', 'package-lock.json', 'scripts/build-if-needed.mjs'].map((p) => path.join(root, p));

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
}

if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < Math.max(...sources.map(newest))) {
  console.log('Building the web app...');
  // NODE_ENV=production whoever calls: under vitest (NODE_ENV=test) Vite would bundle React's development build.
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
