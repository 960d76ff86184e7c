import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECONOMIC_CALENDAR_ERROR, economicCalendarResponse } from '../../src/contract/economic-calendar';
import { ConfigError, loadConfig } from '../../src/server/config';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { SAMPLE_FEED, startCalendarFeedServer, type CalendarFeedServer } from '../support/calendar-feed-server';
import { newTrader } from './trades-support';

/**
 * The dashboard's economic calendar over HTTP, read from a stand-in feed on a real port: the week's events, one read of
 * the feed for many requests, the calendar's error words (never a 500) when the feed fails, and the sample week when
 * no feed is configured.
 */

const MALFORMED = [
  { title: 'No offset', country: 'USD', date: '2026-12-09T08:30:00', impact: 'High' },
  { title: '', country: 'USD', date: '2026-12-09T08:30:00-05:00', impact: 'High' },
  { country: 'USD', date: '2026-12-09T08:30:00-05:00' },
  'not an event',
  null,
];

describe('ECONOMIC_CALENDAR_URL', () => {
  it('is optional, empty means unset, and only http(s) addresses are taken', () => {
    expect(loadConfig({}).ECONOMIC_CALENDAR_URL).toBeUndefined();
    expect(loadConfig({ ECONOMIC_CALENDAR_URL: '' }).ECONOMIC_CALENDAR_URL).toBeUndefined();
    expect(loadConfig({ ECONOMIC_CALENDAR_URL: 'https://example.com/week.json' }).ECONOMIC_CALENDAR_URL).toBe('https://example.com/week.json');
    expect(() => loadConfig({ ECONOMIC_CALENDAR_URL: 'ftp://example.com/week.json' })).toThrow(ConfigError);
    expect(() => loadConfig({ ECONOMIC_CALENDAR_URL: 'not a url' })).toThrow(/ECONOMIC_CALENDAR_URL/);
  });
});

describe.each(backends())('economic calendar on %s', (backend) => {
  const get = async (client: ApiClient) => client.get('/api/economic-calendar');

  describe('without a feed', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ backend });
    });
    afterAll(() => app?.close());

    it('answers the sample, for signed-in traders only', async () => {
      expect((await get(app.client())).status).toBe(401);
      const trader = await newTrader(app);
      const res = await get(trader);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ source: 'sample' });
    });
  });

  describe('with a feed', () => {
    let app: TestApp;
    let feed: CalendarFeedServer;
    beforeAll(async () => {
      feed = await startCalendarFeedServer([...SAMPLE_FEED, ...MALFORMED]);
      app = await startTestApp({ backend, env: { ECONOMIC_CALENDAR_URL: feed.url } });
    });
    afterAll(async () => {
      await app?.close();
      await feed?.close();
    });

    it("serves the feed's week in time order, leaving out what it cannot read, and reads the feed once for many requests", async () => {
      const trader = await newTrader(app);
      const other = await newTrader(app, 'other');
      const [first, ...rest] = await Promise.all([get(trader), get(trader), get(other)]);
      expect(first!.status).toBe(200);
      const body = economicCalendarResponse.parse(first!.body);
      if (body.source !== 'feed') throw new Error('expected the feed');
      expect(body.stale).toBe(false);
      expect(body.events.map((e) => [e.title, e.country, e.at, e.impact, e.forecast, e.previous])).toEqual([
        ['Bank Holiday', 'JPY', '2026-12-07T05:00:00.000Z', 'holiday', '', ''],
        ['German ZEW Economic Sentiment', 'EUR', '2026-12-08T10:00:00.000Z', 'medium', '10.2', '9.8'],
        ['CPI m/m', 'USD', '2026-12-09T13:30:00.000Z', 'high', '0.3%', '0.2%'],
        ['Crude Oil Inventories', 'USD', '2026-12-09T15:30:00.000Z', 'low', '-1.1M', '2.3M'],
        ['FOMC Member Speaks', 'USD', '2026-12-10T18:00:00.000Z', 'none', '', ''],
      ]);
      expect(new Set(body.events.map((e) => e.id)).size).toBe(5);
      for (const res of rest) expect(res.body).toEqual(first!.body);

      expect((await get(trader)).body).toEqual(first!.body);
      expect(feed.requests).toBe(1);
    });
  });

  describe.each([
    ['answers 500', (feed: CalendarFeedServer) => void (feed.status = 500)],
    ['answers something that is not JSON', (feed: CalendarFeedServer) => void (feed.body = '<html>Just a moment...</html>')],
    ['answers JSON that is not a list', (feed: CalendarFeedServer) => void (feed.body = JSON.stringify({ events: SAMPLE_FEED }))],
    ['answers a list of which nothing reads', (feed: CalendarFeedServer) => void (feed.body = JSON.stringify(MALFORMED))],
  ])('when the feed %s', (_name, breakFeed) => {
    let app: TestApp;
    let feed: CalendarFeedServer;
    beforeAll(async () => {
      feed = await startCalendarFeedServer(SAMPLE_FEED);
      breakFeed(feed);
      app = await startTestApp({ backend, env: { ECONOMIC_CALENDAR_URL: feed.url } });
    });
    afterAll(async () => {
      await app?.close();
      await feed?.close();
    });

    it("gives the calendar's error words, not a server error, and does not ask the feed again at once", async () => {
      const trader = await newTrader(app);
      const res = await get(trader);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ error: ECONOMIC_CALENDAR_ERROR, code: 'economic-calendar-unavailable' });
      expect(feed.requests).toBe(1);
      expect((await get(trader)).status).toBe(502);
      expect(feed.requests).toBe(1);
    });
  });
});
