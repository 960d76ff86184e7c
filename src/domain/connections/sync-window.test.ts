import { describe, expect, it } from 'vitest';
import { fetchWindows, syncStartOf } from './sync-window';

describe('where a first sync starts', () => {
  it("by the exchange's day: CME's session opens at 18:00 New York the evening before, Monday's on Friday", () => {
    // Wednesday 2025-05-07 begins Tuesday 18:00 EDT (22:00 UTC).
    expect(syncStartOf('2025-05-07', 'exchange').toISOString()).toBe('2025-05-06T22:00:00.000Z');
    // Monday 2025-05-05 begins on Friday 2025-05-02 at 18:00 EDT.
    expect(syncStartOf('2025-05-05', 'exchange').toISOString()).toBe('2025-05-02T22:00:00.000Z');
    // In winter New York is UTC-5.
    expect(syncStartOf('2025-01-08', 'exchange').toISOString()).toBe('2025-01-07T23:00:00.000Z');
  });

  it('by the calendar: midnight New York', () => {
    expect(syncStartOf('2025-05-07', 'calendar').toISOString()).toBe('2025-05-07T04:00:00.000Z');
    expect(syncStartOf('2025-01-08', 'calendar').toISOString()).toBe('2025-01-08T05:00:00.000Z');
  });

  it('cuts a long period into windows of a week, the last one short, with no gap or overlap', () => {
    const from = new Date('2025-04-01T00:00:00Z');
    const to = new Date('2025-04-20T12:00:00Z');
    const windows = fetchWindows(from, to);
    expect(windows.map((w) => [w.from.toISOString().slice(0, 13), w.to.toISOString().slice(0, 13)])).toEqual([
      ['2025-04-01T00', '2025-04-08T00'],
      ['2025-04-08T00', '2025-04-15T00'],
      ['2025-04-15T00', '2025-04-20T12'],
    ]);
    expect(fetchWindows(to, to)).toEqual([]);
  });
});
