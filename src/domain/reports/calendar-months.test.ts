import { describe, expect, it } from 'vitest';
import { getMonthsInRange } from './calendar';

describe("the calendar's months in the filter's range", () => {
  it('keeps the months the range touches, a partial month included, and every month of an open range', () => {
    expect(getMonthsInRange(2026, { from: '2026-03-10', to: '2026-05-02' })).toEqual([3, 4, 5]);
    // A range across the new year: only its part in the year shown.
    expect(getMonthsInRange(2026, { from: '2025-11-15', to: '2026-01-31' })).toEqual([1]);
    expect(getMonthsInRange(2025, { from: '2025-11-15', to: '2026-01-31' })).toEqual([11, 12]);
    expect(getMonthsInRange(2026, { from: '2026-02-28', to: null })).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(getMonthsInRange(2026, { from: null, to: null })).toHaveLength(12);
    // A range outside the year has none of its months.
    expect(getMonthsInRange(2024, { from: '2026-01-01', to: '2026-12-31' })).toEqual([]);
  });
});
