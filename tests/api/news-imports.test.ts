import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importedNewsDeleted, importedNewsEvents, newsFilterStatus, newsImportResult } from '../../src/contract/economic-calendar';
import { overviewReport } from '../../src/contract/reports';
import { queryRows } from '../../src/server/db/client';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { startCalendarFeedServer, type CalendarFeedServer } from '../support/calendar-feed-server';
import { createAccount, importTrades, listAll, money, newTrader } from './trades-support';

/**
 * Past economic calendar weeks a trader imports from a file in the feed's format, over HTTP: the news filter then marks
 * their older trades exactly as it marks trades near the feed's events; the same file twice adds nothing, nor does an
 * event the feed told of already; a bad entry refuses the whole file naming its place; and one trader's file or delete
 * never moves another trader's filter.
 */

// The feed's week: the FOMC of Thursday Mar 6, 2025 (19:00Z).
const FEED = [{ title: 'FOMC Statement', country: 'USD', date: '2025-03-06T14:00:00-05:00', impact: 'High' }];

// A's file of a past week: CPI Wed Jun 12, 2024 12:30Z (high), crude oil (low), the ECB (EUR), and the feed's FOMC again.
const FILE_A = [
  { title: 'CPI m/m', country: 'USD', date: '2024-06-12T08:30:00-04:00', impact: 'High', forecast: '0.1%', previous: '0.3%' },
  { title: 'Crude Oil Inventories', country: 'USD', date: '2024-06-12T10:30:00-04:00', impact: 'Low', forecast: '-1.1M', previous: '2.3M' },
  { title: 'Main Refinancing Rate', country: 'EUR', date: '2024-06-06T08:15:00-04:00', impact: 'High', forecast: 4.25, previous: 4.5 },
  ...FEED,
];

// B's file: the FOMC of Jun 12, 2024 (18:00Z), which A never imported.
const FILE_B = [{ title: 'FOMC Statement', country: 'USD', date: '2024-06-12T14:00:00-04:00', impact: 'High' }];

/** A's trades: their entries, and whether each lies within 15 minutes of one of A's high-impact USD events. */
const TRADES = [
  { id: 'p1', entry: '2024-06-12T12:25:00Z', pnlCents: 1_000, near15: true }, // 5 min before CPI
  { id: 'p2', entry: '2024-06-12T13:00:00Z', pnlCents: 2_000, near15: false }, // 30 min after CPI
  { id: 'p3', entry: '2024-06-12T14:30:00Z', pnlCents: 4_000, near15: false }, // at the low-impact crude oil release
  { id: 'p4', entry: '2024-06-12T18:05:00Z', pnlCents: 8_000, near15: false }, // 5 min after B's FOMC, which is not A's
];

const CSV_A = [
  'Title,Country,Date,Impact,Forecast,Previous',
  'Non-Farm Employment Change,USD,2024-07-05T08:30:00-04:00,High,"190K","272K"',
  'Unemployment Rate,USD,2024-07-05T08:30:00-04:00,High,4.0%,4.0%',
  'BOJ Press Conference,JPY,2024-07-31T02:30:00-04:00,High,,',
].join('\r\n');

describe.each(backends())('imported economic calendar events on %s', (backend) => {
  let app: TestApp;
  let feed: CalendarFeedServer;
  let a: ApiClient;
  let b: ApiClient;
  let aId: string;
  let bId: string;
  let aAccount: string;

  const upload = (client: ApiClient, body: string, type = 'application/json') =>
    client
      .send('POST', '/api/economic-calendar/events', body, { 'content-type': type })
      .then(async (res) => ({ status: res.status, body: await res.json() }));
  const importedRows = (userId: string) =>
    queryRows<{ title: string; at: string }>(
      app.server.database.db,
      sql`select title, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from imported_economic_events where user_id = ${userId} order by at, title`,
    );
  const near = async (client: ApiClient, window: number) => {
    const res = await client.get(`/api/reports/overview?news=${window}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return overviewReport.parse(res.body).overview.netCents;
  };
  const listed = async (client: ApiClient, query: string) => (await listAll(client, query)).map((t) => t.pnl).sort();
  const summary = async (client: ApiClient) => importedNewsEvents.parse((await client.get('/api/economic-calendar/events')).body);
  const status = async (client: ApiClient) => newsFilterStatus.parse((await client.get('/api/economic-calendar/news')).body);

  beforeAll(async () => {
    feed = await startCalendarFeedServer(FEED);
    app = await startTestApp({ backend, env: { ECONOMIC_CALENDAR_URL: feed.url } });
    a = await newTrader(app, 'news-a');
    b = await newTrader(app, 'news-b');
    aId = (await a.get('/api/auth/get-session')).body.user.id;
    bId = (await b.get('/api/auth/get-session')).body.user.id;
    const account = await createAccount(a, 'Apex 50K');
    aAccount = account.id;
    await importTrades(
      a,
      account.id,
      TRADES.map((t) => ({
        id: t.id,
        date: t.entry.slice(0, 10),
        symbol: 'NQ',
        side: 'Long',
        period: 'AM',
        quantity: '1',
        pnl: money(t.pnlCents),
        entry_time: t.entry,
        exit_time: new Date(Date.parse(t.entry) + 60_000).toISOString(),
      })),
    );
    const bAccount = await createAccount(b, 'B 50K');
    await importTrades(b, bAccount.id, [
      { id: 'q1', date: '2024-06-12', symbol: 'ES', side: 'Short', period: 'PM', quantity: '1', pnl: '30.00', entry_time: '2024-06-12T18:05:00Z' },
    ]);
    // The feed's week is read and kept before anyone imports.
    expect((await a.get('/api/economic-calendar')).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await feed?.close();
  });

  it('marks nothing of a past year before the import: the feed only knows its own week', async () => {
    expect(await status(a)).toEqual({ feed: true, events: 1 });
    expect(await near(a, 60)).toBe(0);
    expect(await summary(a)).toEqual({ count: 0, from: null, to: null });
  });

  it("keeps the file's high-impact USD events, and the filter marks the trades within the window of one and no other", async () => {
    const res = await upload(a, JSON.stringify(FILE_A));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The FOMC is the feed's already: kept, not added again.
    expect(newsImportResult.parse(res.body)).toEqual({
      read: 4,
      kept: 2,
      added: 1,
      from: '2024-06-12T12:30:00.000Z',
      to: '2025-03-06T19:00:00.000Z',
    });
    expect(await importedRows(aId)).toEqual([{ title: 'CPI m/m', at: '2024-06-12T12:30:00Z' }]);
    expect(await status(a)).toEqual({ feed: true, events: 2 });
    expect(await summary(a)).toEqual({ count: 1, from: '2024-06-12T12:30:00.000Z', to: '2024-06-12T12:30:00.000Z' });

    const netOf = (pick: (t: (typeof TRADES)[number]) => boolean) => TRADES.filter(pick).reduce((sum, t) => sum + t.pnlCents, 0);
    expect(await near(a, 15)).toBe(netOf((t) => t.near15));
    expect(await near(a, 5)).toBe(1_000);
    // 30 minutes after CPI is within 30 and 60, both ends included.
    expect(await near(a, 30)).toBe(3_000);
    const away = await a.get('/api/reports/overview?news=15&newsMode=away');
    expect(overviewReport.parse(away.body).overview.netCents).toBe(netOf((t) => !t.near15));
    // The Trade Log reads the filter in SQL: the same trades.
    expect(await listed(a, 'news=15')).toEqual([money(1_000)]);
    expect(await listed(a, 'news=15&newsMode=away')).toEqual([money(2_000), money(4_000), money(8_000)].sort());
  });

  it('adds nothing for the same file twice', async () => {
    const res = await upload(a, JSON.stringify(FILE_A));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ read: 4, kept: 2, added: 0 });
    expect(await importedRows(aId)).toHaveLength(1);
    expect(await status(a)).toEqual({ feed: true, events: 2 });
  });

  it('reads a CSV with the same columns, in any case', async () => {
    const res = await upload(a, CSV_A, 'text/csv');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ read: 3, kept: 2, added: 2, from: '2024-07-05T12:30:00.000Z', to: '2024-07-05T12:30:00.000Z' });
    expect((await importedRows(aId)).map((r) => r.title)).toEqual(['CPI m/m', 'Non-Farm Employment Change', 'Unemployment Rate']);
    expect((await upload(a, CSV_A, 'text/csv')).body).toMatchObject({ added: 0 });
  });

  it('refuses a file with a bad entry whole, naming its item or row and field, and stores nothing of it', async () => {
    const before = await importedRows(aId);
    const fresh = { title: 'Retail Sales m/m', country: 'USD', date: '2024-06-18T08:30:00-04:00', impact: 'High' };
    const cases: Array<[string, string, string, Record<string, unknown>]> = [
      [
        JSON.stringify([fresh, fresh, { title: 'PPI m/m', country: 'USD', date: '2024-06-13T08:30:00', impact: 'High' }]),
        'application/json',
        'Item 3: date: must be a date and time with its offset, as 2025-03-05T08:30:00-05:00',
        { item: 3 },
      ],
      [JSON.stringify([fresh, { country: 'USD', date: '2024-06-13T08:30:00-04:00' }]), 'application/json', 'Item 2: title: is required', { item: 2 }],
      [
        JSON.stringify([fresh, { title: 'X', country: 'USD', date: '2024-02-30T08:30:00-05:00' }]),
        'application/json',
        'Item 2: date: must be a date and time with its offset, as 2025-03-05T08:30:00-05:00',
        { item: 2 },
      ],
      [
        `[${JSON.stringify(fresh)}, {"title": "CPI\\u0000m/m", "country": "USD", "date": "2024-06-13T08:30:00-04:00"}]`,
        'application/json',
        'Item 2: title: must not contain NUL characters',
        { item: 2 },
      ],
      [
        `[{"title": "CPI", "country": "US\\udc00", "date": "2024-06-13T08:30:00-04:00"}]`,
        'application/json',
        'Item 1: country: must be valid Unicode text',
        { item: 1 },
      ],
      [JSON.stringify([fresh, 'not an event']), 'application/json', 'Item 2: must be an event: an object with title, country and date', { item: 2 }],
      [
        `${CSV_A.split('\r\n')[0]}\nRetail Sales m/m,USD,2024-06-18T08:30:00-04:00,High,,\n,USD,2024-06-19T08:30:00-04:00,High,,`,
        'text/csv',
        'Row 3: title: is required',
        { row: 3 },
      ],
      ['[{"title": "CPI"', 'application/json', '', {}],
      [JSON.stringify({ events: [fresh] }), 'application/json', 'file: must be a list of events, as the calendar feed answers', {}],
      ['[]', 'application/json', 'file: no events in it', {}],
      [
        'name,when\nCPI,2024-06-12',
        'text/csv',
        'file: not a JSON list of events, nor a CSV with the columns title, country, date, impact, forecast, previous (missing: title, country, date)',
        {},
      ],
      ['  ', 'text/csv', 'file: the file is empty', {}],
    ];
    for (const [body, type, message, at] of cases) {
      const res = await upload(a, body, type);
      expect([body.slice(0, 40), res.status]).toEqual([body.slice(0, 40), 400]);
      if (message) expect(res.body.error).toBe(message);
      else expect(res.body.error).toMatch(/^file: not valid JSON/);
      expect(res.body).toMatchObject(at);
    }
    const multipart = await a.send('POST', '/api/economic-calendar/events', 'x', { 'content-type': 'multipart/form-data; boundary=x' });
    expect(multipart.status).toBe(415);
    expect(await importedRows(aId)).toEqual(before);
  });

  it("keeps B's file B's own: A's filter, list and counts do not move, and B's filter marks B's trade", async () => {
    const before = { status: await status(a), summary: await summary(a), near: await near(a, 15), listed: await listed(a, 'news=15') };
    const res = await upload(b, JSON.stringify(FILE_B));
    expect(res.body).toMatchObject({ read: 1, kept: 1, added: 1 });
    expect(await status(a)).toEqual(before.status);
    expect(await summary(a)).toEqual(before.summary);
    expect(await near(a, 15)).toBe(before.near);
    // A's trade 5 minutes after B's FOMC is still away from A's news.
    expect(await listed(a, 'news=15')).toEqual(before.listed);
    expect(await status(b)).toEqual({ feed: true, events: 2 });
    expect(await near(b, 15)).toBe(3_000);
    expect(await listed(b, 'news=15')).toEqual(['30.00']);
    // A cannot slip a row into B's events, nor read them.
    const forged = app.server.database
      .withUser(aId, (tx) =>
        tx.execute(sql`insert into imported_economic_events (user_id, title, country, at) values (${bId}, 'Forged', 'USD', now())`),
      )
      .then(
        () => 'written',
        (error: { cause?: { message?: string }; message: string }) => error.cause?.message ?? error.message,
      );
    expect(await forged).toMatch(/row-level security/);
    const seen = await app.server.database.withUser(aId, (tx) =>
      queryRows<{ n: number }>(tx, sql`select count(*)::int as n from imported_economic_events`),
    );
    expect(seen).toEqual([{ n: 3 }]);
  });

  it("a mentor's look at A's trades filters them by A's imported events, as A's own does", async () => {
    const mentor = await newTrader(app, 'news-mentor');
    const invited = await a.post('/api/mentor-grants', { email: uniqueEmail('news-m'), account_ids: [aAccount] });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await mentor.post('/api/mentor/accept', { token: new URL(invited.body.url).hash.slice(1) })).status).toBe(200);
    const res = await mentor.get(`/api/mentor/${aId}/reports/overview?news=15`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(overviewReport.parse(res.body).overview.netCents).toBe(await near(a, 15));
    const page = await mentor.get(`/api/mentor/${aId}/trades?news=15`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.total).toBe(1);
  });

  it("deletes only one's own imported events, and the feed's stay", async () => {
    const aBefore = await summary(a);
    expect(importedNewsDeleted.parse((await b.delete('/api/economic-calendar/events')).body)).toEqual({ deleted: 1 });
    expect(await summary(b)).toEqual({ count: 0, from: null, to: null });
    expect(await near(b, 15)).toBe(0);
    expect(await summary(a)).toEqual(aBefore);
    expect(await near(a, 15)).toBe(1_000);

    expect((await a.delete('/api/economic-calendar/events')).body).toEqual({ deleted: 3 });
    expect(await near(a, 15)).toBe(0);
    expect(await listed(a, 'news=15')).toEqual([]);
    // The feed's FOMC is everyone's still.
    expect(await status(a)).toEqual({ feed: true, events: 1 });
    expect((await a.delete('/api/economic-calendar/events')).body).toEqual({ deleted: 0 });
  });

  it('answers only signed-in traders', async () => {
    const anonymous = app.client();
    expect((await anonymous.get('/api/economic-calendar/events')).status).toBe(401);
    expect(
      (await anonymous.send('POST', '/api/economic-calendar/events', JSON.stringify(FILE_B), { 'content-type': 'application/json' })).status,
    ).toBe(401);
    expect((await anonymous.delete('/api/economic-calendar/events')).status).toBe(401);
  });
});

describe.each(backends())('imported economic calendar events without a feed on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('give the news filter its events on a server with no feed', async () => {
    const trader = await newTrader(app);
    const account = await createAccount(trader, 'Solo');
    await importTrades(trader, account.id, [
      { id: 's1', date: '2024-06-12', symbol: 'NQ', side: 'Long', period: 'AM', quantity: '1', pnl: '10.00', entry_time: '2024-06-12T12:40:00Z' },
    ]);
    expect((await trader.get('/api/economic-calendar/news')).body).toEqual({ feed: false, events: 0 });
    const res = await trader.send('POST', '/api/economic-calendar/events', JSON.stringify(FILE_A), { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    // Without a feed the FOMC of 2025 is new too.
    expect(await res.json()).toMatchObject({ kept: 2, added: 2 });
    expect((await trader.get('/api/economic-calendar/news')).body).toEqual({ feed: false, events: 2 });
    expect((await trader.get('/api/reports/overview?news=15')).body.basis.trades).toBe(1);
  });
});
