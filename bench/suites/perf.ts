import fs from 'node:fs';
import { collectBenchGarbage, signUp, spawnServer, summarize, tempDir, time, type PostgresForBench, type Row, type ServerProcess } from '../lib';

const SUITE = 'perf';
const CHUNK = 10_000;
const SYMBOLS = ['NQ', 'ES', 'MNQ', 'MES', 'YM', 'RTY'];

/**
 * Each target measured right after a large import through the API (as a trader's would be), then warm:
 * the Trade Log's first page, the statistics (the first after a write, and repeated), a one-row read to compare them
 * with, and the server's resident memory at rest after 10,000 trades and at its peak during the imports.
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const total = ctx.quick ? 20_000 : 100_000;
  const dir = tempDir('perf-pglite');
  const pglite = await spawnServer({ DATA_DIR: dir });
  try {
    rows.push(...(await measureBackend(pglite.server, 'pglite', total, ctx.quick)));
  } finally {
    await pglite.server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (ctx.postgres) {
    const pgDir = tempDir('perf-pg');
    const pg = await spawnServer({ DATABASE_URL: await ctx.postgres.newDatabase(), DATA_DIR: pgDir });
    try {
      rows.push(...(await measureBackend(pg.server, 'postgres', total, ctx.quick)));
    } finally {
      await pg.server.stop();
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  }
  return rows;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayString = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** `count` trades from `from` on, about 70 a weekday over the ~1,400 weekdays before today, deterministic. */
function buildTrades(from: number, count: number): Array<Record<string, unknown>> {
  const days: string[] = [];
  const cursor = new Date();
  cursor.setUTCHours(12, 0, 0, 0);
  while (days.length < 1400) {
    if (cursor.getUTCDay() !== 0 && cursor.getUTCDay() !== 6) days.push(dayString(cursor));
    cursor.setUTCDate(cursor.getUTCDate() - 1);
  }
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const minute = (i * 7) % 390;
    const day = days[i % days.length]!;
    const entry = new Date(`${day}T14:30:00Z`).getTime() + minute * 60_000;
    return {
      id: `perf-${i}`,
      date: day,
      symbol: SYMBOLS[i % SYMBOLS.length],
      period: 'AM',
      trade_type: 'A/A+',
      pnl: (((i * 7919) % 2001) - 900) / 4,
      commission: 4.28,
      entry_time: new Date(entry).toISOString(),
      exit_time: new Date(entry + 90_000).toISOString(),
    };
  });
}

/** Imports trades [from, to) in requests of CHUNK, sampling the server's RSS meanwhile; gives the peak. */
async function importRange(server: ServerProcess, cookie: string, accountId: string, from: number, to: number): Promise<number> {
  let peak = server.rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 50);
  try {
    for (let i = from; i < to; i += CHUNK) {
      const res = await fetch(`${server.url}/api/trades/import`, {
        method: 'POST',
        headers: { cookie, origin: server.url, 'content-type': 'application/json' },
        body: JSON.stringify({ account_id: accountId, trades: buildTrades(i, Math.min(CHUNK, to - i)) }),
      });
      if (res.status !== 201) throw new Error(`import failed: ${res.status} ${await res.text()}`);
    }
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, server.rssMb());
}

/** One request, timed until its body has arrived. */
async function timedGet(url: string, cookie: string): Promise<number> {
  const [ms, res] = await time(() => fetch(url, { headers: { cookie } }));
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return ms;
}

/**
 * Sequential requests with no warm-up: the first ones are those a trader makes right after the import. The bench's own
 * garbage (the imports' trades) is collected first, so that its collection is not timed as the server's.
 */
async function sample(url: string, cookie: string, n: number): Promise<number[]> {
  collectBenchGarbage();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(await timedGet(url, cookie));
  return samples;
}

const REST_MS = 20_000;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measureBackend(server: ServerProcess, backend: string, total: number, quick: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  const { url } = server;
  const { cookie } = await signUp(url);
  const headers = { cookie, origin: url, 'content-type': 'application/json' };
  const account = (await (await fetch(`${url}/api/accounts`, { method: 'POST', headers, body: JSON.stringify({ name: 'Perf' }) })).json()) as {
    id: string;
  };

  // Memory: 10,000 trades imported, then the server left alone (the ANALYZE after the import included) long enough
  // for V8 to give back the heap the request used (its memory reducer runs after several idle seconds).
  let peak = await importRange(server, cookie, account.id, 0, 10_000);
  await settle(REST_MS);
  const rest10k = server.rssMb();
  rows.push(
    summarize(SUITE, 'server RSS at rest after a 10,000-trade import', backend, [rest10k], 'MB', undefined, {
      limit: backend === 'pglite' ? 300 : 150,
    }),
  );

  peak = Math.max(peak, await importRange(server, cookie, account.id, 10_000, total));
  const note = `${total.toLocaleString('en-US')} trades, right after the import`;
  const n = quick ? 20 : 60;
  // The first page measured at once, as the trader opens the Trade Log after the import.
  const firstPage = await sample(`${url}/api/trades?account=all&limit=50`, cookie, n);
  rows.push(summarize(SUITE, 'GET /api/trades first page (50)', backend, firstPage, 'ms', note, { limit: backend === 'pglite' ? 15 : 10 }));

  // Statistics: the first after a write (one trade added each time) and repeated ones (the cache).
  const stats = `${url}/api/trades/stats?account=all&days=none`;
  const cold: number[] = [];
  let oneId = '';
  for (let i = 0; i < (quick ? 5 : 15); i++) {
    const res = await fetch(`${url}/api/trades`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ date: dayString(new Date()), period: 'AM', pnl: 1 }),
    });
    oneId = ((await res.json()) as { id: string }).id;
    cold.push(await timedGet(stats, cookie));
  }
  const cached = await sample(stats, cookie, n);
  const oneTrade = await sample(`${url}/api/trades/${oneId}`, cookie, n);
  // The trader's preferences: one row by its key, the cheapest signed-in read.
  const oneRow = await sample(`${url}/api/preferences`, cookie, n);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  rows.push(
    summarize(SUITE, 'GET /api/trades/stats, Trade Log, first after a write', backend, cold, 'ms', `${total.toLocaleString('en-US')} trades`),
    summarize(SUITE, 'GET /api/trades/stats, Trade Log, repeated (cached)', backend, cached, 'ms', `${total.toLocaleString('en-US')} trades`),
    summarize(SUITE, 'GET /api/trades/:id (one trade)', backend, oneTrade, 'ms'),
    summarize(SUITE, 'GET /api/preferences (one-row read)', backend, oneRow, 'ms'),
    summarize(SUITE, 'statistics repeated / one-row read (p50s)', backend, [median(cached) / median(oneRow)], 'x', undefined, { limit: 5 }),
  );
  // Warm: the same first page after the statistics.
  rows.push(
    summarize(
      SUITE,
      'GET /api/trades first page (50), warm',
      backend,
      await sample(`${url}/api/trades?account=all&limit=50`, cookie, n),
      'ms',
      `${total.toLocaleString('en-US')} trades`,
    ),
  );
  await settle(REST_MS);
  rows.push(
    summarize(SUITE, `server RSS at rest after ${total.toLocaleString('en-US')} trades`, backend, [server.rssMb()], 'MB'),
    summarize(SUITE, 'server RSS at peak (during the imports)', backend, [peak], 'MB'),
  );
  return rows;
}
