import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { freePort } from '../../src/server/free-port';
import { ApiClient, uniqueEmail } from '../support/app';
import { brokerFile, importFile } from './imports-support';

/**
 * `npm start` runs the compiled server (dist/server/main.mjs, built by scripts/build-if-needed.mjs when its sources
 * change) rather than TypeScript through tsx (memory and start-up). It must serve the API and the web app,
 * parse imports in its worker thread (a file of its own beside the bundle) and close cleanly on
 * SIGTERM, with no tsx in the process.
 */
it('npm start builds and runs the compiled server, which serves /api and the app, imports through its worker and stops cleanly on SIGTERM', async () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-compiled-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    },
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
    expect(fs.existsSync(path.join(root, 'dist', 'server', 'parse-worker.mjs'))).toBe(true);

    // A real broker export, parsed by the compiled worker: both round trips land, a second import adds none.
    const trader = new ApiClient(`http://127.0.0.1:${port}`);
    expect((await trader.signUp(uniqueEmail('compiled'))).status).toBe(200);
    const account = await trader.post('/api/accounts', { name: 'Compiled' });
    expect(account.status).toBe(201);
    const file = brokerFile('tradovate-performance/freetradejournal__tradovate-trades-performance.csv');
    const query = { account_id: account.body.id, time_zone: 'America/New_York' };
    const first = await importFile(trader, query, file);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ imported: 2, duplicates: 0 });
    const again = await importFile(trader, query, file);
    expect(again.body).toMatchObject({ imported: 0, duplicates: 2 });
    const listed = await trader.get(`/api/trades?account=${account.body.id}`);
    expect(listed.body.trades).toHaveLength(2);
    expect(listed.body.trades.map((t: { contract: string; pnl: string }) => [t.contract, t.pnl])).toEqual(
      expect.arrayContaining([
        ['MNQM6', '-406.20'],
        ['MNQM6', '1193.80'],
      ]),
    );

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
