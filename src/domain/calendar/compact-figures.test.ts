import { describe, expect, it } from 'vitest';
import { formatCompactUsd, formatCompactWinRate } from './compact-figures';

describe('compact calendar amounts on a phone (rounded, not cut)', () => {
  it.each([
    [179190, '$1.8k'], // a day of $1,791.90 showed '$1.7k'
    [719030, '$7.2k'], // a week of $7,190.30 showed '$7.1k'
    [-123456, '-$1.2k'],
    [-125000, '-$1.3k'], // half away from zero, as the cents are
    [42100, '$421'],
    [-45137, '-$451'],
    [45150, '$452'],
    [99949, '$999'],
    [1234567, '$12k'],
    [1250000, '$13k'],
    [-2249999, '-$22k'],
    [123456789, '$1.2M'],
    [12345678900, '$123M'],
  ])('%i cents is %s', (cents, shown) => {
    expect(formatCompactUsd(cents)).toBe(shown);
  });

  it('writes an amount that rounds up to the next size in that size', () => {
    expect(formatCompactUsd(99960)).toBe('$1.0k');
    expect(formatCompactUsd(-99950)).toBe('-$1.0k');
    expect(formatCompactUsd(996000)).toBe('$10k');
    expect(formatCompactUsd(99_950_000)).toBe('$1.0M');
    expect(formatCompactUsd(999_500_000)).toBe('$10M');
  });

  it("shows no sign on an amount that rounds to nothing: a 40-cent loss is '$0', not '-$0'", () => {
    expect(formatCompactUsd(-40)).toBe('$0');
    expect(formatCompactUsd(-49)).toBe('$0');
    expect(formatCompactUsd(0)).toBe('$0');
    expect(formatCompactUsd(49)).toBe('$0');
    expect(formatCompactUsd(-50)).toBe('-$1');
    expect(formatCompactUsd(50)).toBe('$1');
  });
});

describe('compact calendar win rate', () => {
  it("writes whole percent, rounding the one-decimal rate, and '—' without a decided trade", () => {
    expect(formatCompactWinRate(66.7)).toBe('67%');
    expect(formatCompactWinRate(33.3)).toBe('33%');
    expect(formatCompactWinRate(12.5)).toBe('13%');
    expect(formatCompactWinRate(100)).toBe('100%');
    expect(formatCompactWinRate(0)).toBe('0%');
    expect(formatCompactWinRate(null)).toBe('—');
  });
});
