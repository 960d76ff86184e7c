import { describe, expect, it } from 'vitest';
import { getReflectionPeriodLabel, getReflectionPeriodRange, stepReflectionOffset } from './period';

// The Reflect page's periods: offsets and labels; weeks start on Monday.
describe('reflection periods', () => {
  it('labels each offset as the spec words it', () => {
    expect([0, 1, 2, 7].map((o) => getReflectionPeriodLabel('day', o))).toEqual(['Today', 'Yesterday', '2 days ago', '7 days ago']);
    expect([0, 1, 3].map((o) => getReflectionPeriodLabel('week', o))).toEqual(['This Week', 'Last Week', '3 weeks ago']);
    expect([0, 1, 12].map((o) => getReflectionPeriodLabel('month', o))).toEqual(['This Month', 'Last Month', '12 months ago']);
  });

  it('walks back with previous, forward with next, and never below offset 0', () => {
    expect(stepReflectionOffset(0, 'previous')).toBe(1);
    expect(stepReflectionOffset(3, 'next')).toBe(2);
    expect(stepReflectionOffset(0, 'next')).toBe(0);
    expect(stepReflectionOffset(-4, 'next')).toBe(0);
  });

  it('gives one day per day offset', () => {
    expect(getReflectionPeriodRange('day', 0, '2026-03-02')).toEqual({ from: '2026-03-02', to: '2026-03-02' });
    // Across a month end and a leap day.
    expect(getReflectionPeriodRange('day', 2, '2024-03-01')).toEqual({ from: '2024-02-28', to: '2024-02-28' });
  });

  it('starts weeks on Monday, so a Sunday belongs to the week that began six days before', () => {
    // 2026-11-22 is a Sunday.
    expect(getReflectionPeriodRange('week', 0, '2026-11-22')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    // 2026-11-23 is a Monday: a new week.
    expect(getReflectionPeriodRange('week', 0, '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(getReflectionPeriodRange('week', 1, '2026-11-23')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    // Across a year end.
    expect(getReflectionPeriodRange('week', 0, '2027-01-01')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });

  it('gives whole calendar months, whatever the day of month today', () => {
    expect(getReflectionPeriodRange('month', 0, '2026-03-31')).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    // One month back from the 31st is all of February, not a clamped day.
    expect(getReflectionPeriodRange('month', 1, '2026-03-31')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(getReflectionPeriodRange('month', 1, '2024-03-15')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(getReflectionPeriodRange('month', 13, '2026-01-10')).toEqual({ from: '2024-12-01', to: '2024-12-31' });
  });
});
