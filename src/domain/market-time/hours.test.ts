import { describe, expect, it } from 'vitest';
import { wallClockToInstant } from '../dates/clock';
import { isExchangeClosed, isMarketClosed, openMillisBetween } from './hours';

/** An instant of a New York wall-clock time written 'yyyy-MM-dd HH:mm:ss'. */
const ny = (text: string) => wallClockToInstant(Date.parse(`${text.replace(' ', 'T')}Z`), 'America/New_York');

describe('the exchange hours', () => {
  it.each([
    ['2025-07-15 16:59:59', false],
    ['2025-07-15 17:00:00', true],
    ['2025-07-15 17:59:59', true],
    ['2025-07-15 18:00:00', false],
    ['2025-07-18 16:30:00', false],
    ['2025-07-18 18:30:00', true],
    ['2025-07-19 12:00:00', true],
    ['2025-07-20 17:59:00', true],
    ['2025-07-20 18:00:00', false],
    ['2025-07-21 03:00:00', false],
  ])('%s New York: closed %s', (text, closed) => {
    expect(isExchangeClosed(ny(text))).toBe(closed);
  });

  it('keeps the halt at 17:00 New York in winter too (22:00 UTC, not 21:00)', () => {
    expect(isExchangeClosed(Date.parse('2026-01-13T22:30:00Z'))).toBe(true);
    expect(isExchangeClosed(Date.parse('2026-01-13T21:30:00Z'))).toBe(false);
  });
});

describe('when other markets are closed', () => {
  it('a US stock trades 04:00-20:00 New York on weekdays; spot crypto never closes', () => {
    expect(
      ['2025-07-15 03:59:00', '2025-07-15 04:00:00', '2025-07-15 19:59:00', '2025-07-15 20:00:00', '2025-07-19 12:00:00'].map((t) =>
        isMarketClosed(ny(t), 'stock'),
      ),
    ).toEqual([true, false, false, true, true]);
    expect(isMarketClosed(ny('2025-07-19 12:00:00'), 'crypto')).toBe(false);
  });

  it('counts only open time: a futures weekend adds nothing between Friday 16:59 and Sunday 18:01 but two minutes', () => {
    expect(openMillisBetween(ny('2025-07-18 16:59:00'), ny('2025-07-20 18:01:00'), 'futures')).toBe(2 * 60_000);
    expect(openMillisBetween(ny('2025-07-18 16:59:00'), ny('2025-07-20 18:01:00'), 'crypto')).toBe(
      ny('2025-07-20 18:01:00') - ny('2025-07-18 16:59:00'),
    );
  });
});
