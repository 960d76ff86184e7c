import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADE_SORTS, type TradeSort } from '../../src/contract/trades';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, importTrades, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * The Trade Log's server-side sort (GET /api/trades `sort` and `dir`): every sort is total (equal values follow the
 * trading order, newest first), values a trade lacks come last in both directions (manual trades have no prices,
 * times, quantity, gross or contract; unassigned trades no account), pages walked by cursor or jumped to by offset
 * give the same sequence, `total` counts the filter, and search and account filters combine with it. And the cursor
 * is hostile input: any forged or garbled one is a 400 naming `cursor`, never a 500.
 */

type Kind = 'text' | 'number' | 'time';
const COLUMNS: Record<Exclude<TradeSort, 'date'>, { kind: Kind; of: (t: TradeDto) => unknown }> = {
  symbol: { kind: 'text', of: (t) => t.symbol },
  contract: { kind: 'text', of: (t) => t.contract },
  status: { kind: 'text', of: (t) => t.status },
  period: { kind: 'text', of: (t) => t.period },
  trade_type: { kind: 'text', of: (t) => t.trade_type },
  account: { kind: 'text', of: (t) => t.account_name },
  pnl: { kind: 'number', of: (t) => t.pnl },
  gross_pnl: { kind: 'number', of: (t) => t.gross_pnl },
  commission: { kind: 'number', of: (t) => t.commission },
  quantity: { kind: 'number', of: (t) => t.quantity },
  entry_price: { kind: 'number', of: (t) => t.entry_price },
  exit_price: { kind: 'number', of: (t) => t.exit_price },
  entry_time: { kind: 'time', of: (t) => t.entry_time },
  exit_time: { kind: 'time', of: (t) => t.exit_time },
  // No bars here: every trade lacks them, so these follow the trading order (tests/api/market.test.ts sorts real ones).
  mae: { kind: 'number', of: (t) => t.mae },
  mfe: { kind: 'number', of: (t) => t.mfe },
};

/** A column's value as the sort compares it: lower-cased text (empty is none), numbers, instants; null when none. */
function valueOf(sort: Exclude<TradeSort, 'date'>, t: TradeDto): string | number | null {
  const { kind, of } = COLUMNS[sort];
  const raw = of(t);
  if (raw === null || raw === undefined || raw === '') return null;
  if (kind === 'text') return String(raw).toLowerCase();
  if (kind === 'number') return Number(raw);
  return Date.parse(String(raw));
}

/** What the server must answer, from the default list (the trading order, newest first) sorted here. */
function expectedOrder(newestFirst: TradeDto[], sort: TradeSort, dir: 'asc' | 'desc'): string[] {
  if (sort === 'date') return (dir === 'desc' ? newestFirst : [...newestFirst].reverse()).map((t) => t.id);
  const rank = new Map(newestFirst.map((t, i) => [t.id, i]));
  return [...newestFirst]
    .sort((a, b) => {
      const [x, y] = [valueOf(sort, a), valueOf(sort, b)];
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else if (x !== y) {
        return (x < y ? -1 : 1) * (dir === 'asc' ? 1 : -1);
      }
      return rank.get(a.id)! - rank.get(b.id)!;
    })
    .map((t) => t.id);
}

async function walk(client: ApiClient, query: string, limit: number): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res: { status: number; body: any } = await client.get(`/api/trades?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.trades.map((t: TradeDto) => t.id));
    totals.push(res.body.total);
    cursor = res.body.next_cursor;
    if (!cursor) return { ids, totals };
  }
  throw new Error('more than 100 pages');
}

const base64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe.each(backends())('trades list sorts and cursors on %s', (backend) => {
  let app: TestApp;
  let trader: ApiClient;
  let alpha: { id: string };
  let all: TradeDto[];

  beforeAll(async () => {
    app = await startTestApp({ backend });
    trader = await newTrader(app, 'sorter');
    alpha = await createAccount(trader, 'alpha Fund');
    const beta = await createAccount(trader, 'Beta Eval');
    // Imported trades with every column, equal values on purpose (ties), mixed case, and some columns left empty.
    const imported = (i: number, extra: Record<string, unknown>) => ({
      id: `sort-${i}`,
      date: `2025-04-0${1 + (i % 4)}`,
      period: ['AM', 'PM', 'Lunch', 'Overnight', 'After Hours'][i % 5],
      trade_type: ['Long', 'short', '', 'Breakout'][i % 4],
      side: i % 2 ? 'Long' : 'Short',
      entry_time: `2025-04-0${1 + (i % 4)}T1${i % 10}:0${i % 6}:00Z`,
      exit_time: i % 7 === 0 ? null : `2025-04-0${1 + (i % 4)}T1${i % 10}:3${i % 6}:00Z`,
      entry_price: i % 5 === 0 ? null : `${5000 + (i % 3) * 0.25}`,
      exit_price: i % 6 === 0 ? null : `${5001 + (i % 4) * 0.5}`,
      quantity: i % 8 === 0 ? null : String(1 + (i % 3)),
      commission: (i % 3) * 1.24,
      ...extra,
    });
    const symbols = ['MES', 'mes', 'ES', 'NQ', 'MNQ', 'nq'];
    const rows = Array.from({ length: 24 }, (_, i) =>
      imported(i, {
        symbol: symbols[i % symbols.length],
        contract: i % 9 === 0 ? null : `${symbols[i % symbols.length]!.toUpperCase()}M5`,
        pnl: [12.5, -7.25, 0, 12.5, 30, -7.25][i % 6],
        gross_pnl: i % 4 === 0 ? null : [13.74, -6.01, 1.24, 13.74][i % 4],
      }),
    );
    await importTrades(trader, alpha.id, rows.slice(0, 14));
    await importTrades(trader, beta.id, rows.slice(14));
    // Manual trades: no prices, times, quantity, gross or contract; two unassigned (no account).
    await createTrade(trader, { date: '2025-04-02', symbol: 'ES', pnl: 12.5, trade_type: 'Breakout', account_id: alpha.id });
    await createTrade(trader, { date: '2025-04-03', symbol: 'YM', pnl: -3, period: 'PM' });
    await createTrade(trader, { date: '2025-04-03', symbol: 'ym', pnl: 30, period: 'Lunch' });
    all = await listAll(trader);
    expect(all).toHaveLength(27);
  });
  afterAll(() => app?.close());

  it('every sort, both directions: one page and pages of 4 by cursor give the total order, empty values last', async () => {
    for (const sort of TRADE_SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const expected = expectedOrder(all, sort, dir);
        const whole = await trader.get(`/api/trades?sort=${sort}&dir=${dir}&limit=500`);
        expect(
          whole.body.trades.map((t: TradeDto) => t.id),
          `${sort} ${dir}`,
        ).toEqual(expected);
        const paged = await walk(trader, `sort=${sort}&dir=${dir}`, 4);
        expect(paged.ids, `${sort} ${dir} by cursor`).toEqual(expected);
        expect(new Set(paged.totals), `${sort} ${dir} totals`).toEqual(new Set([27]));
      }
    }
    // The default is the trading order, newest first.
    expect(expectedOrder(all, 'date', 'desc')).toEqual((await trader.get('/api/trades?sort=date&limit=500')).body.trades.map((t: TradeDto) => t.id));
  });

  it('manual trades (no prices) come last both ways; equal values follow the trading order, newest first, both ways', async () => {
    const manual = new Set(all.filter((t) => t.entry_price === null).map((t) => t.id));
    for (const dir of ['asc', 'desc']) {
      const ids = (await trader.get(`/api/trades?sort=entry_price&dir=${dir}&limit=500`)).body.trades.map((t: TradeDto) => t.id) as string[];
      expect(new Set(ids.slice(ids.length - manual.size))).toEqual(manual);
      const pnl = (await trader.get(`/api/trades?sort=pnl&dir=${dir}&limit=500`)).body.trades as TradeDto[];
      const twelves = pnl.filter((t) => t.pnl === '12.50').map((t) => t.id);
      expect(twelves).toEqual(all.filter((t) => t.pnl === '12.50').map((t) => t.id));
    }
    // Case is ignored: MES and mes sit together.
    const symbols = (await trader.get('/api/trades?sort=symbol&dir=asc&limit=500')).body.trades.map((t: TradeDto) => t.symbol.toLowerCase());
    expect(symbols).toEqual([...symbols].sort());
    // Unassigned trades have no account: last.
    const byAccount = (await trader.get('/api/trades?sort=account&dir=desc&limit=500')).body.trades as TradeDto[];
    expect(byAccount.slice(-2).map((t) => t.account_name)).toEqual([null, null]);
    expect(byAccount[0]!.account_name).toBe('Beta Eval');
  });

  it('jumps by offset land on the same rows, and a cursor after a jump continues', async () => {
    for (const [sort, dir] of [
      ['date', 'asc'],
      ['date', 'desc'],
      ['pnl', 'desc'],
      ['exit_time', 'asc'],
      ['account', 'asc'],
    ] as const) {
      const expected = expectedOrder(all, sort, dir);
      for (const offset of [1, 5, 13, 22, 26, 27, 40]) {
        const res = await trader.get(`/api/trades?sort=${sort}&dir=${dir}&offset=${offset}&limit=4`);
        expect(res.status).toBe(200);
        expect(
          res.body.trades.map((t: TradeDto) => t.id),
          `${sort} ${dir} offset ${offset}`,
        ).toEqual(expected.slice(offset, offset + 4));
        expect(res.body.total).toBe(27);
        if (res.body.next_cursor) {
          const next = await trader.get(`/api/trades?sort=${sort}&dir=${dir}&cursor=${res.body.next_cursor}&limit=4`);
          expect(
            next.body.trades.map((t: TradeDto) => t.id),
            `${sort} ${dir} after offset ${offset}`,
          ).toEqual(expected.slice(offset + 4, offset + 8));
        }
      }
    }
  });

  it('search and account filters combine with a sort; the total is the filter’s', async () => {
    const inAlpha = all.filter((t) => t.account_id === alpha.id);
    const sorted = await walk(trader, `account=${alpha.id}&sort=pnl&dir=asc`, 3);
    expect(sorted.ids).toEqual(expectedOrder(inAlpha, 'pnl', 'asc'));
    expect(new Set(sorted.totals)).toEqual(new Set([inAlpha.length]));
    const mes = all.filter((t) => t.symbol.toLowerCase() === 'mes');
    const searched = await walk(trader, 'q=mes&sort=exit_price&dir=desc', 2);
    expect(searched.ids).toEqual(expectedOrder(mes, 'exit_price', 'desc'));
    expect(new Set(searched.totals)).toEqual(new Set([mes.length]));
    const both = await trader.get(`/api/trades?q=mes&account=${alpha.id}&sort=symbol&dir=desc&offset=1&limit=500`);
    const expected = expectedOrder(
      mes.filter((t) => t.account_id === alpha.id),
      'symbol',
      'desc',
    );
    expect(both.body.trades.map((t: TradeDto) => t.id)).toEqual(expected.slice(1));
    expect(both.body.total).toBe(expected.length);
  });

  it('a filter of the reports (side, result, several accounts) combines with a sort; the total is the filter’s', async () => {
    const short = all.filter((t) => t.side === 'Short');
    expect(short.length).toBeGreaterThan(3);
    const byPnl = await walk(trader, 'side=Short&sort=pnl&dir=asc', 3);
    expect(byPnl.ids).toEqual(expectedOrder(short, 'pnl', 'asc'));
    expect(new Set(byPnl.totals)).toEqual(new Set([short.length]));
    // Two accounts leave the unassigned trades out; Win keeps the winners; by entry price, highest first, none last.
    const accounts = all.filter((t) => t.account_id !== null).map((t) => t.account_id);
    const wins = all.filter((t) => t.account_id !== null && t.status === 'Win');
    const [first, second] = [...new Set(accounts)];
    const byPrice = await walk(trader, `account=${first}&account=${second}&result=Win&sort=entry_price&dir=desc`, 4);
    expect(byPrice.ids).toEqual(expectedOrder(wins, 'entry_price', 'desc'));
    expect(new Set(byPrice.totals)).toEqual(new Set([wins.length]));
  });

  it('refuses an unknown sort or direction, and a cursor of another sort, naming the field', async () => {
    const sort = await trader.get('/api/trades?sort=notes');
    expect(sort.status).toBe(400);
    expect(sort.body.error).toMatch(/^sort: /);
    const dir = await trader.get('/api/trades?dir=up');
    expect(dir.status).toBe(400);
    expect(dir.body.error).toMatch(/^dir: /);
    const cursor = (await trader.get('/api/trades?sort=pnl&limit=2')).body.next_cursor;
    const other = await trader.get(`/api/trades?sort=symbol&limit=2&cursor=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.body.error).toMatch(/^cursor: /);
    expect((await trader.get(`/api/trades?sort=pnl&dir=asc&limit=2&cursor=${cursor}`)).status).toBe(400);
  });

  it('a forged or garbled cursor is a 400 naming cursor, never a 500', async () => {
    const real = (await trader.get('/api/trades?limit=2')).body.next_cursor as string;
    const parts = JSON.parse(Buffer.from(real, 'base64url').toString('utf8')) as unknown[];
    const isInstant = (p: unknown) => typeof p === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(p);
    const isId = (p: unknown) => typeof p === 'string' && /^[0-9a-f-]{36}$/i.test(p);
    // Every timestamp of the real cursor replaced by one PostgreSQL refuses or that is no instant.
    const badInstants = [
      '0000-01-01T00:00:00Z',
      '0000-01-01 12:00:00+00',
      '+275760-09-13T00:00:00Z',
      '275760-09-13T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2025-03-03T24:00:00Z',
      '2025-03-03 12:00:00+99',
      '2025-03-03 12:00:00+23:59',
      '2025-03-03T12:00:00-16:00',
      '1',
      '2026',
      '',
    ];
    const forged: string[] = [
      'not base64!',
      '%%%%',
      base64('not json'),
      base64({ tradeDate: '2025-03-03' }),
      base64([]),
      base64(parts.slice(0, -1)),
      base64([...parts, 1]),
      base64(parts.map((p) => (isId(p) ? 'not-a-uuid' : p))),
      base64(parts.map((p) => (isId(p) ? 42 : p))),
      base64(parts.map((p, i) => (i === parts.length - 1 ? -1 : p))),
      base64(parts.map((p, i) => (i === parts.length - 1 ? 1.5 : p))),
      ...badInstants.flatMap((bad) => [
        base64(parts.map((p) => (isInstant(p) ? bad : p))),
        base64(parts.map((p, i) => (i === parts.findIndex(isInstant) ? bad : p))),
      ]),
    ];
    // Column sorts carry the last row's value: a value of the wrong kind is refused too.
    const pnlParts = JSON.parse(
      Buffer.from((await trader.get('/api/trades?sort=pnl&limit=2')).body.next_cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    const timeParts = JSON.parse(
      Buffer.from((await trader.get('/api/trades?sort=entry_time&limit=2')).body.next_cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    const forgedSorted: Array<[string, string]> = [
      ['pnl', base64(pnlParts.map((p, i) => (i === 2 ? 'abc' : p)))],
      ['pnl', base64(pnlParts.map((p, i) => (i === 2 ? '1e400' : p)))],
      ['pnl', base64(pnlParts.map((p, i) => (i === 2 ? 12 : p)))],
      ['entry_time', base64(timeParts.map((p, i) => (i === 2 ? '2025-03-03 12:00:00+99' : p)))],
      ['entry_time', base64(timeParts.map((p, i) => (i === 2 ? '0000-01-01T00:00:00Z' : p)))],
    ];
    expect(forged.length).toBeGreaterThan(30);
    for (const [sort, cursor] of [...forged.map((c) => ['date', c] as const), ...forgedSorted]) {
      const res = await trader.get(`/api/trades?sort=${sort}&limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, `${sort} ${Buffer.from(cursor, 'base64url').toString('utf8')}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error).toMatch(/^cursor: /);
    }
    // The real ones still work.
    expect((await trader.get(`/api/trades?limit=2&cursor=${real}`)).status).toBe(200);
  });
});
