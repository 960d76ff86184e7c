import { describe, expect, it } from 'vitest';
import { calculateWinRate, filterByDayRange, formatWinRate, getWinRateBand, getWinRatePeriodRange } from './win-rate';

const NEW_YORK = 'America/New_York';

describe('win rate', () => {
  it('6 wins and 4 losses is 60.0', () => {
    expect(calculateWinRate({ wins: 6, losses: 4 })).toBe(60);
  });

  it('2 of 3 rounds to 66.7 and 1 of 8 is exactly 12.5', () => {
    expect(calculateWinRate({ wins: 2, losses: 1 })).toBe(66.7);
    expect(calculateWinRate({ wins: 1, losses: 7 })).toBe(12.5);
    expect(calculateWinRate({ wins: 1, losses: 2 })).toBe(33.3);
  });

  it('excludes BE: 3 wins, 1 loss and 5 scratches is 75.0', () => {
    expect(calculateWinRate({ wins: 3, losses: 1, breakEvens: 5 } as { wins: number; losses: number })).toBe(75);
  });

  it('is 0 with no wins and no losses', () => {
    expect(calculateWinRate({ wins: 0, losses: 0 })).toBe(0);
  });

  it("is written one way everywhere, with the spec's one decimal: 39.0%, 66.7%, 100.0%; '—' with nothing won or lost", () => {
    expect(formatWinRate(calculateWinRate({ wins: 39, losses: 61 }), 100)).toBe('39.0%');
    expect(formatWinRate(calculateWinRate({ wins: 2, losses: 1 }), 3)).toBe('66.7%');
    expect(formatWinRate(calculateWinRate({ wins: 4, losses: 0 }), 4)).toBe('100.0%');
    expect(formatWinRate(calculateWinRate({ wins: 0, losses: 0 }), 0)).toBe('—');
    expect(formatWinRate(null, 3)).toBe('—');
  });

  it('bands: 60 green, 59.9 and 50 yellow, 49.9 red', () => {
    expect([60, 59.9, 50, 49.9, 0, 100].map(getWinRateBand)).toEqual(['green', 'yellow', 'yellow', 'red', 'red', 'green']);
  });
});

describe('win-rate periods (Week = last 7 days, Month = last month)', () => {
  it('on 2026-03-15 in New York, Week is 03-09..03-15 and Month is 02-16..03-15', () => {
    const now = new Date('2026-03-15T15:00:00Z');
    expect(getWinRatePeriodRange('week', now, NEW_YORK)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(getWinRatePeriodRange('month', now, NEW_YORK)).toEqual({ from: '2026-02-16', to: '2026-03-15' });
    expect(getWinRatePeriodRange('all', now, NEW_YORK)).toEqual({ from: null, to: null });
  });

  it('at 22:00 New York on 2026-02-28 (03:00 UTC next day) the week ends on the 28th', () => {
    expect(getWinRatePeriodRange('week', new Date('2026-03-01T03:00:00Z'), NEW_YORK)).toEqual({ from: '2026-02-22', to: '2026-02-28' });
  });

  it('on 2026-03-31 the month is 03-01..03-31 (one month back clamps to 02-28)', () => {
    expect(getWinRatePeriodRange('month', new Date('2026-03-31T16:00:00Z'), NEW_YORK)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
  });

  it('keeps trades of the last 7 days only, dropping the 8th day back and future days', () => {
    const range = getWinRatePeriodRange('week', new Date('2026-03-15T15:00:00Z'), NEW_YORK);
    const trades = ['2026-03-08', '2026-03-09', '2026-03-15', '2026-03-16'].map((tradeDate) => ({ tradeDate }));
    expect(filterByDayRange(trades, range).map((t) => t.tradeDate)).toEqual(['2026-03-09', '2026-03-15']);
  });
});
