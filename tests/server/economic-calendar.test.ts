import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ECONOMIC_CALENDAR_ERROR } from '../../src/contract/economic-calendar';
import { createEconomicCalendar, FEED_FRESH_MS, FEED_RETRY_MS } from '../../src/server/features/economic-calendar/service';
import { parseCalendarFile, parseFeed, toImpact } from '../../src/server/features/economic-calendar/feed';
import { SAMPLE_FEED, startCalendarFeedServer, type CalendarFeedServer } from '../support/calendar-feed-server';

/** The calendar's cache over time, with a clock the test moves, against a stand-in feed on a real port. */
describe('economic calendar cache', () => {
  let feed: CalendarFeedServer;
  let clock: number;
  const warnings: unknown[] = [];
  const calendar = (timeoutMs = 2_000) =>
    createEconomicCalendar({ url: feed.url, logger: { warn: (...args: unknown[]) => void warnings.push(args) }, timeoutMs, now: () => clock });

  beforeAll(async () => {
    feed = await startCalendarFeedServer(SAMPLE_FEED);
  });
  afterAll(() => feed?.close());
  beforeEach(() => {
    clock = Date.parse('2026-12-07T12:00:00Z');
    feed.requests = 0;
    feed.status = 200;
    feed.delayMs = 0;
    feed.body = JSON.stringify(SAMPLE_FEED);
    warnings.length = 0;
  });

  it('reads the feed again once the week read is older than the freshness window', async () => {
    const week = calendar();
    const first = await week.week();
    clock += FEED_FRESH_MS - 1;
    expect(await week.week()).toEqual(first);
    expect(feed.requests).toBe(1);

    feed.body = JSON.stringify(SAMPLE_FEED.slice(0, 2));
    clock += 1;
    const second = await week.week();
    expect(feed.requests).toBe(2);
    expect(second.source === 'feed' && second.events).toHaveLength(2);
    expect(second.source === 'feed' && second.fetched_at).toBe(new Date(clock).toISOString());
  });

  it('serves the last good week marked stale while the feed fails, and fresh again once it answers', async () => {
    const week = calendar();
    const good = await week.week();
    if (good.source !== 'feed') throw new Error('expected the feed');

    feed.status = 503;
    clock += FEED_FRESH_MS;
    const stale = await week.week();
    expect(stale).toEqual({ ...good, stale: true });
    expect(feed.requests).toBe(2);
    expect(warnings).toHaveLength(1);

    // Within the pause after a failure the feed is left alone.
    clock += FEED_RETRY_MS - 1;
    expect(await week.week()).toMatchObject({ source: 'feed', stale: true });
    expect(feed.requests).toBe(2);

    feed.status = 200;
    clock += 1;
    expect(await week.week()).toMatchObject({ stale: false, fetched_at: new Date(clock).toISOString() });
    expect(feed.requests).toBe(3);
  });

  it('gives up on a feed that hangs, with the error words when nothing was read before', async () => {
    feed.delayMs = 1_000;
    const started = Date.now();
    await expect(calendar(150).week()).rejects.toMatchObject({ status: 502, message: ECONOMIC_CALENDAR_ERROR });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('reads impacts as the feeds write them, and anything else as none', () => {
    expect(['High', 'medium', ' LOW ', 'Holiday', 'Non-Economic', '', null].map(toImpact)).toEqual([
      'high',
      'medium',
      'low',
      'holiday',
      'none',
      'none',
      'none',
    ]);
  });

  it('leaves out of a feed what no column holds or no calendar has (a NUL, February 30), where a file is refused whole', () => {
    const good = { title: 'CPI m/m', country: 'USD', date: '2026-12-09T08:30:00-05:00', impact: 'High' };
    const body = JSON.stringify([good, { ...good, title: 'CPI\u0000' }, { ...good, date: '2026-02-30T08:30:00-05:00' }]);
    const feed = parseFeed(body);
    expect(feed).toMatchObject({ ok: true, skipped: 2 });
    expect(feed.ok && feed.events.map((e) => e.at)).toEqual(['2026-12-09T13:30:00.000Z']);
    expect(parseCalendarFile(body)).toEqual({
      ok: false,
      message: 'Item 2: title: must not contain NUL characters',
      at: { item: 2 },
      field: 'title',
    });
    // The same event from the JSON and from a CSV is the same event (its id too).
    const csv = parseCalendarFile('title,country,date,impact\nCPI m/m,usd,2026-12-09T08:30:00-05:00,High\n');
    const json = parseCalendarFile(JSON.stringify([good]));
    expect(csv.ok && json.ok && csv.events).toEqual(json.ok && json.events);
  });
});
