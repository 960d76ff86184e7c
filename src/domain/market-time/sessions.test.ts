import { describe, expect, it } from 'vitest';
import { marketDayOf } from './trading-day';
import { deriveExchangeSession, deriveSessionAt, deriveSessionFromHour } from './sessions';

describe('session from hour: before 12 AM, 12-14 Lunch, 14-20 PM, otherwise Overnight', () => {
  it('puts each boundary hour in the later session', () => {
    expect(deriveSessionFromHour(0)).toBe('AM');
    expect(deriveSessionFromHour(11)).toBe('AM');
    expect(deriveSessionFromHour(12)).toBe('Lunch');
    expect(deriveSessionFromHour(13)).toBe('Lunch');
    expect(deriveSessionFromHour(14)).toBe('PM');
    expect(deriveSessionFromHour(19)).toBe('PM');
    expect(deriveSessionFromHour(20)).toBe('Overnight');
    expect(deriveSessionFromHour(23)).toBe('Overnight');
    expect([0, 9, 11, 12, 13, 14, 19, 20, 23].map(deriveSessionFromHour)).toEqual([
      'AM',
      'AM',
      'AM',
      'Lunch',
      'Lunch',
      'PM',
      'PM',
      'Overnight',
      'Overnight',
    ]);
  });

  it('reads the hour in the user zone: a 09:35 New York open is AM in winter and summer', () => {
    expect(deriveSessionAt('2026-01-12T14:35:00Z', 'America/New_York')).toBe('AM'); // EST
    expect(deriveSessionAt('2026-07-13T13:35:00Z', 'America/New_York')).toBe('AM'); // EDT
    expect(deriveSessionAt('2026-07-13T13:35:00Z', 'UTC')).toBe('Lunch');
    expect(deriveSessionAt('garbage', 'UTC')).toBeNull();
  });
});

describe("the exchange's sessions of imported futures (New York time)", () => {
  it('Overnight 18:00-09:30, AM 09:30-12:00, Lunch 12:00-14:00, PM 14:00-16:00, After Hours 16:00-18:00; each boundary starts the later one', () => {
    const at = (time: string) => deriveExchangeSession(Number(time.slice(0, 2)), Number(time.slice(3, 5)));
    expect(['00:00', '02:15', '04:31', '09:29'].map(at)).toEqual(['Overnight', 'Overnight', 'Overnight', 'Overnight']);
    expect(['09:30', '11:59'].map(at)).toEqual(['AM', 'AM']);
    expect(['12:00', '13:59'].map(at)).toEqual(['Lunch', 'Lunch']);
    expect(['14:00', '15:59'].map(at)).toEqual(['PM', 'PM']);
    expect(['16:00', '17:59'].map(at)).toEqual(['After Hours', 'After Hours']);
    expect(['18:00', '20:00', '23:59'].map(at)).toEqual(['Overnight', 'Overnight', 'Overnight']);
  });

  it('imports label futures by it and other instruments by the spec rule, from the market clock in winter and summer', () => {
    // 02:15 EST and 16:30 EDT
    expect(marketDayOf(Date.parse('2026-01-12T07:15:00Z'), { futures: true }).session).toBe('Overnight');
    expect(marketDayOf(Date.parse('2026-07-13T20:30:00Z'), { futures: true }).session).toBe('After Hours');
    // 09:29 and 09:30 EDT: the half hour decides, and one cached hour must not give both the same session.
    expect(marketDayOf(Date.parse('2026-07-13T13:29:00Z'), { futures: true }).session).toBe('Overnight');
    expect(marketDayOf(Date.parse('2026-07-13T13:30:00Z'), { futures: true }).session).toBe('AM');
    expect(marketDayOf(Date.parse('2026-01-12T07:15:00Z'), { futures: false }).session).toBe('AM');
    expect(marketDayOf(Date.parse('2026-07-13T20:30:00Z'), { futures: false }).session).toBe('PM');
  });
});
