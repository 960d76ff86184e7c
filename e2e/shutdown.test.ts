import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freePort } from '../src/server/free-port';
import { uniqueEmail } from '../tests/support/app';
import { RegisterPage } from './pages/auth-pages';
import { TradeLogPage } from './pages/trade-log';
import { launchBrowser } from './support/browser';

/**
 * After a short browser session against `npm start` (PGlite), a SIGTERM to the process group left
 * the server running for minutes, and a second SIGTERM did not end it either. A plain keep-alive client alone did
 * not reproduce it, so this drives a real Chromium, leaves its tab open, and then stops the server as a process
 * manager would. Shutdown must finish within 10 s whatever is open, closing the database cleanly.
 */
const root = path.resolve(import.meta.dirname, '..');

function startServer(dataDir: string, port: number) {
  // `npm start` is `node scripts/start.mjs`: the same entry, in its own process group.
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => out.includes('Edgebook is running at') && resolve();
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`server exited (${code}) before it was ready:\n${out}`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    ready,
    exited,
    killGroup(signal: NodeJS.Signals) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // gone
      }
    },
  };
}

describe('shutdown after a browser session', () => {
  let browser: Browser;
  const cleanups: Array<() => void> = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const cleanup of cleanups) cleanup();
    await browser?.close();
  });

  it('exits within 10 s of a SIGTERM to the process group, with the tab still open, and frees the data directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-shutdown-'));
    const server = startServer(dataDir, await freePort('127.0.0.1'));
    cleanups.push(() => {
      server.killGroup('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    await server.ready;

    // A short session as a trader has one: sign up, the dashboard loads its data, open the trade log.
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    const register = new RegisterPage(page);
    await register.goto();
    await register.register(uniqueEmail(), 'correct-horse-9');
    await page.waitForURL((url) => !/\/register/.test(url.pathname));
    await new TradeLogPage(page).goto();
    await page.waitForLoadState('networkidle');

    const started = performance.now();
    server.killGroup('SIGTERM');
    const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('still running after 12 s'), 12_000))]);
    const seconds = (performance.now() - started) / 1000;
    expect(code, server.output().slice(-2000)).toBe(0);
    expect(seconds).toBeLessThan(10);
    expect(server.output()).toContain('database closed, bye');
    expect(fs.existsSync(path.join(dataDir, 'edgebook.lock'))).toBe(false);
    await context.close();
  }, 120_000);
});
