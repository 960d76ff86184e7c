import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { pgliteExtensions } from '../../src/server/db/client';
import { repoRoot, signUp, spawnServer, summarize, tempDir, type PostgresForBench, type Row } from '../lib';

const SUITE = 'reports';
const TRADES = 100_000;

/**
 * The Reports page at 100,000 trades of one trader: every report, with filters of the days and accounts only
 * and with trade-level filters combined (instrument, side, hours in the trader's zone, hold time, tags, weekdays,
 * size),
 * on PGlite and PostgreSQL. Target: every report within 100 ms p95 on PGlite and 50 ms on PostgreSQL, whatever filters
 * combine. The server keeps a trader's trades in memory until they change (src/server/core/engine/trades-cache.ts),
 * and the first report after a change reads only the trades that changed: measured apart, after a 1-trade edit and
 * after a 1,000-trade import, beside the very first report of the process (every trade read). In
 * Chromium (against PostgreSQL when it is there, else PGlite): a filter changed in the filter bar, from the click to
 * the page showing the new figures (target 1 s).
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const n = ctx.quick ? 15 : 60;

  const dir = tempDir('reports');
  try {
    let { server } = await spawnServer({ DATA_DIR: dir });
    const trader = await newTrader(server.url);
    await server.stop();
    const db = await PGlite.create(path.join(dir, 'pglite'), { extensions: pgliteExtensions });
    await seed((text, params) => db.query(text, params), trader);
    await db.close();
    ({ server } = await spawnServer({ DATA_DIR: dir }));
    try {
      rows.push(...(await measure(server.url, trader, 'pglite', n, 100)));
      if (!ctx.postgres && !process.env.BENCH_NO_BROWSER && !process.env.BENCH_REPORTS_ONLY)
        rows.push(...(await measureBrowser(server.url, trader.cookie, 'pglite', ctx.quick)));
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  if (ctx.postgres) {
    const url = await ctx.postgres.newDatabase();
    const pgDir = tempDir('reports-pg');
    const { server } = await spawnServer({ DATABASE_URL: url, DATA_DIR: pgDir });
    try {
      const trader = await newTrader(server.url);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await seed((text, params) => client.query(text, params), trader);
      await client.query('vacuum analyze trades');
      await client.query('vacuum analyze trade_day_rollups');
      await client.end();
      rows.push(...(await measure(server.url, trader, 'postgres', n, 50)));
      if (!process.env.BENCH_NO_BROWSER && !process.env.BENCH_REPORTS_ONLY)
        rows.push(...(await measureBrowser(server.url, trader.cookie, 'postgres', ctx.quick)));
    } finally {
      await server.stop();
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  }
  return rows;
}

async function newTrader(url: string) {
  const { cookie } = await signUp(url);
  const headers = { cookie, origin: url, 'content-type': 'application/json' };
  const session = (await (await fetch(`${url}/api/auth/get-session`, { headers })).json()) as { user: { id: string } };
  const create = async (name: string) =>
    ((await (await fetch(`${url}/api/accounts`, { method: 'POST', headers, body: JSON.stringify({ name }) })).json()) as { id: string }).id;
  // A default for NQ (20 points): NQ trades without a plan of their own are priced by it, the other roots not.
  const put = await fetch(`${url}/api/risk-defaults`, { method: 'PUT', headers, body: JSON.stringify({ root: 'NQ', stop_points: '20' }) });
  if (!put.ok) throw new Error(`PUT /api/risk-defaults answered ${put.status}`);
  return { cookie, userId: session.user.id, accountId: await create('Apex 50K'), otherAccountId: await create('Topstep 150K') };
}

type Trader = Awaited<ReturnType<typeof newTrader>>;
type Query = (text: string, params: unknown[]) => Promise<unknown>;

/**
 * 100,000 imported-looking trades over ~5.5 years (about 50 a trading day): five roots and their contracts, longs and
 * shorts, entries from 18:00 (the evening before, the exchange's day) to 16:00 New York, holds from seconds to hours,
 * sizes 1 to 5, a few tags, three setups, 70% in one account, 20% in the other and 10% unassigned; a third with a stop,
 * a third with a dollar risk, the rest priced by the NQ default or without a planned risk. Written straight into
 * the database as the API stores trades (net pnl, status from its sign, 12:00 UTC); the triggers keep the rollups and
 * the version. Three in four trades take one of three playbooks and tick some of its four rules.
 */
async function seed(query: Query, trader: Trader) {
  await query(
    `insert into trades (user_id, account_id, trade_date, day_of_week, symbol, contract, side, period, trade_type, status, pnl, commission,
                         tags, notes, entry_time, exit_time, quantity, entry_price, stop_price, risk_amount, created_at, updated_at)
     select $1, case when g % 10 < 7 then $2::uuid when g % 10 < 9 then $4::uuid end, d.day, trim(to_char(d.day at time zone 'UTC', 'Day')),
            r.root, r.root || 'M6', case when g % 9 < 5 then 'Long' else 'Short' end,
            (array['Overnight','AM','AM','Lunch','PM','PM'])[1 + g % 6], (array['Breakout','Pullback','Reversal'])[1 + g % 3],
            case when p.pnl > 0 then 'Win' when p.pnl < 0 then 'Loss' else 'BE' end, p.pnl, round((1 + g % 5) * 1.24, 2),
            case g % 5 when 0 then array['A+'] when 1 then array['A+', 'FOMO'] when 3 then array['Revenge'] else array[]::text[] end, '',
            e.entry, e.entry + ((g * 37) % 7200 + 5) * interval '1 second', 1 + g % 5,
            5000 + g % 400, case when g % 3 = 0 then 5000 + g % 400 - (2 + g % 8) end, case when g % 3 = 1 then 150 + (g % 4) * 50 end,
            now() + g * interval '1 millisecond', now()
     from generate_series(1, $3::int) g,
          lateral (select timestamptz '2020-01-06 12:00:00+00' + ((g / 50) * 7 / 5 + (g / 50) % 5) * interval '1 day' as day) d,
          lateral (select (array['NQ','ES','MNQ','MES','RTY'])[1 + g % 5] as root) r,
          lateral (select d.day - interval '1 day' + interval '11 hours' + ((g * 13) % 1320) * interval '1 minute' as entry) e,
          lateral (select round((((g * 7919) % 2001) - 900)::numeric / 4, 2) as pnl) p`,
    [trader.userId, trader.accountId, TRADES, trader.otherAccountId],
  );
  // Three playbooks of four rules; three trades in four take one, and tick 0 to 4 of its rules.
  await query(
    `with p as (insert into playbooks (user_id, name) select $1, 'Playbook ' || k from generate_series(1, 3) k returning id, name)
     insert into playbook_rules (user_id, playbook_id, position, text) select $1, p.id, r, 'Rule ' || r from p, generate_series(0, 3) r`,
    [trader.userId],
  );
  await query(
    `update trades t set playbook_id = p.id
     from (select id, row_number() over (order by name) as k from playbooks where user_id = $1) p
     where t.user_id = $1 and abs(hashtext(t.id::text)) % 4 = p.k`,
    [trader.userId],
  );
  await query(
    `insert into trade_rule_checks (user_id, trade_id, rule_id)
     select $1, t.id, r.id from trades t join playbook_rules r on r.playbook_id = t.playbook_id and r.user_id = t.user_id
     where t.user_id = $1 and abs(hashtext(t.id::text || 'ticks')) % 5 > r.position`,
    [trader.userId],
  );
}

/** Sequential requests after warm-ups; each sample may ask a different path (a filter change). */
async function sample(url: string, cookie: string, paths: readonly string[], n: number): Promise<number[]> {
  const init = { headers: { cookie } };
  const samples: number[] = [];
  for (let i = -3; i < n; i++) {
    const path = paths[((i % paths.length) + paths.length) % paths.length]!;
    const t0 = performance.now();
    const res = await fetch(`${url}${path}`, init);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    if (i >= 0) samples.push(performance.now() - t0);
  }
  return samples;
}

async function measure(url: string, trader: Trader, backend: string, n: number, limit: number): Promise<Row[]> {
  const { cookie } = trader;
  const target = { limit };
  const note = '100,000 trades';
  const get = (path: string) => fetch(`${url}${path}`, { headers: { cookie } });

  // The first report reads every trade into the server's memory.
  const t0 = performance.now();
  const first = (await (await get('/api/reports/overview')).json()) as { overview: { trades: number } };
  const firstMs = performance.now() - t0;
  if (first.overview.trades !== TRADES) throw new Error(`expected ${TRADES} trades, the overview counts ${first.overview.trades}`);

  const playbooks = (await (await get('/api/playbooks')).json()) as Array<{ id: string; trades: number }>;
  if (playbooks.length !== 3 || playbooks[0]!.trades < TRADES / 5)
    throw new Error(`expected 3 playbooks of ~25,000 trades, got ${JSON.stringify(playbooks)}`);
  const acct = trader.accountId;
  // Filters of the days and accounts only, and trade-level filters combined; each sample takes the next one.
  const plain = ['', '?range=last-90-days', `?account=${acct}`, `?range=this-year&account=${acct}&account=unassigned`];
  const combined = [
    '?symbol=NQ&side=Short&hour=14&hour=15&range=last-90-days',
    '?tag=FOMO&tagMode=none&hold=1-5m&hold=5-15m&weekday=2&weekday=4&sizeMin=1&sizeMax=2',
    `?account=${acct}&setup=Breakout&session=AM&result=Win&result=Loss&tag=A%2B`,
    '?contract=ESM6&contract=MESM6&hour=9&hour=10&hour=11&range=custom&from=2022-01-01&to=2024-06-30',
  ];
  const withQuery = (base: string, filter: string, extra = '') => `${base}${filter}${filter ? (extra ? `&${extra}` : '') : extra ? `?${extra}` : ''}`;
  const report = (name: string, base: string, extra = '') =>
    [
      [`${name}, days and accounts`, plain.map((f) => withQuery(base, f, extra))],
      [`${name}, trade-level filters combined`, combined.map((f) => withQuery(base, f, extra))],
    ] as const;
  const breakdowns = ['instrument', 'contract', 'side', 'setup', 'session', 'tag', 'account', 'weekday', 'hour', 'hold', 'size', 'month', 'year'];
  const measures: Array<readonly [string, readonly string[]]> = [
    ...report('overview', '/api/reports/overview'),
    ...report('equity (by trade and by day)', '/api/reports/equity'),
    ['breakdown, each of the 13 dimensions, all trades', breakdowns.map((by) => `/api/reports/breakdown?by=${by}`)],
    [
      'breakdown, each of the 13 dimensions, trade-level filters combined',
      breakdowns.map((by, i) => withQuery('/api/reports/breakdown', combined[i % combined.length]!, `by=${by}`)),
    ],
    ...report('heatmap', '/api/reports/heatmap'),
    ...report('depth (drawdown, streaks, ratios)', '/api/reports/depth'),
    // The printable month: the month replaces the filter's range, so the filters narrow one month of ~1,300 trades.
    ...report('monthly review', '/api/reports/monthly-review', 'month=2024-03'),
    [
      'compare, four sets with their breakdown by session',
      [
        `/api/reports/compare?${new URLSearchParams({ a: '', b: 'side=Short', c: 'hour=9&hour=10', d: `account=${acct}`, by: 'session' })}`,
        `/api/reports/compare?${new URLSearchParams({ a: 'range=last-90-days', b: 'setup=Breakout', c: 'tag=FOMO', d: 'result=Win', by: 'instrument' })}`,
      ],
    ],
    [
      // The page asks for each set on its own: the same eight sets as above, each alone, all 100,000 trades among them.
      'compare, one set (the page asks for each set on its own)',
      [
        ...['', 'side=Short', 'hour=9&hour=10', `account=${acct}`].map((a) => `/api/reports/compare?${new URLSearchParams({ a, by: 'session' })}`),
        ...['range=last-90-days', 'setup=Breakout', 'tag=FOMO', 'result=Win'].map(
          (a) => `/api/reports/compare?${new URLSearchParams({ a, by: 'instrument' })}`,
        ),
      ],
    ],
    ...report('year calendar', '/api/reports/calendar'),
    ...report('distribution of net P&L', '/api/reports/distribution', 'of=pnl'),
    ...report('distribution of hold time', '/api/reports/distribution', 'of=hold'),
    ['filter options', ['/api/reports/options']],
    // Each playbook's report (a quarter of the trades each), and By Playbook over every trade.
    ...report("a playbook's report", `/api/playbooks/${playbooks[0]!.id}/report`),
    ...report('By Playbook (3 playbooks)', '/api/reports/playbooks'),
    // The trades in R (the dashboard, its calendar, the Trade Log's Statistics), and with the Trade Log's
    // search, which asks the list's search function for the ids it finds.
    ...report('in R (days and weeks)', '/api/reports/r'),
    [
      "in R with the Trade Log's search",
      ['/api/reports/r?q=NQ', '/api/reports/r?q=fomo', `/api/reports/r?q=breakout&account=${acct}`, '/api/reports/r?q=zzz-nothing'],
    ],
  ];
  const rows: Row[] = [];
  // BENCH_REPORTS_ONLY=playbook: only the reports whose name holds it, or one of several given with commas (profiling
  // some reports without the whole suite);
  // BENCH_REPORTS_ONLY=after: only the first reports after a write (below).
  const only = process.env.BENCH_REPORTS_ONLY;
  if (only) {
    for (const [name, paths] of measures.filter(([name]) => only.split(',').some((part) => name.includes(part)))) {
      rows.push(summarize(SUITE, `GET ${name}`, backend, await sample(url, cookie, paths, n), 'ms', note, target));
    }
    if (only !== 'after') return rows;
  } else {
    for (const [name, paths] of measures) {
      rows.push(summarize(SUITE, `GET ${name}`, backend, await sample(url, cookie, paths, n), 'ms', note, target));
    }

    // Compare: the page asks for both sides at once.
    const compare: number[] = [];
    for (let i = -3; i < n; i++) {
      const c0 = performance.now();
      await Promise.all(
        [get('/api/reports/overview?hour=9&hour=10&hour=11'), get('/api/reports/overview?hour=13&hour=14&hour=15')].map(async (r) =>
          (await r).arrayBuffer(),
        ),
      );
      if (i >= 0) compare.push(performance.now() - c0);
    }
    rows.push(summarize(SUITE, 'Compare: two overviews at once (mornings against afternoons)', backend, compare, 'ms', note, target));
  }

  // After a change: the first report reads only the trades that changed (trade_changes, migration 0030) and merges
  // them into the copy; timed from the request, the write done before it.
  const write = (method: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, { method, headers: { cookie, origin: url, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      async (res) => {
        if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      },
    );
  // A connection of its own: the write can take longer than the server keeps an idle connection of the pool open, and
  // a request sent on one it is closing fails with ECONNRESET.
  const getOnNewConnection = (path: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get(`${url}${path}`, { headers: { cookie }, agent: false }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path} answered ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  // The write's own time too: it waits for the reports' copy to catch up with it (trades-cache.ts catchUp), so the
  // work of bringing the copy up to date is in the write's answer, and shows there.
  const writeTimes = new Map<string, number[]>();
  const firstAfter = async (change: (i: number) => Promise<void>, times: number, writeName: string) => {
    const samples: number[] = [];
    const writes: number[] = [];
    for (let i = 0; i < times; i++) {
      const w0 = performance.now();
      await change(i);
      writes.push(performance.now() - w0);
      const c0 = performance.now();
      await getOnNewConnection('/api/reports/overview');
      samples.push(performance.now() - c0);
    }
    writeTimes.set(writeName, writes);
    return samples;
  };
  const writeRow = (writeName: string, extra = '') =>
    summarize(SUITE, `${writeName} (the write itself, the reports' copy caught up)`, backend, writeTimes.get(writeName)!, 'ms', `${note}${extra}`);
  const { trades } = (await (await get('/api/trades?limit=1')).json()) as { trades: Array<{ id: string; pnl: string }> };
  const trade = trades[0]!;
  rows.push(summarize(SUITE, 'GET overview, the very first (every trade read)', backend, [firstMs], 'ms', note));
  const edits = await firstAfter(
    (i) => write('PATCH', `/api/trades/${trade.id}`, { pnl: (i % 2 === 0 ? 12.5 : -7.25).toFixed(2) }),
    n >= 60 ? 20 : 6,
    'PATCH a trade',
  );
  rows.push(
    summarize(SUITE, 'GET overview, first after a 1-trade edit (the change patched in)', backend, edits, 'ms', note, target),
    writeRow('PATCH a trade'),
  );
  const importRows = (batch: number, from = '2025-06-02T13:30:00Z') =>
    Array.from({ length: 1000 }, (_, k) => {
      const entry = Date.parse(from) + (batch * 1000 + k) * 60_000;
      const date = new Date(entry).toISOString().slice(0, 10);
      return {
        date,
        period: 'AM',
        symbol: 'NQ',
        side: k % 2 === 0 ? 'Long' : 'Short',
        entry_time: new Date(entry).toISOString(),
        exit_time: new Date(entry + 95_000).toISOString(),
        quantity: 1,
        pnl: (((k * 7919) % 2001) - 900) / 4,
        commission: '2.48',
      };
    });
  // 20 samples each, so that the p95 is not simply the slowest one (it was with 5).
  const imports = await firstAfter(
    (i) => write('POST', '/api/trades/import', { account_id: trader.accountId, trades: importRows(i) }),
    n >= 60 ? 20 : 2,
    'import of 1,000 trades among older ones',
  );
  rows.push(
    summarize(
      SUITE,
      'GET overview, first after a 1,000-trade import (the changes merged)',
      backend,
      imports,
      'ms',
      `${note} (+1,000 a sample)`,
      target,
    ),
    writeRow('import of 1,000 trades among older ones', ' (+1,000 a sample)'),
  );
  // The import a trader makes most: their latest trades, all after the last one (the seed ends in September 2027),
  // each sample after the one before. Appended into the room the copy keeps past its rows (append-columns.ts).
  const appends = await firstAfter(
    (i) => write('POST', '/api/trades/import', { account_id: trader.accountId, trades: importRows(i, '2028-01-03T13:30:00Z') }),
    n >= 60 ? 20 : 2,
    'import of 1,000 later trades',
  );
  rows.push(
    summarize(
      SUITE,
      'GET overview, first after a 1,000-trade import of later trades (appended)',
      backend,
      appends,
      'ms',
      `${note} (+1,000 a sample)`,
      target,
    ),
    writeRow('import of 1,000 later trades', ' (+1,000 a sample)'),
  );
  const added = await firstAfter(
    (i) => {
      const entry = Date.parse('2028-06-05T14:00:00Z') + i * 3_600_000;
      const date = new Date(entry).toISOString().slice(0, 10);
      const trade = {
        date,
        period: 'AM',
        symbol: 'NQ',
        side: 'Long',
        entry_time: new Date(entry).toISOString(),
        exit_time: new Date(entry + 60_000).toISOString(),
        quantity: 1,
        pnl: 42.5,
        commission: 2.48,
      };
      return write('POST', '/api/trades', { ...trade, account_id: trader.accountId });
    },
    n >= 60 ? 20 : 6,
    'POST a trade',
  );
  rows.push(
    summarize(SUITE, 'GET overview, first after 1 trade added after the last (appended)', backend, added, 'ms', note, target),
    writeRow('POST a trade'),
  );

  // A changed risk default prices every trade's risk again (the trades stay in memory).
  const repriced: number[] = [];
  for (let i = 0; i < (n >= 60 ? 10 : 4); i++) {
    const res = await fetch(`${url}/api/risk-defaults`, {
      method: 'PUT',
      headers: { cookie, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ root: 'NQ', stop_points: String(15 + i) }),
    });
    if (!res.ok) throw new Error(`PUT /api/risk-defaults answered ${res.status}`);
    const c0 = performance.now();
    const body = (await (await get('/api/reports/overview')).json()) as { r: { tradesWithRisk: number } };
    repriced.push(performance.now() - c0);
    if (body.r.tradesWithRisk === 0 || body.r.tradesWithRisk === TRADES)
      throw new Error(`expected some trades without a planned risk, got ${body.r.tradesWithRisk} with one`);
  }
  rows.push(summarize(SUITE, 'GET overview in R, first after a risk default changed (risks priced again)', backend, repriced, 'ms', note, target));
  return rows;
}

/**
 * "in Chromium a filter change redraws the page within 1 s". The Reports page at 1440 px with every trade;
 * clicks on the Day of week chips (Monday, Tuesday, ... on, then off again), each a filter the page has not seen yet,
 * timed from the click until the page's trade count says the new filter's.
 */
async function measureBrowser(url: string, cookie: string, backend: string, quick: boolean): Promise<Row[]> {
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'web', 'index.html'))) throw new Error('build the web app first (npm run build)');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const count = async (weekdays: number[]) =>
      (
        (await (await fetch(`${url}/api/reports/overview?${weekdays.map((d) => `weekday=${d}`).join('&')}`, { headers: { cookie } })).json()) as {
          basis: { trades: number };
        }
      ).basis.trades;
    const samples: number[] = [];
    for (let run = 0; run < (quick ? 1 : 3); run++) {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 } });
      await context.addCookies(
        cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), url })),
      );
      const page = await context.newPage();
      const shows = (trades: number) =>
        page
          .getByTestId('report-summary')
          .filter({ hasText: new RegExp(`· ${trades.toLocaleString('en-US')} trades?$`) })
          .waitFor({ timeout: 60_000 });
      await page.goto('/reports');
      await shows(await count([]));
      await page.getByTestId('filter-more').click();
      const chosen = new Set<number>();
      for (const [day, on] of [1, 2, 3, 4, 5].flatMap((d) => [[d, true]] as Array<[number, boolean]>).concat([1, 2, 3, 4].map((d) => [d, false]))) {
        if (on) chosen.add(day);
        else chosen.delete(day);
        const expected = await count([...chosen]);
        // The chip's label: its checkbox is hidden under it.
        const chip = page.getByTestId('filter-weekday').getByText(['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri'][day]!, { exact: true });
        const t0 = performance.now();
        await chip.click();
        await shows(expected);
        samples.push(performance.now() - t0);
      }
      await context.close();
    }
    return [
      summarize(SUITE, 'filter change in the filter bar to the new figures on screen', `chromium + ${backend}`, samples, 'ms', '100,000 trades', {
        limit: 1000,
      }),
    ];
  } finally {
    await browser.close();
  }
}
