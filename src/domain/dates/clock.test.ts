import { describe, expect, it } from 'vitest';
import {
  formatInZone,
  fromWallClockText,
  getZoneAbbreviation,
  getZoneOffsetName,
  getHourInZone,
  getHourOfInstant,
  getTodayInZone,
  getTradingDayInZone,
  isValidTimeZone,
  offsetAt,
  toWallClockText,
  wallClockOf,
  wallClockToInstant,
} from './clock';
import { getDayFromTradeDate, resolveTradeDay, toTradeDateTimestamp } from './trade-date';

const NEW_YORK = 'America/New_York';

describe('trading days in the user time zone', () => {
  it('puts an evening New York fill on its New York day, not the UTC day', () => {
    // 21:30 EST on Friday 2026-01-09 is 02:30 UTC on Saturday.
    expect(getTradingDayInZone('2026-01-10T02:30:00Z', NEW_YORK)).toBe('2026-01-09');
    expect(getTradingDayInZone('2026-01-10T02:30:00Z', 'UTC')).toBe('2026-01-10');
  });

  it('handles the spring-forward Sunday 2026-03-08 in New York (UTC-5 before 07:00Z, UTC-4 after)', () => {
    expect(getTradingDayInZone('2026-03-08T04:59:00Z', NEW_YORK)).toBe('2026-03-07'); // 23:59 EST
    expect(getTradingDayInZone('2026-03-08T05:00:00Z', NEW_YORK)).toBe('2026-03-08'); // 00:00 EST
    expect(getHourInZone('2026-03-08T06:59:00Z', NEW_YORK)).toBe(1); // 01:59 EST
    expect(getHourInZone('2026-03-08T07:00:00Z', NEW_YORK)).toBe(3); // 03:00 EDT, 02:xx does not exist
    expect(getTradingDayInZone('2026-03-09T03:59:00Z', NEW_YORK)).toBe('2026-03-08'); // 23:59 EDT
    expect(getTradingDayInZone('2026-03-09T04:00:00Z', NEW_YORK)).toBe('2026-03-09');
  });

  it('handles the fall-back Sunday 2026-11-01 in New York (01:xx happens twice)', () => {
    expect(getTradingDayInZone('2026-11-01T03:59:00Z', NEW_YORK)).toBe('2026-10-31'); // 23:59 EDT
    expect(getTradingDayInZone('2026-11-01T04:00:00Z', NEW_YORK)).toBe('2026-11-01');
    expect(getHourInZone('2026-11-01T05:30:00Z', NEW_YORK)).toBe(1); // 01:30 EDT
    expect(getHourInZone('2026-11-01T06:30:00Z', NEW_YORK)).toBe(1); // 01:30 EST
    expect(getTradingDayInZone('2026-11-02T04:59:00Z', NEW_YORK)).toBe('2026-11-01'); // 23:59 EST
    expect(getTradingDayInZone('2026-11-02T05:00:00Z', NEW_YORK)).toBe('2026-11-02');
  });

  it('reads offsets written in the timestamp', () => {
    expect(getTradingDayInZone('2026-03-09T23:30:00-04:00', 'Asia/Tokyo')).toBe('2026-03-10');
    expect(getTradingDayInZone('2026-03-09 23:30:00+0000', NEW_YORK)).toBe('2026-03-09');
  });

  it('refuses timestamps without an offset rather than guess the machine zone', () => {
    expect(getTradingDayInZone('2026-03-09T10:00:00', NEW_YORK)).toBeNull();
    expect(getTradingDayInZone('not a date', NEW_YORK)).toBeNull();
  });

  it('gives today in the user zone from the passed clock', () => {
    const now = new Date('2026-03-10T03:00:00Z');
    expect(getTodayInZone(now, NEW_YORK)).toBe('2026-03-09');
    expect(getTodayInZone(now, 'Europe/Berlin')).toBe('2026-03-10');
  });

  it('stores trade_date at 12:00 UTC and reads the same day back in any zone', () => {
    expect(toTradeDateTimestamp('2026-03-09')).toBe('2026-03-09T12:00:00.000Z');
    expect(getDayFromTradeDate('2026-03-09T12:00:00.000Z')).toBe('2026-03-09');
    expect(resolveTradeDay('2026-03-09T12:00:00Z', 'Pacific/Kiritimati')).toBe('2026-03-09'); // UTC+14
    expect(resolveTradeDay('2026-03-09T12:00:00+00:00', 'Pacific/Pago_Pago')).toBe('2026-03-09'); // UTC-11
    expect(() => toTradeDateTimestamp('2026-02-30')).toThrow(RangeError);
  });

  it('resolves the day of days, markers, zoned timestamps and wall-clock timestamps', () => {
    expect(resolveTradeDay('2026-03-09', NEW_YORK)).toBe('2026-03-09');
    expect(resolveTradeDay('2026-03-10T01:00:00Z', NEW_YORK)).toBe('2026-03-09');
    expect(resolveTradeDay('2026-03-09 21:00:00', NEW_YORK)).toBe('2026-03-09');
    expect(resolveTradeDay(new Date('2026-03-10T01:00:00Z'), NEW_YORK)).toBe('2026-03-09');
    expect(resolveTradeDay('', NEW_YORK)).toBeNull();
    expect(resolveTradeDay(null, NEW_YORK)).toBeNull();
    expect(resolveTradeDay('2026-02-30', NEW_YORK)).toBeNull();
  });

  it('has no day for a timestamp of an impossible date or outside years 1-9999 (a 500 before)', () => {
    // Date.parse reads the first as March 2; the second and third became '00-1-12-31' and '0000-12-31'.
    expect(resolveTradeDay('2026-02-30T10:00:00Z', NEW_YORK)).toBeNull();
    expect(resolveTradeDay('0000-01-01T00:00:00Z', NEW_YORK)).toBeNull();
    expect(resolveTradeDay('0001-01-01T00:00:00Z', NEW_YORK)).toBeNull();
    expect(resolveTradeDay('+275760-09-13T00:00:00Z', NEW_YORK)).toBeNull();
    expect(resolveTradeDay('0001-01-02T00:00:00Z', NEW_YORK)).toBe('0001-01-01');
  });

  it('validates IANA zone names', () => {
    expect(isValidTimeZone(NEW_YORK)).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });

  it("formats one instant on the trader's clock, whatever the machine runs in (07:39 against 2:39 AM)", () => {
    const instant = '2026-01-15T07:39:00.000Z';
    expect(formatInZone(instant, NEW_YORK, 'HH:mm')).toBe('02:39');
    expect(formatInZone(new Date(instant), 'UTC', 'HH:mm')).toBe('07:39');
    expect(formatInZone(instant, 'Asia/Tokyo', 'EEE dd MMM HH:mm')).toBe('Thu 15 Jan 16:39');
    // Across midnight the day moves with the zone, not with the machine.
    expect(formatInZone('2026-01-15T03:00:00Z', NEW_YORK, 'EEE dd MMM')).toBe('Wed 14 Jan');
    expect(formatInZone('not a time', NEW_YORK, 'HH:mm')).toBeNull();
    // PPpp, as date-fns writes it in English, and 12-hour times.
    expect(formatInZone('2026-03-09T18:05:09Z', NEW_YORK, 'PPpp')).toBe('Mar 9, 2026, 2:05:09 PM');
    expect(formatInZone('2026-03-09T04:05:00Z', NEW_YORK, 'h:mm a')).toBe('12:05 AM');
    expect(formatInZone('2026-03-09T16:05:00Z', NEW_YORK, 'h:mm a')).toBe('12:05 PM');
  });

  it('names the zone beside a time as it was at that instant (EST in winter, EDT in summer)', () => {
    expect(getZoneAbbreviation('2026-01-15T15:00:00Z', NEW_YORK)).toBe('EST');
    expect(getZoneAbbreviation('2026-07-15T15:00:00Z', NEW_YORK)).toBe('EDT');
    expect(getZoneAbbreviation('2026-07-15T15:00:00Z', 'Asia/Tokyo')).toBe('GMT+9');
    expect(getZoneAbbreviation('', NEW_YORK)).toBeNull();
  });
});

describe("the trader's clock", () => {
  it('09:31 New York is 14:31 UTC in winter and 13:31 UTC in summer: hour 9 both times', () => {
    expect(getHourOfInstant(Date.parse('2026-03-06T14:31:00Z'), NEW_YORK)).toBe(9);
    expect(getHourOfInstant(Date.parse('2026-03-09T13:31:00Z'), NEW_YORK)).toBe(9);
  });

  it('the night clocks spring forward (Mar 8, 2026): 01:59 EST then 03:00 EDT, one UTC minute apart', () => {
    expect(getHourOfInstant(Date.parse('2026-03-08T06:59:00Z'), NEW_YORK)).toBe(1);
    expect(getHourOfInstant(Date.parse('2026-03-08T07:00:00Z'), NEW_YORK)).toBe(3);
  });

  it('a half-hour zone (India, UTC+5:30) and a quarter-hour one (Nepal, UTC+5:45)', () => {
    expect(getHourOfInstant(Date.parse('2026-03-06T03:29:00Z'), 'Asia/Kolkata')).toBe(8);
    expect(getHourOfInstant(Date.parse('2026-03-06T03:30:00Z'), 'Asia/Kolkata')).toBe(9);
    expect(getHourOfInstant(Date.parse('2026-03-06T03:15:00Z'), 'Asia/Kathmandu')).toBe(9);
  });
});

describe('one clock for every conversion', () => {
  it('names a June time EDT and a January time EST whatever today is, and epoch milliseconds name it alike', () => {
    expect(getZoneAbbreviation(Date.parse('2025-06-16T13:30:00Z'), NEW_YORK)).toBe('EDT');
    expect(getZoneAbbreviation(new Date('2026-01-16T14:30:00Z'), NEW_YORK)).toBe('EST');
    expect(getZoneAbbreviation(Date.parse('2025-06-16T13:30:00Z'), 'America/Chicago')).toBe('CDT');
  });

  it('names the offset of a zone at an instant as a list of zones shows it, as Intl does', () => {
    const january = Date.parse('2026-01-15T12:00:00Z');
    const july = Date.parse('2026-07-15T12:00:00Z');
    expect([getZoneOffsetName(january, NEW_YORK), getZoneOffsetName(july, NEW_YORK)]).toEqual(['GMT-05:00', 'GMT-04:00']);
    expect([getZoneOffsetName(january, 'UTC'), getZoneOffsetName(january, 'Asia/Kathmandu')]).toEqual(['GMT+00:00', 'GMT+05:45']);
    for (const zone of ['Europe/London', 'Australia/Adelaide', 'America/St_Johns', 'Pacific/Chatham', 'Asia/Kolkata']) {
      for (const at of [january, july]) {
        const intl = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
          .formatToParts(at)
          .find((p) => p.type === 'timeZoneName')?.value;
        expect(getZoneOffsetName(at, zone)).toBe(intl);
      }
    }
    expect(getZoneOffsetName('', NEW_YORK)).toBeNull();
  });

  it('keeps each offset exact on the day the clocks change, to the quarter hour (spring forward and fall back)', () => {
    // 2026-03-08 07:00Z: New York goes from UTC-5 to UTC-4; 2026-11-01 06:00Z back to UTC-5.
    expect(offsetAt(Date.parse('2026-03-08T06:59:59Z'), NEW_YORK)).toBe(-5 * 3_600_000);
    expect(offsetAt(Date.parse('2026-03-08T07:00:00Z'), NEW_YORK)).toBe(-4 * 3_600_000);
    expect(offsetAt(Date.parse('2026-11-01T05:59:59Z'), NEW_YORK)).toBe(-4 * 3_600_000);
    expect(offsetAt(Date.parse('2026-11-01T06:00:00Z'), NEW_YORK)).toBe(-5 * 3_600_000);
    // Lord Howe Island moves by half an hour, at 15:00Z: a day's last quarter differs from its first.
    expect(offsetAt(Date.parse('2026-04-04T14:59:00Z'), 'Australia/Lord_Howe')).toBe(11 * 3_600_000);
    expect(offsetAt(Date.parse('2026-04-04T15:00:00Z'), 'Australia/Lord_Howe')).toBe(10.5 * 3_600_000);
  });

  it('agrees with Intl on every quarter hour of two years in zones with daylight saving, half and quarter hours', () => {
    for (const zone of [NEW_YORK, 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Sao_Paulo']) {
      const names = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
      for (let at = Date.parse('2025-01-01T00:07:00Z'); at < Date.parse('2027-01-01T00:00:00Z'); at += 6 * 3_600_000 + 15 * 60_000) {
        const p = Object.fromEntries(names.formatToParts(at).map((part) => [part.type, part.value]));
        const w = wallClockOf(at, zone);
        expect(`${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}`).toBe(
          `${Number(p.year)}-${Number(p.month)}-${Number(p.day)} ${Number(p.hour)}:${Number(p.minute)}`,
        );
      }
    }
  });

  it('reads a typed wall clock back to the instant it shows, and refuses what is not a time', () => {
    const instant = Date.parse('2025-06-16T13:30:05Z');
    expect(toWallClockText(instant, NEW_YORK)).toBe('2025-06-16 09:30:05');
    expect(fromWallClockText('2025-06-16 09:30:05', NEW_YORK)).toBe(instant);
    expect(fromWallClockText('2025-06-16T9:30', NEW_YORK)).toBe(Date.parse('2025-06-16T13:30:00Z'));
    expect(fromWallClockText('2025-02-30 09:30', NEW_YORK)).toBeNull();
    expect(fromWallClockText('09:30', NEW_YORK)).toBeNull();
    // The hour the clocks skip moves forward by the change; the hour that repeats is its first (daylight) pass.
    expect(wallClockToInstant(Date.UTC(2026, 2, 8, 2, 30), NEW_YORK)).toBe(Date.parse('2026-03-08T07:30:00Z'));
    expect(wallClockToInstant(Date.UTC(2026, 10, 1, 1, 30), NEW_YORK)).toBe(Date.parse('2026-11-01T05:30:00Z'));
  });
});
