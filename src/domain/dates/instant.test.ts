import { describe, expect, it } from 'vitest';
import { isInstant, parseInstant } from './instant';

describe('parseInstant: instants a client may send, read as PostgreSQL would store them', () => {
  it('reads ISO 8601 and PostgreSQL text with their zones', () => {
    expect(parseInstant('2026-03-09T14:35:00Z')).toBe(Date.UTC(2026, 2, 9, 14, 35));
    expect(parseInstant('2026-03-09T14:35:00.123-04:00')).toBe(Date.UTC(2026, 2, 9, 18, 35, 0, 123));
    expect(parseInstant('2026-03-09 14:35:00.123456+00')).toBe(Date.UTC(2026, 2, 9, 14, 35, 0, 123));
    expect(parseInstant('2026-03-09T14:35+0530')).toBe(Date.UTC(2026, 2, 9, 9, 5));
    expect(parseInstant('0001-01-01T00:00:00Z')).toBe(new Date('0001-01-01T00:00:00Z').getTime());
    expect(parseInstant('9999-12-31T23:59:59.999Z')).toBe(new Date('9999-12-31T23:59:59.999Z').getTime());
  });

  it('refuses what Date.parse takes and PostgreSQL does not (forged cursors)', () => {
    for (const text of ['1', '2026', '2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z']) {
      expect(parseInstant(text), text).toBeNull();
    }
  });

  it('refuses impossible times, offsets and instants that leave years 1-9999 in UTC', () => {
    for (const text of [
      '2026-03-09T24:00:00Z',
      '2026-03-09T12:60:00Z',
      '2026-03-09T12:00:60Z',
      '2026-03-09T12:00:00+99:00',
      '2026-03-09T12:00:00+16:00',
      '2026-03-09T12:00:00+01:60',
      '2026-03-09T12:00:00',
      '2026-03-09',
      '0001-01-01T00:00:00+01:00',
      '9999-12-31T23:00:00-02:00',
    ]) {
      expect(parseInstant(text), text).toBeNull();
    }
    expect(parseInstant(20260309)).toBeNull();
    expect(isInstant(null)).toBe(false);
  });
});
