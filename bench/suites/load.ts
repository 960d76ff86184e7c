import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { percentile, spawnServer, tempDir, type PostgresForBench, type Row, type ServerProcess } from '../lib';

const SUITE = 'load';
const TRADERS = 50;
const TRADES_PER_TRADER = 200;

/**
 * Many traders at once: 50 signed-in traders, each with its own connection and address, send
 * the dashboard's and the trade log's requests back to back (a closed loop, no think time) for 60 s (10 s with
 * --quick): throughput, latency p50/p95/p99 over every request, errors, and the server's memory (all its processes).
 * On PGlite, on PostgreSQL with one process, and on PostgreSQL with one worker per core (WEB_CONCURRENCY).
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const durationMs = ctx.quick ? 10_000 : 60_000;
  const cores = os.availableParallelism();
  const setups: Array<{ backend: string; env: () => Promise<Record<string, string>> }> = [{ backend: 'pglite', env: async () => ({}) }];
  if (ctx.postgres) {
    const pg = ctx.postgres;
    setups.push({ backend: 'postgres', env: async () => ({ DATABASE_URL: await pg.newDatabase() }) });
    if (cores > 1) {
      setups.push({
        backend: `postgres, ${cores} processes`,
        env: async () => ({ DATABASE_URL: await pg.newDatabase(), WEB_CONCURRENCY: String(cores) }),
      });
    }
  }
  const rows: Row[] = [];
  for (const setup of setups) {
    // The previous setup's database, its traders' rows being vacuumed, is gone before the next one is measured.
    await ctx.postgres?.settle();
    const dir = tempDir('load');
    const { server } = await spawnServer({
      DATA_DIR: dir,
      // The limits are per address and per account; the traders here are real ones, each on its own address.
      LOG_LEVEL: 'info',
      ...(await setup.env()),
    });
    try {
      rows.push(...(await measure(server, setup.backend, durationMs, setup.backend === 'pglite' ? undefined : ctx.postgres?.cluster.port)));
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

interface Trader {
  agent: http.Agent;
  cookie: string;
  tradeIds: string[];
  accountId: string;
}

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

function send(url: string, agent: http.Agent, method: string, path: string, body?: unknown, cookie?: string): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url + path,
      {
        method,
        agent,
        headers: {
          origin: url,
          ...(cookie && { cookie }),
          ...(text !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (text !== undefined) req.write(text);
    req.end();
  });
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayString = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

async function prepareTrader(url: string, index: number): Promise<Trader> {
  // Its own loopback address: sign-up and sign-in limits are per address, as they are for real traders.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.${100 + Math.floor(index / 200)}.${1 + (index % 200)}` });
  const signUp = await send(url, agent, 'POST', '/api/auth/sign-up/email', {
    email: `load-${index}-${Date.now()}@example.com`,
    password: 'bench-password-1',
    name: `Trader ${index}`,
  });
  if (signUp.status !== 200) throw new Error(`sign-up ${index}: ${signUp.status} ${signUp.body}`);
  const cookie = ([] as string[])
    .concat(signUp.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');
  await send(url, agent, 'POST', '/api/onboarding', {}, cookie);
  const account = JSON.parse((await send(url, agent, 'POST', '/api/accounts', { name: 'Main' }, cookie)).body) as { id: string };
  const today = new Date();
  const trades = Array.from({ length: TRADES_PER_TRADER }, (_, i) => {
    const day = new Date(today.getTime() - (i % 60) * 86_400_000);
    return {
      id: `load-${index}-${i}`,
      date: dayString(day),
      period: ['AM', 'PM', 'Lunch'][i % 3],
      symbol: ['NQ', 'ES', 'MNQ'][i % 3],
      pnl: ((i * 37) % 500) - 200,
      commission: 4.28,
    };
  });
  const imported = await send(url, agent, 'POST', '/api/trades/import', { account_id: account.id, trades }, cookie);
  if (imported.status !== 201) throw new Error(`seed ${index}: ${imported.status} ${imported.body}`);
  const page = JSON.parse((await send(url, agent, 'GET', '/api/trades?limit=20', undefined, cookie)).body) as { trades: Array<{ id: string }> };
  return { agent, cookie, accountId: account.id, tradeIds: page.trades.map((t) => t.id) };
}

/** What a trader's browser asks for while using the dashboard and the trade log, with a few writes. */
function nextRequest(trader: Trader, n: number): { method: string; path: string; body?: unknown } {
  const now = new Date();
  const today = dayString(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const monthEnd = `${today.slice(0, 8)}28`;
  const mix = [
    { method: 'GET', path: '/api/trades?limit=50' },
    { method: 'GET', path: `/api/trades/stats?from=${monthStart}&to=${monthEnd}` },
    { method: 'GET', path: '/api/accounts' },
    { method: 'GET', path: '/api/preferences' },
    { method: 'GET', path: `/api/tasks?date=${today}` },
    { method: 'GET', path: '/api/trades?limit=50' },
    { method: 'GET', path: `/api/tasks/status?from=${monthStart}&to=${monthEnd}` },
    { method: 'GET', path: '/api/profile' },
    { method: 'GET', path: '/api/trades/unassigned-count' },
    { method: 'POST', path: '/api/trades', body: { date: today, period: 'AM', symbol: 'NQ', pnl: (n % 40) - 20, account_id: trader.accountId } },
    { method: 'GET', path: `/api/trades/stats?from=${monthStart}&to=${monthEnd}` },
    { method: 'PATCH', path: `/api/trades/${trader.tradeIds[n % trader.tradeIds.length]}`, body: { notes: `note ${n}` } },
  ];
  return mix[n % mix.length]!;
}

/** Resident memory of the server and every process it started (the cluster's workers), in MB. */
function treeRssMb(pid: number): number {
  const rssOf = (p: number) => {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
      return kb ? Number(kb) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    children = [];
  }
  return rssOf(pid) + children.reduce((sum, child) => sum + treeRssMb(child), 0);
}

/** CPU time (user + system) of a process and every process it started, in ms (Linux /proc; 100 ticks a second). */
function treeCpuMs(pid: number): number {
  let own = 0;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    own = (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    own = 0;
  }
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    children = [];
  }
  return own + children.reduce((sum, child) => sum + treeCpuMs(child), 0);
}

/** CPU time of the PostgreSQL cluster listening on `port` (postmaster and its backends), in ms. */
function postgresCpuMs(port: number): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = cmdline.indexOf('-p');
      if (cmdline[0]?.endsWith('/postgres') && at >= 0 && cmdline[at + 1] === String(port)) total += treeCpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function measure(server: ServerProcess, backend: string, durationMs: number, postgresPort?: number): Promise<Row[]> {
  console.error(`  ${backend}: ${TRADERS} traders, ${TRADES_PER_TRADER} trades each...`);
  const traders: Trader[] = [];
  for (let i = 0; i < TRADERS; i += 10)
    traders.push(...(await Promise.all(Array.from({ length: Math.min(10, TRADERS - i) }, (_, j) => prepareTrader(server.url, i + j)))));

  const latencies: number[] = [];
  let errors = 0;
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(treeRssMb(server.child.pid!)), 500);
  const serverCpu0 = treeCpuMs(server.child.pid!);
  const postgresCpu0 = postgresPort ? postgresCpuMs(postgresPort) : 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    traders.map(async (trader, t) => {
      for (let n = t; performance.now() < deadline; n++) {
        const { method, path, body } = nextRequest(trader, n);
        const t0 = performance.now();
        try {
          const res = await send(server.url, trader.agent, method, path, body, trader.cookie);
          if (res.status >= 400) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  // CPU per request: on a shared, noisy machine a steadier figure than throughput, and where the time goes.
  const serverCpuPerRequest = (treeCpuMs(server.child.pid!) - serverCpu0) / latencies.length;
  const postgresCpuPerRequest = postgresPort ? (postgresCpuMs(postgresPort) - postgresCpu0) / latencies.length : Number.NaN;
  clearInterval(sampler);
  rss.push(treeRssMb(server.child.pid!));
  for (const trader of traders) trader.agent.destroy();

  const sorted = [...latencies].sort((a, b) => a - b);
  const rate = latencies.length / elapsed;
  const note = `${TRADERS} traders, ${Math.round(elapsed)} s`;
  const rssSorted = [...rss].sort((a, b) => a - b);
  return [
    { suite: SUITE, measure: 'throughput', backend, p50: rate, p95: rate, n: latencies.length, unit: 'requests/s', note },
    {
      suite: SUITE,
      measure: 'latency, every request (p50, p95)',
      backend,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      n: sorted.length,
      unit: 'ms',
      note,
    },
    { suite: SUITE, measure: 'latency p99', backend, p50: percentile(sorted, 99), p95: percentile(sorted, 99), n: sorted.length, unit: 'ms', note },
    { suite: SUITE, measure: 'errors (status >= 400 or no answer)', backend, p50: errors, p95: errors, n: latencies.length, unit: 'requests', note },
    {
      suite: SUITE,
      measure: 'server RSS, all processes (median, peak)',
      backend,
      p50: percentile(rssSorted, 50),
      p95: rssSorted.at(-1) ?? Number.NaN,
      n: rss.length,
      unit: 'MB',
      note,
    },
    {
      suite: SUITE,
      measure: 'server CPU per request, all processes',
      backend,
      p50: serverCpuPerRequest,
      p95: serverCpuPerRequest,
      n: latencies.length,
      unit: 'ms',
      note,
    },
    ...(postgresPort
      ? [
          {
            suite: SUITE,
            measure: 'PostgreSQL CPU per request',
            backend,
            p50: postgresCpuPerRequest,
            p95: postgresCpuPerRequest,
            n: latencies.length,
            unit: 'ms',
            note,
          },
        ]
      : []),
  ];
}
