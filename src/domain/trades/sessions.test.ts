import { describe, expect, it } from 'vitest';
import { deriveSessionAt, deriveSessionFromHour } from './sessions';

describe('session from hour (spec part 1 §9)', () => {
  it('puts each boundary hour in the later session', () => {
    expect(deriveSessionFromHour(0)).toBe('AM');
    expect(deriveSessionFromHour(11)).toBe('AM');
    expect(deriveSessionFromHour(12)).toBe('Lunch');
    expect(deriveSessionFromHour(13)).toBe('Lunch');
    expect(deriveSessionFromHour(14)).toBe('PM');
    expect(deriveSessionFromHour(19)).toBe('PM');
    expect(deriveSessionFromHour(20)).toBe('Overnight');
    expect(deriveSessionFromHour(23)).toBe('Overnight');
  });

  it('reads the hour in the user zone: a 09:35 New York open is AM in winter and summer', () => {
    expect(deriveSessionAt('2026-01-12T14:35:00Z', 'America/New_York')).toBe('AM'); // EST
    expect(deriveSessionAt('2026-07-13T13:35:00Z', 'America/New_York')).toBe('AM'); // EDT
    expect(deriveSessionAt('2026-07-13T13:35:00Z', 'UTC')).toBe('Lunch');
    expect(deriveSessionAt('garbage', 'UTC')).toBeNull();
  });
});
