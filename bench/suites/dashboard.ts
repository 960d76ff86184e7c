import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { measureRequests, signUp, spawnServer, summarize, tempDir, time, type PostgresForBench, type Row, type ServerProcess } from '../lib';

const SUITE = 'dashboard';
const TRADES = 100_000;
const CHUNK = 10_000;
const SYMBOLS = ['NQ', 'ES', 'MNQ', 'MES', 'YM', 'RTY', 'BTC'];
const SESSIONS = ['AM', 'PM', 'Lunch', 'Overnight'];

/**
 * The dashboard with 100,000 trades: each data request the page makes on load (p50/p95, one client, sequential),
 * all of them together as the page fires them, and the time until Chromium shows the filled-in PnL calendar.
 * On the embedded PGlite and on a PostgreSQL server.
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const browser = await launchChromium();
  try {
    const dir = tempDir('dashboard-pglite');
    const pglite = await spawnServer({ DATA_DIR: dir });
    try {
      rows.push(...(await measureBackend(pglite.server, 'pglite', browser, ctx.quick)));
    } finally {
      await pglite.server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    if (ctx.postgres) {
      const dir2 = tempDir('dashboard-pg');
      const pg = await spawnServer({ DATABASE_URL: await ctx.postgres.newDatabase(), DATA_DIR: dir2 });
      try {
        rows.push(...(await measureBackend(pg.server, 'postgres', browser, ctx.quick)));
      } finally {
        await pg.server.stop();
        fs.rmSync(dir2, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayString = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** 100,000 trades on the last ~1,400 weekdays up to today (about 70 a day), deterministic. */
function buildTrades(): Array<Record<string, unknown>> {
  const days: string[] = [];
  const cursor = new Date();
  cursor.setUTCHours(12, 0, 0, 0);
  while (days.length < 1400) {
    const weekday = cursor.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(dayString(cursor));
    cursor.setUTCDate(cursor.getUTCDate() - 1);
  }
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  return Array.from({ length: TRADES }, (_, i) => ({
    date: days[i % days.length],
    symbol: SYMBOLS[i % SYMBOLS.length],
    period: SESSIONS[i % SESSIONS.length],
    trade_type: 'A/A+',
    pnl: Math.round((random() - 0.45) * 80_000) / 100,
    commission: 4.28,
    notes: i % 50 === 0 ? 'bench trade with a note' : '',
  }));
}

async function seed(url: string, cookie: string): Promise<number> {
  const headers = { cookie, origin: url, 'content-type': 'application/json' };
  // The trader's onboarding is done first, so the page load does not add samples to the figures.
  await fetch(`${url}/api/onboarding`, { method: 'POST', headers });
  const account = (await (
    await fetch(`${url}/api/accounts`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench Account' }) })
  ).json()) as { id: string };
  const trades = buildTrades();
  const t0 = performance.now();
  for (let i = 0; i < trades.length; i += CHUNK) {
    const res = await fetch(`${url}/api/trades/import`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ account_id: account.id, trades: trades.slice(i, i + CHUNK) }),
    });
    if (res.status !== 201) throw new Error(`import failed: ${res.status} ${await res.text()}`);
  }
  return performance.now() - t0;
}

/** The requests the dashboard sends on load, for today's month. */
function dashboardRequests(url: string): Array<{ name: string; url: string; method?: string; target?: boolean }> {
  const now = new Date();
  const today = dayString(now);
  const first = `${today.slice(0, 8)}01`;
  const last = dayString(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0, 12)));
  // The dashboard asks for seven months of per-day rows (dashboard-page.tsx), the earlier days summed.
  const daysFrom = dayString(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 7, 1, 12)));
  return [
    { name: 'POST /api/onboarding (already done)', url: `${url}/api/onboarding`, method: 'POST' },
    { name: 'GET /api/preferences', url: `${url}/api/preferences` },
    { name: 'GET /api/profile', url: `${url}/api/profile` },
    { name: 'GET /api/accounts', url: `${url}/api/accounts` },
    { name: 'GET /api/trades/stats (all time)', url: `${url}/api/trades/stats?account=all&days=${daysFrom}`, target: true },
    { name: 'GET /api/trades/stats (calendar month)', url: `${url}/api/trades/stats?account=all&from=${first}&to=${last}` },
    { name: 'GET /api/tasks?date=today', url: `${url}/api/tasks?date=${today}` },
    { name: 'GET /api/tasks/status (month)', url: `${url}/api/tasks/status?from=${first}&to=${last}` },
    { name: 'GET /api/trades (one day)', url: `${url}/api/trades?account=all&from=${today}&to=${today}&limit=500` },
  ];
}

async function measureBackend(server: ServerProcess, backend: string, browser: Browser, quick: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  const { cookie } = await signUp(server.url);
  const seedMs = await seed(server.url, cookie);
  rows.push(summarize(SUITE, `import ${TRADES.toLocaleString('en-US')} trades (${TRADES / CHUNK} requests)`, backend, [seedMs]));

  const n = quick ? 20 : 100;
  const requests = dashboardRequests(server.url);
  for (const r of requests) {
    const init: RequestInit = { method: r.method ?? 'GET', headers: { cookie, origin: server.url } };
    // The all-time statistics within 50 ms p95.
    rows.push(summarize(SUITE, r.name, backend, await measureRequests(r.url, init, n), 'ms', '100k trades', r.target ? { limit: 50 } : undefined));
  }

  // All of them at once, as the page fires them.
  const together: number[] = [];
  for (let i = 0; i < (quick ? 10 : 30); i++) {
    const [ms] = await time(() =>
      Promise.all(
        requests.map(async (r) => {
          const res = await fetch(r.url, { method: r.method ?? 'GET', headers: { cookie, origin: server.url } });
          await res.arrayBuffer();
        }),
      ),
    );
    together.push(ms);
  }
  rows.push(summarize(SUITE, 'all load requests in parallel', backend, together, 'ms', '100k trades'));

  // Chromium: from navigation to the calendar showing this month's figures.
  const shown: number[] = [];
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: server.url };
    }),
  );
  const page = await context.newPage();
  await page.goto('/');
  await page.getByTestId('calendar-month-total').waitFor({ timeout: 120_000 });
  for (let i = 0; i < (quick ? 3 : 10); i++) {
    const [ms] = await time(async () => {
      await page.goto('/', { waitUntil: 'commit' });
      // A day cell with figures: the month's statistics have arrived and the grid is drawn.
      await page.locator('[data-testid^="calendar-day-"] [data-testid="day-pnl"]').first().waitFor({ timeout: 120_000 });
    });
    shown.push(ms);
  }
  await context.close();
  rows.push(summarize(SUITE, 'page load to PnL calendar shown (Chromium)', backend, shown, 'ms', '100k trades'));
  return rows;
}
