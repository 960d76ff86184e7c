import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { freePort } from '../../src/server/free-port';

/**
 * `npm start` runs the compiled server (dist/server/main.mjs, built by scripts/build-if-needed.mjs when its sources
 * change) rather than TypeScript through tsx (issue 14: memory and start-up). It must serve the API and the web app
 * and close cleanly on SIGTERM, with no tsx in the process.
 */
it('npm start builds and runs the compiled server, which serves /api and the app and stops cleanly on SIGTERM', async () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-compiled-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, AUTH_SECRET: 'test-secret-test-secret-test-secret-0123' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  try {
    await expect.poll(() => out.includes('Edgebook is running at'), { timeout: 120_000, interval: 200 }).toBe(true);
    expect(fs.existsSync(path.join(root, 'dist', 'server', 'main.mjs'))).toBe(true);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    const page = await fetch(`http://127.0.0.1:${port}/dashboard-anything`);
    expect(await page.text()).toContain('<div id="root">');
    // The process runs the compiled module, not the TypeScript loader.
    const cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain('tsx');
    const maps = fs.readFileSync(`/proc/${child.pid}/maps`, 'utf8');
    expect(maps).not.toContain('esbuild');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('database closed');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
