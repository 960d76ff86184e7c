// `npm run screenshots`: the guides' pictures, made again from the running app. It builds the app when needed, starts
// the compiled server on a throwaway embedded database, writes a month of invented trades for one trader through the
// API (as a trader would type them), and photographs each page in the light theme at 1440 x 900 with Chromium
// (CHROMIUM_PATH, or Debian's /usr/bin/chromium), then a few of them in the dark theme and at a phone's width. The
// pictures land in docs/guide/images/.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'docs/guide/images');

/**
 * The pages of the guides: file name, path, a selector that must be on screen before the picture is taken, and the
 * label of a button to press first (the dashboard's calendar turned back to the seeded month).
 */
const PAGES = [
  ['dashboard', '/', '[data-testid^="calendar-week-"]', 'Previous month'],
  ['trade-log', '/trade-log', 'h1'],
  ['reports-overview', '/reports?range=all-time', '[data-testid="figure-trades"]'],
  ['reports-breakdowns', '/reports/breakdowns/session?range=all-time', '[data-testid="breakdown-table-row"]'],
  ['reports-depth', '/reports/depth?range=all-time', 'h1'],
  ['playbooks', '/playbooks', 'h1'],
  ['notebook', '/notebook', 'h1'],
  ['daily-journal', '/journal', 'h1'],
];

/** The looks each page is photographed in: the light desktop for every page, then dark and phone for a few. */
const LOOKS = [
  { suffix: '', scheme: 'light', viewport: { width: 1440, height: 900 }, pages: PAGES.map(([name]) => name) },
  { suffix: '-dark', scheme: 'dark', viewport: { width: 1440, height: 900 }, pages: ['dashboard', 'trade-log', 'reports-overview'] },
  { suffix: '-phone', scheme: 'light', viewport: { width: 390, height: 844 }, pages: ['dashboard', 'trade-log', 'reports-overview'] },
  { suffix: '-phone-dark', scheme: 'dark', viewport: { width: 390, height: 844 }, pages: ['dashboard'] },
];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

execFileSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], { cwd: root, stdio: 'inherit' });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-screenshots-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['dist/server/main.mjs'], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, LOG_LEVEL: 'warn', DATABASE_URL: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

let cookie = '';
async function api(method, url, body) {
  const res = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', origin: base, cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = res.headers.getSetCookie();
  if (set.length) cookie = set.map((c) => c.split(';')[0]).join('; ');
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A month of NQ and MNQ trades with times, prices and planned risk: a few a day, mostly in the New York morning. */
async function seed() {
  await api('POST', '/api/auth/sign-up/email', { name: 'Dana', email: 'dana@example.com', password: 'correct-horse-battery-9' });
  const account = await api('POST', '/api/accounts', { name: 'Apex 50K', is_default: true });
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  // The whole calendar month before this one, which the dashboard's calendar is turned back to.
  const now = new Date();
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  const days = Math.round((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - start) / 86_400_000);
  for (let day = 0; day < days; day++) {
    const date = new Date(start + day * 86_400_000);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const iso = date.toISOString().slice(0, 10);
    for (let n = 0; n < 1 + Math.floor(random() * 3); n++) {
      const symbol = random() < 0.6 ? 'NQ' : 'MNQ';
      const point = symbol === 'NQ' ? 20 : 2;
      const quantity = symbol === 'NQ' ? 1 : 1 + Math.floor(random() * 4);
      const side = random() < 0.55 ? 'Long' : 'Short';
      const entry = 20800 + Math.round(random() * 800) / 4;
      const move = Math.round((random() * 60 - 24) * 4) / 4;
      const exit = side === 'Long' ? entry + move : entry - move;
      const minute = 14 * 60 + 35 + Math.floor(random() * 150);
      const entryTime = new Date(start + day * 86_400_000 + minute * 60_000).toISOString();
      const exitTime = new Date(start + day * 86_400_000 + (minute + 2 + Math.floor(random() * 25)) * 60_000).toISOString();
      const fees = (0.74 * 2 * quantity * (symbol === 'NQ' ? 4 : 1)).toFixed(2);
      await api('POST', '/api/trades', {
        date: iso,
        period: minute < 16 * 60 ? 'AM' : 'PM',
        symbol,
        side,
        quantity: String(quantity),
        entry_price: String(entry),
        exit_price: String(exit),
        entry_time: entryTime,
        exit_time: exitTime,
        pnl: (move * point * quantity - Number(fees)).toFixed(2),
        commission: fees,
        risk_amount: String(10 * point * quantity),
        account_id: account.id,
      });
    }
  }
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await seed();
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const look of LOOKS) {
      const context = await browser.newContext({ viewport: look.viewport, colorScheme: look.scheme });
      await context.addCookies(cookie.split('; ').map((pair) => ({ name: pair.split('=')[0], value: pair.slice(pair.indexOf('=') + 1), url: base })));
      await context.addInitScript((scheme) => window.localStorage.setItem('theme', scheme), look.scheme);
      const page = await context.newPage();
      for (const [name, url, selector, click] of PAGES.filter(([name]) => look.pages.includes(name))) {
        await page.goto(base + url);
        await page.locator(selector).first().waitFor({ timeout: 30_000 });
        if (click) await page.getByLabel(click).click();
        await page.waitForLoadState('networkidle');
        // Charts draw with a short animation.
        await page.waitForTimeout(1500);
        await page.screenshot({ path: path.join(out, `${name}${look.suffix}.png`) });
        console.log(`docs/guide/images/${name}${look.suffix}.png`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
