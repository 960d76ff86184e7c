import { describe, expect, it } from 'vitest';
import { evaluatePropAccount } from '../evaluate';
import { EMPTY_RULE_SET, type ConsistencyRule, type PropTrade } from '../types';

/** Consistency: the best day's share of the profit (or of the target), at most or less than, soft or hard. */
const START = 5_000_000;
let seq = 0;
const day = (d: string, net: number): PropTrade => ({
  id: `c${++seq}`,
  day: d,
  entryAt: null,
  exitAt: null,
  netCents: net * 100,
  symbol: 'NQ',
  quantity: 1,
});
const run = (consistency: ConsistencyRule, trades: PropTrade[], today = '2026-03-31') =>
  evaluatePropAccount({
    kind: 'evaluation',
    startingBalanceCents: START,
    rules: { ...EMPTY_RULE_SET, profitTargetCents: 300_000, consistency },
    trades,
    today,
  });

describe('consistency', () => {
  it('"less than 50%": a best day of exactly half the profit does not meet it; "at most 50%" does', () => {
    const trades = [day('2026-03-16', 1_500), day('2026-03-17', 1_000), day('2026-03-18', 500)];
    const lessThan = run({ maxBestDayPct: 50, of: 'profit', strict: true }, trades);
    expect(lessThan.rules.find((r) => r.rule === 'consistency')).toMatchObject({ state: 'pending', value: 50 });
    expect(lessThan.outcome).toBe('active');
    const atMost = run({ maxBestDayPct: 50, of: 'profit' }, trades);
    expect(atMost.rules.find((r) => r.rule === 'consistency')).toMatchObject({ state: 'met', value: 50 });
    expect(atMost).toMatchObject({ outcome: 'passed', passedOn: '2026-03-18', targetReachedOn: '2026-03-18' });
  });

  it('of the target, soft: a $1,800 day is 60% of the $3,000 target; the pass waits until the profit reaches $3,600', () => {
    const rule: ConsistencyRule = { maxBestDayPct: 50, of: 'target', onBreach: 'wait' };
    const trades = [day('2026-03-16', 1_800), day('2026-03-17', 700), day('2026-03-18', 600)];
    const waiting = run(rule, trades);
    expect(waiting.rules.find((r) => r.rule === 'consistency')).toMatchObject({
      state: 'pending',
      severity: 'soft',
      value: 58.06,
      detail: 'Best day $1,800.00 is 58.06% of the total profit (at most 50%): $3,600.00 of profit in all meets it',
    });
    expect(waiting.outcome).toBe('active');
    expect(waiting.breaches).toEqual([]);
    const passed = run(rule, [...trades, day('2026-03-19', 500)]);
    expect(passed).toMatchObject({ outcome: 'passed', passedOn: '2026-03-19', targetReachedOn: '2026-03-18' });
  });

  it('of the target, hard: the day that closes at $1,800, 60% of the target, fails the account', () => {
    const trades = [day('2026-03-16', 400), day('2026-03-17', 1_800), day('2026-03-18', 200)];
    const status = run({ maxBestDayPct: 50, of: 'target', onBreach: 'fail' }, trades);
    expect(status.brokenBy).toMatchObject({ rule: 'consistency', day: '2026-03-17', tradeId: trades[1]!.id, fatal: true, value: 60 });
    expect(status.rules.find((r) => r.rule === 'consistency')).toMatchObject({ state: 'broken', severity: 'hard' });
    // The target it had not reached is missed, not "to go".
    expect(status.rules.find((r) => r.rule === 'profitTarget')).toMatchObject({
      state: 'missed',
      distanceCents: null,
      detail: 'Not met before the account failed on Mar 17, 2026',
    });
  });

  it('of the target, hard: today, not closed, cannot fail it yet', () => {
    const status = run({ maxBestDayPct: 50, of: 'target', onBreach: 'fail' }, [day('2026-03-17', 1_800)], '2026-03-17');
    expect(status.brokenBy).toBeNull();
  });
});
