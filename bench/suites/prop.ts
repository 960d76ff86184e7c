import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { findPropTemplate } from '../../src/domain/prop';
import { pgliteExtensions } from '../../src/server/db/client';
import { signUp, spawnServer, summarize, tempDir, time, type PostgresForBench, type Row } from '../lib';

const SUITE = 'prop';
const ACCOUNTS = 20;
const TRADES = 100_000;
const NOTE = '20 accounts, 100,000 trades';
/** The status of 20 accounts with 100,000 trades in all within 100 ms p95 on PGlite. */
const STATUS_TARGET = { limit: 100 };

/**
 * Prop-firm status at size: one trader with 20 evaluation accounts of 5,000 trades each (times, contracts
 * and sizes, so every rule has work: daily and maximum loss, target, consistency, position with micros, trading
 * hours), on PGlite and PostgreSQL. Measures GET /api/prop/status (every account's standing: the dashboard's widget)
 * as a trader's dashboard asks for it again and again, the first one after the server started (every account's trades
 * read), the one after a trade of one account changed (that account read again), and one account's page (its status
 * with the timeline of 5,000 trades and its ledger).
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const n = ctx.quick ? 15 : 60;

  const dir = tempDir('prop');
  try {
    let { server } = await spawnServer({ DATA_DIR: dir });
    const trader = await newTrader(server.url);
    await server.stop();
    const db = await PGlite.create(path.join(dir, 'pglite'), { extensions: pgliteExtensions });
    await seed((text, params) => db.query(text, params), trader.userId, trader.accountIds);
    await db.close();
    ({ server } = await spawnServer({ DATA_DIR: dir }));
    try {
      rows.push(...(await measureApi(server.url, trader, 'pglite', n)));
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  if (ctx.postgres) {
    const url = await ctx.postgres.newDatabase();
    const pgDir = tempDir('prop-pg');
    let { server } = await spawnServer({ DATABASE_URL: url, DATA_DIR: pgDir });
    try {
      const trader = await newTrader(server.url);
      // The cluster's admin role owns the tables, so row-level security does not apply to this direct write.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await seed((text, params) => client.query(text, params), trader.userId, trader.accountIds);
      await client.query('analyze');
      await client.end();
      // A server that has not read the trades yet, as after a restart.
      await server.stop();
      ({ server } = await spawnServer({ DATABASE_URL: url, DATA_DIR: pgDir }));
      rows.push(...(await measureApi(server.url, trader, 'postgres', n)));
    } finally {
      await server.stop();
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** A trader with 20 evaluation accounts, each with the Topstep Combine 50K template and a $1,000 daily loss limit. */
async function newTrader(url: string) {
  const { cookie } = await signUp(url);
  const headers = { cookie, origin: url, 'content-type': 'application/json' };
  const session = (await (await fetch(`${url}/api/auth/get-session`, { headers })).json()) as { user: { id: string } };
  const template = findPropTemplate('topstep-combine-50k')!;
  const rules = { ...template.rules, dailyLoss: { limitCents: 100_000, onBreach: 'stop-day', check: 'intraday' } };
  const accountIds: string[] = [];
  for (let i = 1; i <= ACCOUNTS; i++) {
    const body = { name: `Combine ${String(i).padStart(2, '0')}`, kind: 'evaluation', firm: 'Topstep', size: 50000, starting_balance: 50000 };
    const account = (await (await fetch(`${url}/api/accounts`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: string };
    const res = await fetch(`${url}/api/prop/accounts/${account.id}/rules`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ template_id: template.id, rules }),
    });
    if (!res.ok) throw new Error(`rules of account ${i}: ${res.status} ${await res.text()}`);
    accountIds.push(account.id);
  }
  return { cookie, userId: session.user.id, accountIds };
}

type Query = (text: string, params: unknown[]) => Promise<unknown>;

/**
 * 5,000 closed trades an account (100,000 in all) over ~10 years of weekdays, 2 a day per account: NQ and MNQ (1-3 NQ
 * or 5-25 MNQ), entered between 13:30 and 19:45 UTC and held 3 to 40 minutes (some past the 16:10 New York cut-off),
 * net P&L from -$225 to +$275.
 */
async function seed(query: Query, userId: string, accountIds: string[]) {
  await query(
    `insert into trades (user_id, account_id, trade_date, day_of_week, symbol, contract, period, trade_type, status, pnl, commission,
                         entry_time, exit_time, quantity, created_at, updated_at)
     select $1, ($2::uuid[])[1 + g % ${ACCOUNTS}], d.day, trim(to_char(d.day at time zone 'UTC', 'Day')),
            case when g % 3 = 0 then 'MNQ' else 'NQ' end, case when g % 3 = 0 then 'MNQH6' else 'NQH6' end, 'AM', 'A/A+',
            case when p.pnl > 0 then 'Win' when p.pnl < 0 then 'Loss' else 'BE' end, p.pnl, 4.28,
            t.entry, t.entry + ((3 + g % 38) * interval '1 minute'),
            case when g % 3 = 0 then 5 + g % 21 else 1 + g % 3 end,
            now() + g * interval '1 millisecond', now()
     from generate_series(1, $3::int) g,
          lateral (select g / 40 as k) n,
          lateral (select timestamptz '2016-01-04 12:00:00+00' + ((n.k / 5) * 7 + n.k % 5) * interval '1 day' as day) d,
          lateral (select d.day + interval '1 hour 30 minutes' + ((g * 37) % 375) * interval '1 minute' as entry) t,
          lateral (select round((((g * 7919) % 2001) - 900)::numeric / 4, 2) as pnl) p`,
    [userId, accountIds, TRADES],
  );
}

/** Sequential requests after 3 warm-ups. */
async function measure(url: string, cookie: string, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -3; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    if (i >= 0) samples.push(performance.now() - t0);
  }
  return samples;
}

async function measureApi(url: string, trader: Awaited<ReturnType<typeof newTrader>>, backend: string, n: number): Promise<Row[]> {
  const { cookie } = trader;
  const headers = { cookie, origin: url, 'content-type': 'application/json' };
  const rows: Row[] = [];
  const statusUrl = `${url}/api/prop/status`;

  // The first status after the server started reads every account's trades.
  const [first, res] = await time(() => fetch(statusUrl, { headers: { cookie } }));
  const body = (await res.json()) as { accounts: Array<{ trades: number; state: string }> };
  const counted = body.accounts.reduce((sum, a) => sum + a.trades, 0);
  if (body.accounts.length !== ACCOUNTS || counted !== TRADES)
    throw new Error(`expected ${ACCOUNTS} accounts and ${TRADES} trades, the status counts ${body.accounts.length} and ${counted}`);
  console.error(`  ${backend}: first status ${first.toFixed(0)} ms; states ${[...new Set(body.accounts.map((a) => a.state))].join(', ')}`);
  rows.push(summarize(SUITE, 'GET /api/prop/status, first after the server started (every account read)', backend, [first], 'ms', NOTE));

  const status = summarize(
    SUITE,
    'GET /api/prop/status (the widget, again and again)',
    backend,
    await measure(statusUrl, cookie, n),
    'ms',
    NOTE,
    STATUS_TARGET,
  );
  console.error(`  ${backend}: status p50 ${status.p50.toFixed(1)} ms, p95 ${status.p95.toFixed(1)} ms`);
  rows.push(status);

  // A trade of one account changes: the next status reads that account's 5,000 trades again.
  const trade = (
    (await (await fetch(`${url}/api/trades?account=${trader.accountIds[0]}&limit=1`, { headers: { cookie } })).json()) as {
      trades: Array<{ id: string; pnl: string }>;
    }
  ).trades[0]!;
  const afterWrite: number[] = [];
  for (let i = 0; i < (n >= 60 ? 15 : 5); i++) {
    const patched = await fetch(`${url}/api/trades/${trade.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ pnl: i % 2 === 0 ? '-12.50' : trade.pnl }),
    });
    if (!patched.ok) throw new Error(`PATCH answered ${patched.status}`);
    const [ms, again] = await time(() => fetch(statusUrl, { headers: { cookie } }));
    await again.arrayBuffer();
    afterWrite.push(ms);
  }
  rows.push(summarize(SUITE, 'GET /api/prop/status after a trade of one account changed', backend, afterWrite, 'ms', NOTE));

  const detail = summarize(
    SUITE,
    'GET /api/prop/accounts/:id (5,000 trades: status, timeline, ledger)',
    backend,
    await measure(`${url}/api/prop/accounts/${trader.accountIds[1]}`, cookie, Math.ceil(n / 2)),
    'ms',
    NOTE,
  );
  console.error(`  ${backend}: account page p50 ${detail.p50.toFixed(1)} ms, p95 ${detail.p95.toFixed(1)} ms`);
  rows.push(detail);
  return rows;
}
