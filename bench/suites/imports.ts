import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { parseImport, type ImportPreview } from '../../src/domain/importers';
import { openDatabase, type Database } from '../../src/server/db/client';
import { tradingAccounts, user } from '../../src/server/db/schema';
import { toTradeRow } from '../../src/server/features/imports/service';
import type { NewTradeRow } from '../../src/server/features/trades/repo';
import { signUp, spawnServer, summarize, tempDir, time, type PostgresForBench, type Row } from '../lib';

const SUITE = 'imports';
const FILLS = 100_000;
const TIME_ZONE = 'America/New_York';

/**
 * Issue 4 "Benchmark": 100,000 fills of a Tradovate Orders.csv export (the real 32-column layout) imported end to end
 * through the HTTP API (upload, parse, FIFO match, duplicate check, one-transaction insert) on PGlite and on
 * PostgreSQL, next to the raw insert rate of the same trade rows (plain multi-row INSERTs of SQL literals in one
 * transaction, as the table owner, no API) as the ceiling. For comparison: TradeTally took 34 s for 10,000 rows on a similar machine.
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const runs = ctx.quick ? 1 : 3;
  const csv = tradovateOrdersCsv(FILLS);
  const bytes = Buffer.byteLength(csv);
  const rows: Row[] = [];

  // The pure part, in this process: read the CSV, build fills, match them FIFO, decorate trades.
  const parseSamples: number[] = [];
  let preview: ImportPreview | null = null;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const result = parseImport(csv, { timeZone: TIME_ZONE });
    parseSamples.push(performance.now() - t0);
    if (!result.ok) throw new Error(result.message);
    preview = result;
  }
  const tradeCount = preview!.trades.length;
  const note = `${FILLS.toLocaleString('en-US')} fills, ${tradeCount.toLocaleString('en-US')} trades, ${(bytes / 1024 / 1024).toFixed(1)} MB`;
  rows.push(summarize(SUITE, 'parse + FIFO match in process', 'node', parseSamples, 'ms', note));

  rows.push(...(await measureBackend('pglite', { DATA_DIR: tempDir('imports-pglite') }, csv, runs, tradeCount, note)));
  const rawDir = tempDir('imports-raw');
  rows.push(...(await rawInsertCeiling('pglite', () => openDatabase({ dataDir: rawDir }), preview!, runs)));
  fs.rmSync(rawDir, { recursive: true, force: true });
  if (ctx.postgres) {
    const url = await ctx.postgres.newDatabase();
    rows.push(...(await measureBackend('postgres', { DATABASE_URL: url, DATA_DIR: tempDir('imports-pg') }, csv, runs, tradeCount, note)));
    const rawUrl = await ctx.postgres.newDatabase();
    rows.push(...(await rawInsertCeiling('postgres', () => openDatabase({ databaseUrl: rawUrl }), preview!, runs)));
  }
  return rows;
}

/** The API as the import dialog uses it: preview, then import into a fresh account; then the same file again. */
async function measureBackend(
  backend: string,
  env: Record<string, string>,
  csv: string,
  runs: number,
  tradeCount: number,
  note: string,
): Promise<Row[]> {
  const { server } = await spawnServer(env);
  try {
    const { cookie } = await signUp(server.url);
    const headers = { cookie, 'content-type': 'text/csv', origin: server.url };
    const post = async (path: string) => {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: csv });
      const body = await res.json();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const previews: number[] = [];
    const imports: number[] = [];
    const reimports: number[] = [];
    for (let i = 0; i < runs; i++) {
      const accountRes = await fetch(`${server.url}/api/accounts`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ name: `Bench ${i}` }),
      });
      const account = (await accountRes.json()) as { id: string };
      const query = `account_id=${account.id}&time_zone=${encodeURIComponent(TIME_ZONE)}`;
      const [previewMs, seen] = await time(() => post(`/api/imports/preview?${query}&limit=0`));
      if (seen.new_trades !== tradeCount) throw new Error(`preview saw ${seen.new_trades} trades, expected ${tradeCount}`);
      previews.push(previewMs);
      const [importMs, done] = await time(() => post(`/api/imports?${query}`));
      if (done.imported !== tradeCount) throw new Error(`imported ${done.imported} trades, expected ${tradeCount}`);
      imports.push(importMs);
      const [againMs, again] = await time(() => post(`/api/imports?${query}`));
      if (again.imported !== 0 || again.duplicates !== tradeCount) throw new Error(`re-import added ${again.imported}`);
      reimports.push(againMs);
    }
    const previewP50 = summarize(SUITE, '', backend, previews).p50;
    // Import minus preview: the insert (and the transaction around it), since both parse the same file the same way.
    const insertOnly = imports.map((ms) => Math.max(0, ms - previewP50));
    return [
      summarize(SUITE, 'POST /api/imports/preview (upload, parse, match, duplicate check)', backend, previews, 'ms', note),
      summarize(SUITE, 'POST /api/imports (end to end, one transaction)', backend, imports, 'ms', note),
      summarize(SUITE, 'insert share of the import (import - preview p50)', backend, insertOnly, 'ms'),
      summarize(SUITE, 'import throughput, end to end', backend, imports.map((ms) => tradeCount / (ms / 1000)), 'trades/s'),
      summarize(SUITE, 'import throughput, end to end', backend, imports.map((ms) => FILLS / (ms / 1000)), 'fills/s'),
      summarize(SUITE, 'insert throughput (insert share only)', backend, insertOnly.map((ms) => tradeCount / (ms / 1000)), 'trades/s'),
      summarize(SUITE, 're-import of the same file (0 new, all duplicates)', backend, reimports, 'ms'),
    ];
  } finally {
    await server.stop();
    if (env.DATA_DIR) fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  }
}

/**
 * The ceiling: the same trade rows as plain multi-row INSERT statements (1,000 rows each, values written as SQL
 * literals, so no parameter binding at all) in one transaction, as the table owner: no HTTP, no parsing, no row-level
 * security, no conflict check, nothing returned.
 */
async function rawInsertCeiling(backend: string, open: () => Promise<Database>, preview: ImportPreview, runs: number): Promise<Row[]> {
  const database = await open();
  try {
    const [owner] = await database.db
      .insert(user)
      .values({ name: 'bench', email: `raw-${Date.now()}@example.com` })
      .returning({ id: user.id });
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const [account] = await database.db
        .insert(tradingAccounts)
        .values({ userId: owner!.id, name: `Raw ${i}` })
        .returning({ id: tradingAccounts.id });
      const statements: string[] = [];
      for (let j = 0; j < preview.trades.length; j += 1000) {
        const values = preview.trades.slice(j, j + 1000).map((t) => literalRow(toTradeRow(t, account!.id, preview.format.id), owner!.id));
        statements.push(`insert into trades (${RAW_COLUMNS.join(', ')}) values ${values.join(',\n')}`);
      }
      const [ms] = await time(() =>
        database.db.transaction(async (tx) => {
          for (const statement of statements) await tx.execute(sql.raw(statement));
        }),
      );
      samples.push(ms);
    }
    const counted = (await database.db.execute(sql`select count(*)::int as n from trades`)) as unknown as { rows: Array<{ n: number }> };
    const n = Number(counted.rows[0]?.n);
    if (n !== preview.trades.length * runs) throw new Error(`raw insert stored ${n} rows`);
    return [
      summarize(SUITE, 'raw multi-row INSERT of the same rows (ceiling)', backend, samples, 'ms'),
      summarize(SUITE, 'raw insert throughput (ceiling)', backend, samples.map((ms) => preview.trades.length / (ms / 1000)), 'trades/s'),
    ];
  } finally {
    await database.close();
  }
}

const RAW_COLUMNS = [
  'user_id', 'account_id', 'trade_date', 'day_of_week', 'symbol', 'period', 'trade_type', 'status', 'pnl', 'commission',
  'link', 'notes', 'tags', 'side', 'contract', 'entry_time', 'exit_time', 'entry_price', 'exit_price', 'quantity',
  'gross_pnl', 'import_source', 'import_key',
];

function literal(value: string | null | undefined): string {
  return value === null || value === undefined ? 'null' : `'${value.replace(/'/g, "''")}'`;
}

function literalRow(r: NewTradeRow, userId: string): string {
  const tags = `array[${(r.tags ?? []).map(literal).join(',')}]::text[]`;
  return `(${[
    literal(userId), literal(r.accountId), literal(r.tradeDate), literal(r.dayOfWeek), literal(r.symbol), literal(r.period),
    literal(r.tradeType), literal(r.status), literal(r.pnl), literal(r.commission), literal(r.link), literal(r.notes), tags,
    literal(r.side), literal(r.contract), literal(r.entryTime), literal(r.exitTime), literal(r.entryPrice), literal(r.exitPrice),
    literal(r.quantity), literal(r.grossPnl), literal(r.importSource), literal(r.importKey),
  ].join(',')})`;
}

const ORDERS_HEADER =
  'orderId,Account,Order ID,B/S,Contract,Product,Product Description,avgPrice,filledQty,Fill Time,lastCommandId,Status,_priceFormat,_priceFormatType,_tickSize,spreadDefinitionId,Version ID,Timestamp,Date,Quantity,Text,Type,Limit Price,Stop Price,decimalLimit,decimalStop,Filled Qty,Avg Fill Price,decimalFillAvg,Venue,Notional Value,Currency';

const CONTRACTS = [
  { contract: 'MNQM6', product: 'MNQ', description: 'Micro E-mini NASDAQ-100', price: 21000, tick: 0.25, point: 2 },
  { contract: 'NQM6', product: 'NQ', description: 'E-mini NASDAQ-100', price: 21000, tick: 0.25, point: 20 },
  { contract: 'ESM6', product: 'ES', description: 'E-mini S&P 500', price: 5600, tick: 0.25, point: 50 },
  { contract: 'MESM6', product: 'MES', description: 'Micro E-mini S&P 500', price: 5600, tick: 0.25, point: 5 },
];

/**
 * `count` filled orders as Tradovate exports them: round trips of 2 to 4 fills (scale-ins and partial exits, longs and
 * shorts) on four contracts, spread over trading days, 09:30 to 15:30 New York, with one cancelled bracket leg per ten
 * trades (which the importer must ignore). Deterministic, so every run parses the same file.
 */
export function tradovateOrdersCsv(count: number): string {
  let seed = 42;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const lines = [ORDERS_HEADER];
  let fills = 0;
  let orderId = 600_000_000_000;
  let minute = 0;
  let trade = 0;
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = (m: number, s: number) => {
    // 360 minutes of session per day (09:30-15:30), weekdays only, from Monday 2026-01-05.
    const day = Math.floor(m / 360);
    const week = Math.floor(day / 5);
    const date = new Date(Date.UTC(2026, 0, 5 + week * 7 + (day % 5)));
    const clock = 9 * 60 + 30 + (m % 360);
    return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()} ${pad(Math.floor(clock / 60))}:${pad(clock % 60)}:${pad(s)}`;
  };
  const row = (c: (typeof CONTRACTS)[number], side: 'Buy' | 'Sell', qty: number, price: number, when: string, status = 'Filled') => {
    orderId += 1 + Math.floor(random() * 5);
    const filled = status === 'Filled';
    const p = price.toFixed(2);
    const notional = filled ? `"${(price * qty * c.point).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}"` : '';
    lines.push(
      [
        orderId, 'ACCT0000000000000', orderId, ` ${side}`, c.contract, c.product, c.description, filled ? p : '', filled ? qty : '',
        filled ? when : '', orderId, ` ${status}`, -2, 0, c.tick, '', orderId, when, when.slice(0, 10), qty, 'Chart',
        filled ? ' Market' : ' Limit', filled ? '' : p, '', filled ? '' : p, '', filled ? qty : '', filled ? p : '', filled ? p : '', '',
        notional, 'USD',
      ].join(','),
    );
  };
  while (fills < count) {
    const c = CONTRACTS[trade % CONTRACTS.length]!;
    const long = random() < 0.55;
    const open = long ? 'Buy' : 'Sell';
    const close = long ? 'Sell' : 'Buy';
    const base = c.price + Math.round((random() - 0.5) * 400) * c.tick;
    const move = () => base + Math.round((random() - 0.45) * 80) * c.tick;
    const shape = Math.min(count - fills, random() < 0.5 ? 2 : random() < 0.5 ? 3 : 4);
    const m = minute;
    if (shape <= 2) {
      const q = 1 + Math.floor(random() * 3);
      row(c, open, q, base, stamp(m, 5));
      if (shape === 2) row(c, close, q, move(), stamp(m, 40));
    } else if (shape === 3) {
      // Scale in, one exit.
      row(c, open, 1, base, stamp(m, 5));
      row(c, open, 2, base + c.tick * 2, stamp(m, 20));
      row(c, close, 3, move(), stamp(m, 50));
    } else {
      // Scale in, partial exit, final exit.
      row(c, open, 2, base, stamp(m, 3));
      row(c, open, 2, base - c.tick * 4, stamp(m, 15));
      row(c, close, 3, move(), stamp(m, 35));
      row(c, close, 1, move(), stamp(m, 55));
    }
    if (trade % 10 === 0) row(c, close, 1, base + 40 * c.tick, stamp(m, 56), 'Canceled');
    fills += shape;
    trade++;
    minute++;
  }
  return `${lines.join('\r\n')}\r\n`;
}
