import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from './index';
import { expectPreview, viewTrade } from './testing';

const own = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const real = (path: string) => readFileSync(new URL(`../../../../shared/fixtures/brokers/${path}`, import.meta.url), 'utf8');

/**
 * A file in London time imported as New York was once accepted with every trade five hours late. CME Globex does not
 * fill from Friday 17:00 to Sunday 18:00 or in the daily 17:00-18:00 halt (New York time): fills there mean the zone is
 * wrong, and the preview says so and proposes the zones that fit.
 */
describe('a Tradovate Performance file written in London time (fixtures/tradovate-performance-london.csv)', () => {
  const file = own('tradovate-performance-london.csv');

  it('read as New York: 4 fills in the daily halt, a warning that proposes Europe/London first', () => {
    const preview = expectPreview(parseImport(file, { timeZone: 'America/New_York' }));
    expect(preview.timeZoneCheck).toMatchObject({
      chosen: { zone: 'America/New_York', closed: 4, dayMismatches: 0 },
      checked: 12,
      suggested: { zone: 'Europe/London', closed: 0, cashSession: 12 },
    });
    // Berlin and Athens each keep 8 of the 12 fills in the cash session; Athens puts two of them in its first hour.
    expect(preview.timeZoneCheck!.alternatives.map((f) => [f.zone, f.cashSession, f.openingHour])).toEqual([
      ['UTC', 10, 0],
      ['Europe/Athens', 8, 2],
    ]);
    expect(preview.issues).toEqual([
      {
        row: 0,
        severity: 'warning',
        message:
          'Read as America/New_York time, 4 of 12 fills fall while the exchange is closed (weekends, 17:00-18:00 New York). ' +
          'The times fit Europe/London, UTC or Europe/Athens: choose the zone the file was exported in.',
      },
    ]);
    // Still a preview: the trader decides. Every trade is five hours late (14:35 read as 14:35 EDT = 18:35Z).
    expect(preview.trades[0]!.entryTime).toBe('2025-07-15T18:35:10.000Z');
  });

  it('read as London: no warning, and the first trade is 09:35 New York, in the AM session', () => {
    const preview = expectPreview(parseImport(file, { timeZone: 'Europe/London' }));
    expect(preview.timeZoneCheck).toBeNull();
    expect(preview.issues).toEqual([]);
    expect(viewTrade(preview.trades[0]!)).toMatchObject({
      entryTime: '2025-07-15T13:35:10.000Z',
      exitTime: '2025-07-15T13:41:00.000Z',
      grossPnl: 2500,
    });
    expect(preview.trades.map((t) => t.session)).toEqual(['AM', 'AM', 'Lunch', 'Lunch', 'PM', 'PM']);
  });

  it("the trader's own zone is proposed first when it fits", () => {
    const preview = expectPreview(parseImport(file, { timeZone: 'America/New_York', preferredTimeZones: ['Europe/Lisbon'] }));
    expect(preview.timeZoneCheck!.suggested!.zone).toBe('Europe/Lisbon');
  });

  it('times with their own offset do not depend on the chosen zone, so they are not checked', () => {
    const topstep = real('topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv');
    expect(expectPreview(parseImport(topstep, { timeZone: 'Asia/Tokyo' })).timeZoneCheck).toBeNull();
  });

  it('a Position History whose Trade Date disagrees with its times is caught too', () => {
    // The wealth.-Investing export read as Pacific time (three hours late): the NQ position of 13 April, closed at
    // 15:46, would close at 18:46 New York time, in the session of 14 April, while Tradovate filed it under the 13th.
    const history = real('tradovate-position-history/pxdrx-wealth-investing__Position History (1).csv');
    const fine = expectPreview(parseImport(history, { timeZone: 'America/New_York' }));
    expect(fine.timeZoneCheck).toBeNull();
    const wrong = expectPreview(parseImport(history, { timeZone: 'America/Los_Angeles' }));
    expect(wrong.timeZoneCheck!.chosen).toMatchObject({ closed: 1, dayMismatches: 1 });
    expect(wrong.timeZoneCheck!.suggested!.zone).toBe('America/New_York');
    expect(wrong.timeZoneCheck!.message).toMatch(/trading days differ from the file's own dates/);
  });
});

describe('real exports whose clock is not New York', () => {
  it('aiTradeReports: 30 of 89 fills would be in the 17:00 halt as New York times; zones one or two hours east of UTC fit', () => {
    const preview = expectPreview(
      parseImport(real('tradovate-performance/arielsofer-aitradereports__Performance (1).csv'), { timeZone: 'America/New_York' }),
    );
    expect(preview.timeZoneCheck!.chosen.closed).toBe(30);
    expect([preview.timeZoneCheck!.suggested!.zone, ...preview.timeZoneCheck!.alternatives.map((f) => f.zone)]).toContain('Europe/Athens');
  });

  it('aiTradeReports and tradetally (trades from 15:30 Central European time, the New York open): Europe/Berlin first', () => {
    // December: 15:32 in Berlin (UTC+1) is 09:32 in New York; London and UTC would put the same fills at 10:32.
    const winter = expectPreview(
      parseImport(real('tradovate-performance/arielsofer-aitradereports__Performance (1).csv'), { timeZone: 'America/New_York' }),
    );
    expect(winter.timeZoneCheck!.suggested).toMatchObject({ zone: 'Europe/Berlin', closed: 0, dayMismatches: 0, cashSession: 78 });
    // April: 15:30 CEST is 09:30 EDT. All three zones keep the ten fills in the session; only Berlin puts them at the open.
    const april = expectPreview(
      parseImport(real('tradovate-position-history/tradetally__tradovate-paired-trades-sample.csv'), { timeZone: 'America/New_York' }),
    );
    expect(april.timeZoneCheck!.chosen).toMatchObject({ closed: 2, cashSession: 8 });
    // Eight fills between 15:30 and 15:41 (09:30-09:41 New York) and the last two at 17:14 (11:14).
    expect(april.timeZoneCheck!.suggested).toMatchObject({ zone: 'Europe/Berlin', cashSession: 10, openingHour: 8 });
    expect(april.timeZoneCheck!.alternatives).toEqual([
      expect.objectContaining({ zone: 'UTC', cashSession: 10, openingHour: 0 }),
      expect.objectContaining({ zone: 'Europe/London', cashSession: 10, openingHour: 0 }),
    ]);
    expect(april.timeZoneCheck!.message).toBe(
      'Read as America/New_York time, 2 of 10 fills fall while the exchange is closed (weekends, 17:00-18:00 New York). ' +
        'The times fit Europe/Berlin, UTC or Europe/London: choose the zone the file was exported in.',
    );
  });

  it('stephenkgli (a UTC+8 clock per its provenance): UTC+8 is proposed first, not UTC+5:30, whose fills would all miss the open', () => {
    const text = real('tradovate-performance/stephenkgli-trading-records__Performance.csv');
    const check = expectPreview(parseImport(text, { timeZone: 'America/New_York' })).timeZoneCheck!;
    expect(check.chosen).toMatchObject({ closed: 101, cashSession: 0 });
    expect(check.suggested).toMatchObject({ zone: 'Asia/Singapore', closed: 0, dayMismatches: 0, cashSession: 439 });
    expect(check.alternatives[0]).toMatchObject({ zone: 'Asia/Kolkata', cashSession: 439 });
    expect(check.suggested!.openingHour).toBeGreaterThan(check.alternatives[0]!.openingHour);
    expect(check.alternatives[0]!.openingHour).toBe(0);
  });

  it('stephenkgli (a UTC+8 clock per its provenance): read as Shanghai time it fits', () => {
    const text = real('tradovate-performance/stephenkgli-trading-records__Performance.csv');
    expect(expectPreview(parseImport(text, { timeZone: 'Asia/Shanghai' })).timeZoneCheck).toBeNull();
    const asNewYork = expectPreview(parseImport(text, { timeZone: 'America/New_York', preferredTimeZones: ['Asia/Shanghai'] }));
    expect(asNewYork.timeZoneCheck!.suggested!.zone).toBe('Asia/Shanghai');
  });
});
