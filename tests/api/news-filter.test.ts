import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsFilterStatus } from '../../src/contract/economic-calendar';
import { compareReport } from '../../src/contract/report-compare';
import { overviewReport } from '../../src/contract/reports';
import { queryRows } from '../../src/server/db/client';
import { keepNewsEvents } from '../../src/server/features/economic-calendar/routes';
import { createEconomicCalendar } from '../../src/server/features/economic-calendar/service';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { startCalendarFeedServer, type CalendarFeedServer } from '../support/calendar-feed-server';
import { createAccount, importTrades, listAll, money, newTrader } from './trades-support';

/**
 * Trades near high-impact news, over HTTP: a read of the stand-in feed keeps its high-impact USD events (once, however
 * often the feed is read), and the news filter of every report, the Trade Log and Compare keeps exactly the trades
 * entered within its minutes of one - not of a low-impact USD event, nor of a high-impact event of another currency.
 */

// Wednesday Mar 5 and Thursday Mar 6, 2025, as the feeds write them (New York offsets): CPI 13:30Z, crude oil 15:30Z
// (low), the ECB 13:15Z (EUR), the FOMC 19:00Z.
const FEED = [
  { title: 'CPI m/m', country: 'USD', date: '2025-03-05T08:30:00-05:00', impact: 'High', forecast: '0.3%', previous: '0.5%' },
  { title: 'Crude Oil Inventories', country: 'USD', date: '2025-03-05T10:30:00-05:00', impact: 'Low' },
  { title: 'Main Refinancing Rate', country: 'EUR', date: '2025-03-06T08:15:00-05:00', impact: 'High' },
  { title: 'FOMC Statement', country: 'USD', date: '2025-03-06T14:00:00-05:00', impact: 'High' },
];

/** Each trade's entry, and whether it lies within 15 minutes of a high-impact USD event. */
const TRADES = [
  { id: 'n1', entry: '2025-03-05T13:15:00Z', pnlCents: 10_000, near15: true }, // exactly 15 min before CPI
  { id: 'n2', entry: '2025-03-05T13:14:59Z', pnlCents: 2_000, near15: false }, // 15 min and 1 s before CPI
  { id: 'n3', entry: '2025-03-05T13:45:00Z', pnlCents: -5_000, near15: true }, // exactly 15 min after CPI
  { id: 'n4', entry: '2025-03-05T15:30:00Z', pnlCents: 700, near15: false }, // at the low-impact crude oil release
  { id: 'n5', entry: '2025-03-06T13:15:00Z', pnlCents: 300, near15: false }, // at the ECB's decision (EUR)
  { id: 'n6', entry: '2025-03-06T18:50:00Z', pnlCents: 4_000, near15: true }, // 10 min before the FOMC
  { id: 'n7', entry: '2025-03-06T19:03:00Z', pnlCents: -1_000, near15: true }, // 3 min after the FOMC
  { id: 'n8', entry: null, pnlCents: 50_000, near15: false }, // no entry time: near nothing, away from nothing
];

describe.each(backends())('the news filter on %s', (backend) => {
  let app: TestApp;
  let feed: CalendarFeedServer;
  let trader: ApiClient;
  const stored = () =>
    queryRows<{ title: string; country: string; at: string }>(
      app.server.database.db,
      sql`select title, country, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from economic_events order by at`,
    );
  const overview = async (query: string) => {
    const res = await trader.get(`/api/reports/overview?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return overviewReport.parse(res.body);
  };

  beforeAll(async () => {
    feed = await startCalendarFeedServer(FEED);
    app = await startTestApp({ backend, env: { ECONOMIC_CALENDAR_URL: feed.url } });
    trader = await newTrader(app);
    const account = await createAccount(trader, 'Apex 50K');
    await importTrades(
      trader,
      account.id,
      TRADES.map((t) => ({
        id: t.id,
        date: t.entry?.slice(0, 10) ?? '2025-03-06',
        symbol: 'NQ',
        side: 'Long',
        period: 'AM',
        quantity: '1',
        pnl: money(t.pnlCents),
        entry_time: t.entry,
        exit_time: t.entry ? new Date(Date.parse(t.entry) + 120_000).toISOString() : null,
      })),
    );
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await feed?.close();
  });

  it('keeps the high-impact USD events of a read of the feed, and says so to the filter bar', async () => {
    // Nothing stored yet: asking reads the feed.
    const status = await trader.get('/api/economic-calendar/news');
    expect(status.status).toBe(200);
    expect(newsFilterStatus.parse(status.body)).toEqual({ feed: true, events: 2 });
    expect(feed.requests).toBe(1);
    expect(await stored()).toEqual([
      { title: 'CPI m/m', country: 'USD', at: '2025-03-05T13:30:00Z' },
      { title: 'FOMC Statement', country: 'USD', at: '2025-03-06T19:00:00Z' },
    ]);
    // The calendar's own week comes from the same read.
    expect((await trader.get('/api/economic-calendar')).status).toBe(200);
    expect(feed.requests).toBe(1);
  });

  it('stores an event read again once, and adds the ones the feed adds', async () => {
    // Another read of the same feed (as after the freshness window), through the same keeping step, with one event more.
    feed.body = JSON.stringify([...FEED, { title: 'Nonfarm Employment Change', country: 'USD', date: '2025-03-07T08:30:00-05:00', impact: 'High' }]);
    const again = createEconomicCalendar({ url: feed.url, logger: { warn: () => undefined }, onRead: keepNewsEvents(app.server.database) });
    await again.week();
    await again.week();
    expect(feed.requests).toBe(2);
    const rows = await stored();
    expect(rows.map((r) => r.title)).toEqual(['CPI m/m', 'FOMC Statement', 'Nonfarm Employment Change']);
    expect((await trader.get('/api/economic-calendar/news')).body).toEqual({ feed: true, events: 3 });
  });

  it('counts exactly the trades entered within 15 minutes of a high-impact USD event, and (away) those farther from every one', async () => {
    const near = TRADES.filter((t) => t.near15);
    const near15 = await overview('news=15');
    expect(near15.basis.trades).toBe(near.length);
    expect(near15.overview.netCents).toBe(near.reduce((sum, t) => sum + t.pnlCents, 0));
    expect(near15.basis.filter).toMatchObject({ news: 15, newsMode: 'near' });
    expect(near15.basis.description).toBe('All Time; within 15 min of high-impact USD news');
    // 5 minutes: only the entry 3 minutes after the FOMC.
    expect((await overview('news=5')).overview.netCents).toBe(-1_000);
    const away = TRADES.filter((t) => !t.near15 && t.entry !== null);
    const away15 = await overview('news=15&newsMode=away');
    expect(away15.basis.trades).toBe(away.length);
    expect(away15.overview.netCents).toBe(away.reduce((sum, t) => sum + t.pnlCents, 0));
    // Without the key every trade counts.
    expect((await overview('')).basis.trades).toBe(TRADES.length);
  });

  it('narrows the Trade Log (read in SQL) and Compare to the same trades', async () => {
    const ids = async (query: string) => (await listAll(trader, query)).map((t) => t.pnl).sort();
    const pnls = (pick: (t: (typeof TRADES)[number]) => boolean) =>
      TRADES.filter(pick)
        .map((t) => money(t.pnlCents))
        .sort();
    expect(await ids('news=15')).toEqual(pnls((t) => t.near15));
    expect(await ids('news=15&newsMode=away')).toEqual(pnls((t) => !t.near15 && t.entry !== null));
    const query = new URLSearchParams({ a: 'news=15', b: 'news=15&newsMode=away' });
    const res = await trader.get(`/api/reports/compare?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { sets } = compareReport.parse(res.body);
    expect(sets.map((s) => s.basis.trades)).toEqual([4, 3]);
  });

  it('refuses a window it does not offer, or another mode, with a 400 naming the parameter', async () => {
    for (const query of ['news=10', 'news=0', 'news=-5', 'news=fifteen', 'news=']) {
      const res = await trader.get(`/api/reports/overview?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.error, query).toBe('news: news must be one of 5, 15, 30, 60 (minutes)');
    }
    const mode = await trader.get('/api/reports/overview?news=15&newsMode=sideways');
    expect(mode.status).toBe(400);
    expect(mode.body.error).toMatch(/^newsMode: /);
    expect((await trader.get('/api/trades?news=10')).status).toBe(400);
  });

  it('lets traders read the events but not write them', async () => {
    const userId = (await trader.get('/api/auth/get-session')).body.user.id as string;
    const read = await app.server.database.withUser(userId, (tx) =>
      queryRows<{ n: number }>(tx, sql`select count(*)::int as n from economic_events`),
    );
    expect(read).toEqual([{ n: 3 }]);
    const write = app.server.database.withUser(userId, (tx) =>
      tx.execute(sql`insert into economic_events (title, country, at) values ('Forged', 'USD', '2025-03-05T13:00:00Z')`),
    );
    // Drizzle wraps the database's refusal: its words are the cause's.
    const refusal = await write.then(
      () => 'written',
      (error: { cause?: { message?: string }; message: string }) => error.cause?.message ?? error.message,
    );
    expect(refusal).toMatch(/permission denied/);
  });
});

describe.each(backends())('the news filter without a feed on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('says there is no feed, so the filter bar can say why it is off', async () => {
    const trader = await newTrader(app);
    expect((await app.client().get('/api/economic-calendar/news')).status).toBe(401);
    expect((await trader.get('/api/economic-calendar/news')).body).toEqual({ feed: false, events: 0 });
    // The key still parses, and finds nothing to keep.
    const res = await trader.get('/api/reports/overview?news=15');
    expect(res.status).toBe(200);
    expect(res.body.basis.trades).toBe(0);
  });
});
