import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combineResultRuns, EMPTY_RESULT_RUNS, streaksFromResultRuns, summarizeResultRuns } from './result-runs';
import { calculateStreaks } from './streaks';

/** Streaks in the score: per-day summaries must give the same streaks as reading every trade. */
const result = fc.constantFrom('Win', 'Loss', 'BE');

describe('result runs: streaks that combine day by day', () => {
  it('W W | W L L | L BE W W: the win run crosses no day, the loss run of 3 crosses one, on 2 wins now', () => {
    const days = [
      ['Win', 'Win'],
      ['Win', 'Loss', 'Loss'],
      ['Loss', 'BE', 'Win', 'Win'],
    ].map(summarizeResultRuns);
    const all = days.reduce(combineResultRuns, EMPTY_RESULT_RUNS);
    expect(streaksFromResultRuns(all)).toEqual({ maxWinStreak: 3, maxLossStreak: 3, current: { result: 'Win', length: 2 } });
    expect(all.head).toEqual({ result: 'Win', length: 3 });
  });

  it('a day of only wins joins the runs on both sides into one: W W | W W W | W is six', () => {
    const all = [['Win', 'Win'], ['Win', 'Win', 'Win'], ['Win']].map(summarizeResultRuns).reduce(combineResultRuns, EMPTY_RESULT_RUNS);
    expect(all).toEqual({ count: 6, head: { result: 'Win', length: 6 }, tail: { result: 'Win', length: 6 }, maxWinStreak: 6, maxLossStreak: 0 });
  });

  it('a day ending with a break-even leaves no current run', () => {
    expect(streaksFromResultRuns(summarizeResultRuns(['Loss', 'Loss', 'BE'])).current).toEqual({ result: null, length: 0 });
  });

  it('any split of any sequence combines to the streaks of the whole (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(result, { maxLength: 8 }), { maxLength: 12 }), (days) => {
        const combined = days.map(summarizeResultRuns).reduce(combineResultRuns, EMPTY_RESULT_RUNS);
        const whole = days.flat();
        expect(combined).toEqual(summarizeResultRuns(whole));
        expect(streaksFromResultRuns(combined)).toEqual(calculateStreaks(whole));
      }),
      { numRuns: 500 },
    );
  });

  it('combining is associative, so days can be grouped in any way (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(result), fc.array(result), fc.array(result), (a, b, c) => {
        const [x, y, z] = [a, b, c].map(summarizeResultRuns) as [
          ReturnType<typeof summarizeResultRuns>,
          ReturnType<typeof summarizeResultRuns>,
          ReturnType<typeof summarizeResultRuns>,
        ];
        expect(combineResultRuns(combineResultRuns(x, y), z)).toEqual(combineResultRuns(x, combineResultRuns(y, z)));
      }),
    );
  });
});
