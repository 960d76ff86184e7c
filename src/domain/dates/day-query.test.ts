import { describe, expect, it } from 'vitest';
import { parseDayQuery } from './day-query';

const today = '2026-11-26';

describe('a trading day named in a search box (the palette finds trades by date)', () => {
  it.each([
    ['2026-03-02', '2026-03-02'],
    ['3/2/2026', '2026-03-02'],
    ['3/2/26', '2026-03-02'],
    ['03/02', '2026-03-02'],
    ['Mar 2', '2026-03-02'],
    ['march 2, 2025', '2025-03-02'],
    ['Sept 30', '2026-09-30'],
    ['2 Mar 2026', '2026-03-02'],
    ['  Nov   26 ', '2026-11-26'],
  ])('%s is %s', (query, day) => {
    expect(parseDayQuery(query, today)).toBe(day);
  });

  it('reads a day without its year as the last one on or before today', () => {
    expect(parseDayQuery('12/30', today)).toBe('2025-12-30');
    expect(parseDayQuery('Nov 27', today)).toBe('2025-11-27');
    expect(parseDayQuery('Feb 29', today)).toBe('2024-02-29');
  });

  it('names no day for symbols, words and impossible dates', () => {
    for (const query of ['NQ', 'MNQH5', 'breakout', 'ma 2', 'Mars 2', '2026-02-30', '13/1/2026', '2/30', '', '12345', 'May']) {
      expect(parseDayQuery(query, today), query).toBeNull();
    }
  });
});
