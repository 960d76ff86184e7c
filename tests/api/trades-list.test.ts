import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { addDays, createAccount, createTrade, importTrades, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * The Trade Log list (filtered by account, unassigned or all, ordered by trade_date desc then created_at
 * desc, with the account name, searchable, paged so that 100,000 trades never travel at once).
 */
describe.each(backends())('trades list: order, filters, search, keyset pages on %s', (backend) => {
  let app: TestApp;
  let trader: ApiClient;
  let other: ApiClient;
  let eval1: { id: string };
  let funded: { id: string };

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [trader, other] = await Promise.all([newTrader(app, 'lister'), newTrader(app, 'other')]);
    eval1 = await createAccount(trader, 'Apex Eval 50K');
    funded = await createAccount(trader, 'Topstep Funded');
    const otherAccount = await createAccount(other, 'Other Account');
    // The other trader has trades that match every search below: none of them may show up.
    await importTrades(other, otherAccount.id, [
      { date: '2025-01-06', period: 'AM', symbol: 'MNQ', notes: 'liquidity sweep 100%', tags: ['Scalp'], pnl: 5 },
      { date: '2025-01-07', period: 'PM', symbol: 'ES', notes: 'apex funded', tags: ['sweep'], pnl: -5 },
      { date: '2025-01-08', period: 'AM', symbol: 'MNQ', contract: 'MNQH5', pnl: 7 },
    ]);
  });
  afterAll(() => app?.close());

  it('orders by trade_date desc, then by creation desc within a day, with the account name', async () => {
    const t = await newTrader(app, 'order');
    const acct = await createAccount(t, 'Order Acct');
    // Created in this order: the same day's later trade must come first.
    const a = await createTrade(t, { date: '2025-02-03', notes: 'a' });
    const b = await createTrade(t, { date: '2025-02-05', notes: 'b', account_id: acct.id });
    const c = await createTrade(t, { date: '2025-02-03', notes: 'c' });
    const d = await createTrade(t, { date: '2025-01-31', notes: 'd' });
    const e = await createTrade(t, { date: '2025-02-05', notes: 'e' });
    const res = await t.get('/api/trades');
    expect(res.status).toBe(200);
    expect(res.body.trades.map((x: TradeDto) => x.notes)).toEqual(['e', 'b', 'c', 'a', 'd']);
    expect(res.body.total).toBe(5);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.trades[1]).toMatchObject({ id: b.id, account_name: 'Order Acct' });
    expect([a, c, d, e].every((x) => x.account_name === null)).toBe(true);
  });

  it("finds an imported trade by its contract ('MNQH5' under the symbol MNQ), in any case, and only its own", async () => {
    const t = await newTrader(app, 'contract');
    const acct = await createAccount(t, 'Contracts');
    await importTrades(t, acct.id, [
      { id: 'c-1', date: '2025-03-03', period: 'AM', symbol: 'MNQ', contract: 'MNQH5', pnl: 12.5 },
      { id: 'c-2', date: '2025-03-04', period: 'AM', symbol: 'MNQ', contract: 'MNQM5', pnl: -3 },
      { id: 'c-3', date: '2025-03-05', period: 'PM', symbol: 'ES', contract: 'ESH5', pnl: 4 },
    ]);
    await createTrade(t, { date: '2025-03-06', symbol: 'MNQ', notes: 'manual, no contract' });
    const found = await t.get('/api/trades?q=mnqh5');
    expect(found.status).toBe(200);
    expect(found.body.trades.map((x: TradeDto) => [x.symbol, x.contract])).toEqual([['MNQ', 'MNQH5']]);
    expect(found.body.total).toBe(1);
    // Two letters take the search's other path (no trigram index): the contract counts there too.
    expect((await t.get('/api/trades?q=H5')).body.trades.map((x: TradeDto) => x.contract).sort()).toEqual(['ESH5', 'MNQH5']);
    // The symbol still finds all four, manual or imported.
    expect((await t.get('/api/trades?q=mnq')).body.total).toBe(3);
    // The statistics of a search read the same trades.
    expect((await t.get('/api/trades/stats?q=MNQH5&days=none')).body.summary).toMatchObject({ trades: 1, pnlCents: 1250 });
  });

  describe('with 230 trades', () => {
    const expected = new Map<string, { account: 'eval' | 'funded' | null; symbol: string; notes: string; tags: string[] }>();

    beforeAll(async () => {
      // 200 imported in one transaction (identical created_at, so only the id breaks ties inside a day) and 30
      // created one by one on the same days: pages must cut through runs of equal (trade_date, created_at).
      const rows = Array.from({ length: 200 }, (_, i) => ({
        id: `list-${i}`,
        date: addDays('2025-03-03', i % 17),
        period: i % 2 ? 'AM' : 'PM',
        symbol: i % 10 === 0 ? 'GC' : 'NQ',
        notes: i % 25 === 0 ? `liquidity sweep #${i}` : '',
        tags: i % 40 === 0 ? ['Sweep-Setup'] : [],
        pnl: (i % 7) - 3,
      }));
      const evalRows = rows.slice(0, 120);
      const fundedRows = rows.slice(120);
      await importTrades(trader, eval1.id, evalRows);
      await importTrades(trader, funded.id, fundedRows);
      for (let i = 0; i < 30; i++) {
        const t = await createTrade(trader, {
          date: addDays('2025-03-03', i % 17),
          notes: i === 7 ? 'discount 100% off' : `loose ${i}`,
          symbol: 'CL',
          pnl: i,
        });
        expected.set(t.id, { account: null, symbol: 'CL', notes: t.notes, tags: [] });
      }
    });

    function isOrdered(trades: TradeDto[]) {
      for (let i = 1; i < trades.length; i++) {
        const [p, q] = [trades[i - 1]!, trades[i]!];
        const before =
          p.trade_date > q.trade_date ||
          (p.trade_date === q.trade_date && (p.created_at > q.created_at || (p.created_at === q.created_at && p.id > q.id)));
        if (!before) return `trade ${i} (${q.trade_date} ${q.created_at} ${q.id}) is out of order after ${p.trade_date} ${p.created_at} ${p.id}`;
      }
      return null;
    }

    it('walks every trade exactly once in pages of 50, in list order, with the total on every page', async () => {
      const seen: TradeDto[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { status: number; body: any } = await trader.get(`/api/trades?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(230);
        expect(res.body.trades.length).toBeLessThanOrEqual(50);
        seen.push(...res.body.trades);
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor && pages < 20);
      expect(pages).toBe(5);
      expect(seen).toHaveLength(230);
      expect(new Set(seen.map((t) => t.id)).size).toBe(230);
      expect(isOrdered(seen)).toBeNull();
      // One page of everything is the same sequence.
      const whole = (await trader.get('/api/trades?limit=500')).body.trades as TradeDto[];
      expect(whole.map((t) => t.id)).toEqual(seen.map((t) => t.id));
    });

    it('pages of 7 (cutting inside runs of equal dates and creation times) give the same sequence', async () => {
      const small = await listAll(trader, '', 7);
      const whole = (await trader.get('/api/trades?limit=500')).body.trades as TradeDto[];
      expect(small.map((t) => t.id)).toEqual(whole.map((t) => t.id));
    });

    it('filters by account, by unassigned, and all; never shows another trader’s trades', async () => {
      const all = await listAll(trader, 'account=all');
      expect(all).toHaveLength(230);
      const evalTrades = await listAll(trader, `account=${eval1.id}`, 50);
      expect(evalTrades).toHaveLength(120);
      expect(evalTrades.every((t) => t.account_id === eval1.id && t.account_name === 'Apex Eval 50K')).toBe(true);
      const fundedTrades = await listAll(trader, `account=${funded.id}`, 50);
      expect(fundedTrades).toHaveLength(80);
      expect(fundedTrades.every((t) => t.account_name === 'Topstep Funded')).toBe(true);
      const unassigned = await listAll(trader, 'account=unassigned', 50);
      expect(unassigned.map((t) => t.id).sort()).toEqual([...expected.keys()].sort());
      expect((await trader.get('/api/trades?account=unassigned&limit=1')).body.total).toBe(30);
      expect((await trader.get('/api/trades/unassigned-count')).body.count).toBe(30);
      expect(isOrdered(evalTrades)).toBeNull();
    });

    it('searches symbol, notes, tags and account name, case-insensitively, with a matching total', async () => {
      const gc = await listAll(trader, 'q=gc');
      expect(gc).toHaveLength(20);
      expect(gc.every((t) => t.symbol === 'GC')).toBe(true);
      expect((await trader.get('/api/trades?q=gc&limit=5')).body.total).toBe(20);

      const sweep = await listAll(trader, 'q=SWEEP');
      // notes 'liquidity sweep' at i % 25 == 0 (8 trades) and tag 'Sweep-Setup' at i % 40 == 0 (5; 0, 200 overlap)
      const ids = new Set(sweep.map((t) => t.id));
      expect(sweep.every((t) => /sweep/i.test(t.notes) || t.tags.some((g) => /sweep/i.test(g)))).toBe(true);
      expect(ids.size).toBe(sweep.length);
      expect(sweep).toHaveLength(new Set([0, 25, 50, 75, 100, 125, 150, 175, 40, 80, 120, 160]).size);

      const byAccount = await trader.get('/api/trades?q=topstep&limit=500');
      expect(byAccount.body.total).toBe(80);
      expect(byAccount.body.trades.every((t: TradeDto) => t.account_id === funded.id)).toBe(true);

      const withinAccount = await trader.get(`/api/trades?account=${eval1.id}&q=gc&limit=500`);
      expect(withinAccount.body.total).toBe(12);
      expect(withinAccount.body.trades.every((t: TradeDto) => t.account_id === eval1.id && t.symbol === 'GC')).toBe(true);

      // LIKE wildcards are literal characters: '100%' matches the one note containing it, '_' nothing.
      const percent = await trader.get(`/api/trades?q=${encodeURIComponent('100%')}`);
      expect(percent.body.trades.map((t: TradeDto) => t.notes)).toEqual(['discount 100% off']);
      expect((await trader.get(`/api/trades?q=${encodeURIComponent('_')}`)).body.total).toBe(0);
      expect((await trader.get('/api/trades?q=nothing-matches-this')).body).toEqual({ trades: [], next_cursor: null, total: 0 });
    });

    it('a page at any offset (a jump to any row) is the same slice of the list, for every filter', async () => {
      const filters = [
        'account=all',
        `account=${eval1.id}`,
        `account=${funded.id}`,
        'account=unassigned',
        'q=sweep',
        'from=2025-03-05&to=2025-03-10',
      ];
      for (const filter of filters) {
        const whole = (await trader.get(`/api/trades?${filter}&limit=500`)).body.trades as TradeDto[];
        const n = whole.length;
        for (const offset of [0, 1, 6, 13, 14, 29, Math.floor(n / 2), n - 7, n - 1, n, n + 40].filter((o) => o >= 0)) {
          const res = await trader.get(`/api/trades?${filter}&offset=${offset}&limit=7`);
          expect(res.status, `${filter} offset ${offset}`).toBe(200);
          expect(
            res.body.trades.map((t: TradeDto) => t.id),
            `${filter} offset ${offset}`,
          ).toEqual(whole.slice(offset, offset + 7).map((t) => t.id));
          expect(res.body.total, `${filter} offset ${offset}`).toBe(n);
          // The cursor of a jumped-to page continues from where it ends.
          if (res.body.next_cursor) {
            const next = await trader.get(`/api/trades?${filter}&cursor=${res.body.next_cursor}&limit=7`);
            expect(next.body.trades.map((t: TradeDto) => t.id)).toEqual(whole.slice(offset + 7, offset + 14).map((t) => t.id));
          } else {
            expect(offset + 7).toBeGreaterThanOrEqual(n);
          }
        }
      }
    });

    it('refuses an offset together with a cursor, or a negative one, naming the field', async () => {
      const first = (await trader.get('/api/trades?limit=5')).body;
      const both = await trader.get(`/api/trades?limit=5&offset=10&cursor=${first.next_cursor}`);
      expect(both.status).toBe(400);
      expect(both.body.error).toMatch(/^offset: /);
      const negative = await trader.get('/api/trades?offset=-1');
      expect(negative.status).toBe(400);
      expect(negative.body.error).toMatch(/^offset: /);
    });
  });

  it('refuses a limit above 500, below 1, a malformed cursor and an unknown account filter with a 400 naming the field', async () => {
    const big = await trader.get('/api/trades?limit=501');
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/^limit: /);
    expect((await trader.get('/api/trades?limit=0')).status).toBe(400);
    const cursor = await trader.get('/api/trades?cursor=garbage');
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toMatch(/^cursor: /);
    const account = await trader.get('/api/trades?account=mine');
    expect(account.status).toBe(400);
    expect(account.body.error).toMatch(/^account\.0: /);
  });

  it("filtering by another trader's account id shows nothing", async () => {
    const theirs = (await other.get('/api/accounts')).body[0].id;
    const res = await trader.get(`/api/trades?account=${theirs}`);
    expect(res.body).toEqual({ trades: [], next_cursor: null, total: 0 });
  });

  it('requires a signed-in trader', async () => {
    expect((await app.client().get('/api/trades')).status).toBe(401);
  });
});
