import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aggregateTradesByDay,
  buildResultsByWeek,
  buildResultsByWeekday,
  createEmptyAggregate,
  summarizeTrades,
  type StatTrade,
} from '../../src/domain/stats';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { addDays, cents, createAccount, createTrade, importTrades, listAll, money, newTrader, prng, type TradeDto } from './trades-support';

/**
 * Statistics for any filter ("computed in SQL or from the domain functions, never both ways differently":
 * every figure, the win rate and the score). Money is exact to the cent.
 */
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** What the domain computes from the listed trades (oldest first, as the streaks read them). */
function domainStats(listed: TradeDto[]) {
  const trades: StatTrade[] = [...listed].reverse().map((t) => ({
    tradeDate: t.date,
    status: t.status,
    pnlCents: cents(t.pnl),
    entryTime: t.entry_time as string | null,
    exitTime: t.exit_time as string | null,
    createdAt: t.created_at,
    id: t.id,
  }));
  const days = aggregateTradesByDay(trades);
  return asJson({
    summary: summarizeTrades(trades),
    by_week: buildResultsByWeek(days),
    by_weekday: buildResultsByWeekday(days),
    by_day: days,
    by_day_before: createEmptyAggregate(),
  });
}

describe.each(backends())('trades stats on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('a trader with no trades gets zeros, a zero score and five empty weekdays', async () => {
    const t = await newTrader(app, 'empty');
    const res = await t.get('/api/trades/stats');
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ trades: 0, wins: 0, losses: 0, breakEvens: 0, pnlCents: 0, winRate: 0, profitFactor: 0 });
    expect(res.body.summary.score).toEqual({ score: 0, winRate: 0, consistency: 0, profitFactorScore: 0 });
    expect(res.body.by_weekday.map((d: { day: string; trades: number }) => [d.day, d.trades])).toEqual([
      ['Monday', 0],
      ['Tuesday', 0],
      ['Wednesday', 0],
      ['Thursday', 0],
      ['Friday', 0],
    ]);
    expect(res.body.by_week).toEqual([]);
    expect(res.body.by_day).toEqual([]);
  });

  it('0.10 + 0.20 is 30 cents, not 30.000000000000004', async () => {
    const t = await newTrader(app, 'cents');
    await createTrade(t, { pnl: 0.1 });
    await createTrade(t, { pnl: '0.20' });
    const { summary } = (await t.get('/api/trades/stats')).body;
    expect(summary.pnlCents).toBe(30);
    expect(summary.grossProfitCents).toBe(30);
  });

  it('1,000 trades with cent values sum exactly to the integer total, overall and per account', async () => {
    const t = await newTrader(app, 'thousand');
    const [a, b] = [await createAccount(t, 'A'), await createAccount(t, 'B')];
    const random = prng(20250303);
    const rows = Array.from({ length: 1000 }, (_, i) => {
      // -2,500.00 .. +2,500.00 with every cent possible, a few large ones, some exact zeros.
      let c = Math.floor(random() * 500_001) - 250_000;
      if (i % 97 === 0) c = 12_345_678_91;
      if (i % 101 === 0) c = 0;
      return { id: `m-${i}`, date: addDays('2024-01-01', i % 300), period: 'AM', pnl: money(c), commission: money(i % 13) };
    });
    await importTrades(t, a.id, rows.slice(0, 600));
    await importTrades(t, b.id, rows.slice(600));
    const all = rows.map((r) => cents(r.pnl));
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
    const expectTotals = (summary: any, xs: number[]) => {
      expect(summary.trades).toBe(xs.length);
      expect(summary.pnlCents).toBe(sum(xs));
      expect(summary.grossProfitCents).toBe(sum(xs.filter((x) => x > 0)));
      expect(summary.grossLossCents).toBe(sum(xs.filter((x) => x < 0)));
      expect(summary.wins).toBe(xs.filter((x) => x > 0).length);
      expect(summary.losses).toBe(xs.filter((x) => x < 0).length);
      expect(summary.breakEvens).toBe(xs.filter((x) => x === 0).length);
    };
    expectTotals((await t.get('/api/trades/stats')).body.summary, all);
    expectTotals((await t.get(`/api/trades/stats?account=${a.id}`)).body.summary, all.slice(0, 600));
    expectTotals((await t.get(`/api/trades/stats?account=${b.id}`)).body.summary, all.slice(600));
    // by_day and by_week add up to the same cents.
    const stats = (await t.get('/api/trades/stats')).body;
    expect(sum(stats.by_day.map((d: { pnlCents: number }) => d.pnlCents))).toBe(sum(all));
    expect(sum(stats.by_week.map((d: { pnlCents: number }) => d.pnlCents))).toBe(sum(all));
    // The listed pnl strings add up to the same cents.
    expect(sum((await listAll(t)).map((x) => cents(x.pnl)))).toBe(sum(all));
  });

  it('counts wins, losses and BE; win rate excludes BE to one decimal; profit factor and score parts per the spec', async () => {
    const t = await newTrader(app, 'counts');
    // Chronologically: W +200 (Mon), L -100 (Tue), BE (Tue), W +100 (Wed). Created out of order on purpose.
    await createTrade(t, { date: '2025-03-05', pnl: 100 });
    await createTrade(t, { date: '2025-03-04', pnl: 0, commission: 3 });
    await createTrade(t, { date: '2025-03-03', pnl: 200 });
    await createTrade(t, { date: '2025-03-04', pnl: -100 });
    const { summary } = (await t.get('/api/trades/stats')).body;
    expect(summary).toMatchObject({
      trades: 4,
      wins: 2,
      losses: 1,
      breakEvens: 1,
      pnlCents: 20_000,
      grossProfitCents: 30_000,
      grossLossCents: -10_000,
      winRate: 66.7, // 2 / 3, BE excluded
      profitFactor: 3,
    });
    // Consistency = 66.7 + 30 (max loss streak 1); pf score = min(100, (3 - 1) x 100) = 100;
    // score = 0.4 x 66.7 + 0.3 x 96.7 + 0.3 x 100 = 85.69 -> 85.7.
    expect(summary.score).toEqual({ score: 85.7, winRate: 66.7, consistency: 96.7, profitFactorScore: 100 });
  });

  it('reads streaks in date order, not creation order (five straight wins earn the bonus)', async () => {
    const t = await newTrader(app, 'streak');
    // Created newest first; by date: L W W W W W L.
    const days = ['2025-03-11', '2025-03-10', '2025-03-07', '2025-03-06', '2025-03-05', '2025-03-04', '2025-03-03'];
    const pnls = [-50, 10, 10, 10, 10, 10, -50];
    for (let i = 0; i < days.length; i++) await createTrade(t, { date: days[i], pnl: pnls[i] });
    const { summary } = (await t.get('/api/trades/stats')).body;
    expect(summary.streaks).toEqual({ maxWinStreak: 5, maxLossStreak: 1, current: { result: 'Loss', length: 1 } });
    // win rate 5/7 = 71.4; consistency 71.4 + 30 + 10 = 100 (capped); pf 50/100 = 0.5 -> 0.
    expect(summary.winRate).toBe(71.4);
    expect(summary.profitFactor).toBe(0.5);
    expect(summary.score).toEqual({ score: 58.6, winRate: 71.4, consistency: 100, profitFactorScore: 0 });
  });

  it('profit factor with no loss travels as null (Infinity) and scores 100', async () => {
    const t = await newTrader(app, 'noloss');
    await createTrade(t, { pnl: 10 });
    const { summary } = (await t.get('/api/trades/stats')).body;
    expect(summary.profitFactor).toBeNull();
    expect(summary.score.profitFactorScore).toBe(100);
  });

  it('by weekday is Monday to Friday (weekend trades count only in the totals); weeks start on Monday', async () => {
    const t = await newTrader(app, 'weeks');
    await createTrade(t, { date: '2025-03-03', pnl: 10 }); // Monday, week of Mar 3
    await createTrade(t, { date: '2025-03-07', pnl: -4 }); // Friday
    await createTrade(t, { date: '2025-03-08', pnl: 7 }); // Saturday, week of Mar 3
    await createTrade(t, { date: '2025-03-09', pnl: 1 }); // Sunday, still the week of Mar 3
    await createTrade(t, { date: '2025-03-10', pnl: 5 }); // Monday, week of Mar 10
    const stats = (await t.get('/api/trades/stats')).body;
    expect(stats.summary.trades).toBe(5);
    expect(stats.summary.pnlCents).toBe(1900);
    expect(stats.by_weekday.map((d: any) => [d.day, d.trades, d.pnlCents, d.winRate])).toEqual([
      ['Monday', 2, 1500, 100],
      ['Tuesday', 0, 0, 0],
      ['Wednesday', 0, 0, 0],
      ['Thursday', 0, 0, 0],
      ['Friday', 1, -400, 0],
    ]);
    expect(stats.by_week.map((w: any) => [w.weekStart, w.weekEnd, w.label, w.trades, w.pnlCents])).toEqual([
      ['2025-03-03', '2025-03-09', 'Mar 3', 4, 1400],
      ['2025-03-10', '2025-03-16', 'Mar 10', 1, 500],
    ]);
  });

  describe('the same numbers as the domain computes from the listed trades', () => {
    let t: ApiClient;
    let acct: { id: string };

    beforeAll(async () => {
      t = await newTrader(app, 'same');
      acct = await createAccount(t, 'Same Numbers');
      const random = prng(7);
      const rows = Array.from({ length: 300 }, (_, i) => {
        const r = random();
        const pnl = r < 0.15 ? 0 : Math.round((random() - 0.45) * 100_000);
        return {
          id: `s-${i}`,
          date: addDays('2024-11-01', Math.floor(random() * 120)),
          period: 'AM',
          symbol: random() < 0.3 ? 'ES' : 'NQ',
          pnl: money(pnl),
          commission: money(Math.floor(random() * 500)),
        };
      });
      await importTrades(t, acct.id, rows);
      // Some unassigned trades created one by one, on days the import also used.
      for (let i = 0; i < 12; i++) await createTrade(t, { date: addDays('2024-11-01', i * 9), symbol: 'CL', pnl: (i % 3) * 25 - 25 });
    });

    it.each([['all'], ['account'], ['unassigned'], ['search']])('for the %s filter', async (filter) => {
      const query = filter === 'account' ? `account=${acct.id}` : filter === 'unassigned' ? 'account=unassigned' : filter === 'search' ? 'q=es' : '';
      const listed = await listAll(t, query);
      expect(listed.length).toBeGreaterThan(0);
      const stats = (await t.get(`/api/trades/stats?${query}`)).body;
      expect(stats).toEqual(domainStats(listed));
    });

    // The Trade Log's statistics count what its table shows, for a search within any account filter.
    it.each([['all'], ['account'], ['unassigned']])('for a search within the %s filter, the same trades as the list', async (filter) => {
      const account = filter === 'account' ? acct.id : filter;
      for (const q of ['ES', 'cl', 'Same Numbers']) {
        const query = `account=${account}&q=${encodeURIComponent(q)}`;
        const page = (await t.get(`/api/trades?${query}&limit=5`)).body;
        const stats = (await t.get(`/api/trades/stats?${query}&days=none`)).body;
        expect(stats.summary.trades, query).toBe(page.total);
        expect(stats).toEqual({ ...domainStats(await listAll(t, query)), by_day: [] });
      }
    });

    // The figures leave out the trades whose delete waits for Undo, to the cent and streak for streak.
    it.each([['all'], ['account'], ['unassigned'], ['search']])('for the %s filter, leaving out trades by id', async (filter) => {
      const query = filter === 'account' ? `account=${acct.id}` : filter === 'unassigned' ? 'account=unassigned' : filter === 'search' ? 'q=es' : '';
      const listed = await listAll(t, query);
      // Two trades of a day that keeps others (it is summed again without them) where there is one, the oldest and
      // the newest (the unassigned trades are one a day: their days go altogether).
      const sameDay = listed.find((x) => listed.filter((y) => y.date === x.date).length > 2);
      const partner = sameDay && listed.find((x) => x.date === sameDay.date && x.id !== sameDay.id);
      const left = [sameDay, partner, listed[listed.length - 1], listed[0]].filter((x) => x !== undefined);
      const ids = [...new Set(left.map((x) => x.id))];
      expect(ids.length).toBeGreaterThan(filter === 'unassigned' ? 1 : 3);
      const stats = (await t.get(`/api/trades/stats?${query}&exclude=${ids.join(',')}`)).body;
      expect(stats).toEqual(domainStats(listed.filter((x) => !ids.includes(x.id))));
      expect(stats.summary.trades).toBe(listed.length - ids.length);
    });
  });

  it("leaving out another trader's trade or no trade changes nothing; a bad id is a 400 naming exclude", async () => {
    const alice = await newTrader(app, 'exclude-a');
    const bob = await newTrader(app, 'exclude-b');
    const hers = await createTrade(alice, { date: '2025-03-03', pnl: 75 });
    await createTrade(bob, { date: '2025-03-03', pnl: -20 });
    const mine = (await bob.get('/api/trades/stats')).body;
    expect((await bob.get(`/api/trades/stats?exclude=${hers.id}`)).body).toEqual(mine);
    expect((await bob.get('/api/trades/stats?exclude=')).body).toEqual(mine);
    const bad = await bob.get('/api/trades/stats?exclude=1,2');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^exclude/);
    expect((await bob.get(`/api/trades/stats?exclude=${Array.from({ length: 51 }, () => hers.id).join(',')}`)).status).toBe(400);
  });

  it('the unassigned count leaves out the unassigned trades whose delete waits for Undo, and nothing else', async () => {
    const alice = await newTrader(app, 'exclude-count-a');
    const bob = await newTrader(app, 'exclude-count-b');
    const account = await createAccount(bob, 'Main');
    const loose = [await createTrade(bob, { date: '2025-03-03', pnl: 10 }), await createTrade(bob, { date: '2025-03-04', pnl: -5 })];
    const kept = await createTrade(bob, { date: '2025-03-05', pnl: 20, account_id: account.id });
    const hers = await createTrade(alice, { date: '2025-03-03', pnl: 75 });
    expect(loose.map((x) => x.account_id)).toEqual([null, null]);
    const count = async (exclude: string[]) => (await bob.get(`/api/trades/unassigned-count?exclude=${exclude.join(',')}`)).body;
    expect(await count([])).toEqual({ count: 2 });
    expect(await count([loose[0]!.id])).toEqual({ count: 1 });
    expect(await count([loose[0]!.id, loose[1]!.id, kept.id])).toEqual({ count: 0 });
    // Another trader's unassigned trade, or an assigned one, is not among Bob's unassigned trades.
    expect(await count([hers.id, kept.id])).toEqual({ count: 2 });
    const bad = await bob.get('/api/trades/unassigned-count?exclude=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^exclude/);
  });

  it('refuses an unknown account filter with a 400 naming the field', async () => {
    const t = await newTrader(app, 'badfilter');
    const res = await t.get('/api/trades/stats?account=everything');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^account\.0: /);
  });

  it('days=none sends no per-day rows and days=<date> only those from that day, the earlier ones summed', async () => {
    const t = await newTrader(app, 'days');
    const account = await createAccount(t, 'Main');
    await importTrades(t, account.id, [
      { id: 'd1', date: '2025-01-06', period: 'AM', pnl: '100.00' },
      { id: 'd2', date: '2025-01-07', period: 'AM', pnl: '-40.25' },
      { id: 'd3', date: '2025-02-03', period: 'AM', pnl: '12.50' },
      { id: 'd4', date: '2025-02-04', period: 'AM', pnl: '0' },
    ]);
    const all = (await t.get('/api/trades/stats')).body;
    const none = (await t.get('/api/trades/stats?days=none')).body;
    expect(none.by_day).toEqual([]);
    expect({ ...none, by_day: all.by_day }).toEqual(all);

    const recent = (await t.get('/api/trades/stats?days=2025-02-01')).body;
    expect(recent.summary).toEqual(all.summary);
    expect(recent.by_week).toEqual(all.by_week);
    expect(recent.by_day.map((d: { date: string }) => d.date)).toEqual(['2025-02-03', '2025-02-04']);
    expect(recent.by_day_before).toEqual({
      trades: 2,
      wins: 1,
      losses: 1,
      breakEvens: 0,
      pnlCents: 5975,
      grossProfitCents: 10000,
      grossLossCents: -4025,
    });

    const bad = await t.get('/api/trades/stats?days=last-month');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^days: /);
  });
});
