import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { openDatabase } from '../../src/server/db/client';
import { recomputeExcursions } from '../../src/server/core/market/excursions';
import { repoRoot, signUp, spawnServer, summarize, tempDir, time, type PostgresForBench, type Row } from '../lib';

const SUITE = 'market';
const DAYS = 20;
const TRADES_PER_DAY = 500;
const TRADES = DAYS * TRADES_PER_DAY;
const CONTRACT = 'MNQH5';

/**
 * MAE, MFE, best exit and exit analysis of 10,000 trades from one-minute bars (target 10 s), both
 * as the bars' upload computes them (parse, upsert of 27,600 bars, every trade they touch computed and stored) and as
 * the computation alone (every trade read, its bars read, computed and stored, in one transaction). Then in Chromium:
 * a trade's chart drawn after the page's data arrives (from the chart request's last byte to the chart's
 * 'trade-chart-drawn' mark, set on the frame after the library drew it; target 300 ms).
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = tempDir('market');
  const note = `${TRADES.toLocaleString('en-US')} trades of ${CONTRACT}, ${DAYS} days of 1-minute bars`;
  try {
    let { server } = await spawnServer({ DATA_DIR: dir });
    let tradeId: string;
    let userId: string;
    let cookie: string;
    try {
      ({ cookie } = await signUp(server.url));
      const headers = { cookie, origin: server.url };
      const json = { ...headers, 'content-type': 'application/json' };
      userId = ((await (await fetch(`${server.url}/api/auth/get-session`, { headers })).json()) as { user: { id: string } }).user.id;
      const account = (await (
        await fetch(`${server.url}/api/accounts`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Apex 50K' }) })
      ).json()) as { id: string };
      const { fills, bars } = makeSession();
      const imported = await post(server.url, '/api/imports', { account_id: account.id, time_zone: 'America/New_York' }, fills, headers);
      if (imported.imported !== TRADES) throw new Error(`imported ${JSON.stringify(imported)}`);
      const [uploadMs, uploaded] = await time(() => post(server.url, '/api/market/bars', { contract: CONTRACT }, bars, headers));
      if (uploaded.trades_updated !== TRADES) throw new Error(`bars upload: ${JSON.stringify(uploaded)}`);
      rows.push(
        summarize(SUITE, 'POST /api/market/bars: 27,600 bars stored, MAE/MFE of every trade they touch', 'pglite', [uploadMs], 'ms', note, {
          limit: 10_000,
        }),
      );
      const list = (await (await fetch(`${server.url}/api/trades?limit=1`, { headers })).json()) as { trades: Array<{ id: string }> };
      tradeId = list.trades[0]!.id;
    } finally {
      await server.stop();
    }

    // The computation alone, in this process, on the same data directory.
    const database = await openDatabase({ dataDir: dir });
    const samples: number[] = [];
    try {
      const ids = (
        (await database.withUser(userId, (tx) => tx.execute(sql`select id from trades where user_id = ${userId}`))) as unknown as {
          rows: Array<{ id: string }>;
        }
      ).rows.map((r) => r.id);
      for (let i = 0; i < (ctx.quick ? 1 : 3); i++) {
        const [ms, computed] = await time(() => database.withUser(userId, (tx) => recomputeExcursions(tx, userId, { ids })));
        if (computed !== TRADES) throw new Error(`computed ${computed}`);
        samples.push(ms);
      }
    } finally {
      await database.close();
    }
    rows.push(summarize(SUITE, 'MAE/MFE, best exit and exit analysis computed and stored', 'pglite', samples, 'ms', note, { limit: 10_000 }));

    if (!process.env.BENCH_NO_BROWSER) {
      ({ server } = await spawnServer({ DATA_DIR: dir }));
      try {
        rows.push(await measureChart(server.url, cookie, tradeId, ctx.quick));
      } finally {
        await server.stop();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function post(url: string, route: string, query: Record<string, string>, body: string, headers: Record<string, string>) {
  const res = await fetch(`${url}${route}?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'text/csv' },
    body,
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * 20 weekdays of March 2025, each the CME session 18:00 (the evening before) to 17:00 New York: a one-minute bar every
 * minute (TradingView's layout) and 500 round trips of one contract, long and short in turn, held 10 s to 2.5 min.
 */
function makeSession() {
  const fills = ['filltime,account,symbol,side,qty,fillprice,status,commission,fillid'];
  const bars = ['time,open,high,low,close,Volume'];
  const ny = (ms: number) => new Date(ms - 4 * 3_600_000).toISOString().slice(0, 19).replace('T', ' '); // EDT from Mar 9
  const nyWinter = (ms: number) => new Date(ms - 5 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  let price = 20_000;
  let seed = 7;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  let fill = 0;
  let day = 0;
  for (let date = Date.UTC(2025, 2, 3); day < DAYS; date += 86_400_000) {
    const weekday = new Date(date).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    day++;
    const offset = date >= Date.UTC(2025, 2, 9, 7) ? 4 : 5;
    const open = date - 6 * 3_600_000 + offset * 3_600_000; // 18:00 New York the evening before
    const minutes = 23 * 60;
    const closes: number[] = [];
    for (let m = 0; m < minutes; m++) {
      const o = price;
      price = Math.round((price + (random() - 0.5) * 8) * 4) / 4;
      const high = Math.max(o, price) + Math.round(random() * 8) / 4;
      const low = Math.min(o, price) - Math.round(random() * 8) / 4;
      closes.push(price);
      bars.push(`${(open + m * 60_000) / 1000},${o},${high},${low},${price},${10 + Math.round(random() * 90)}`);
    }
    const spacing = Math.floor((minutes * 60_000) / TRADES_PER_DAY);
    const local = offset === 4 ? ny : nyWinter;
    for (let t = 0; t < TRADES_PER_DAY; t++) {
      const entry = open + t * spacing + 1000;
      const exit = entry + 10_000 + Math.floor(random() * 140_000);
      const entryPrice = closes[Math.floor((entry - open) / 60_000)]!;
      const exitPrice = closes[Math.floor((exit - open) / 60_000)]!;
      const [first, second] = t % 2 === 0 ? ['Buy', 'Sell'] : ['Sell', 'Buy'];
      fills.push(`${local(entry)},ACC1,${CONTRACT},${first},1,${entryPrice},Filled,0.52,F${++fill}`);
      fills.push(`${local(exit)},ACC1,${CONTRACT},${second},1,${exitPrice},Filled,0.52,F${++fill}`);
    }
  }
  return { fills: `${fills.join('\n')}\n`, bars: `${bars.join('\n')}\n` };
}

/** A trade's page opened afresh each time; the chart's draw measured in the page from its data's arrival. */
async function measureChart(url: string, cookie: string, tradeId: string, quick: boolean): Promise<Row> {
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'web', 'index.html'))) throw new Error('build the web app first (npm run build)');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  const samples: number[] = [];
  try {
    for (let run = 0; run < (quick ? 3 : 10); run++) {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 } });
      await context.addCookies(
        cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), url })),
      );
      const page = await context.newPage();
      await page.goto(`/trade/${tradeId}`);
      await page.locator('[data-testid="trade-chart"][data-ready="true"]').waitFor({ timeout: 60_000 });
      samples.push(
        await page.evaluate(() => {
          const drawn = performance.getEntriesByName('trade-chart-drawn').at(-1)!.startTime;
          const data = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes('/chart?')).at(-1)!;
          return drawn - data.responseEnd;
        }),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return summarize(
    SUITE,
    'trade chart drawn after its data arrives (1-minute bars, 30 min padding)',
    'chromium + pglite',
    samples,
    'ms',
    '1440 px, a fresh page each time',
    { limit: 300 },
  );
}
