import { describe, expect, it } from 'vitest';
import { evaluatePropAccount } from '../evaluate';
import { EMPTY_RULE_SET, type PropRuleSet, type PropTrade } from '../types';

/** The conditions of a pass (target, trading days, profit days) and of a payout, and the one line that says it. */
const START = 5_000_000;
let seq = 0;
const day = (d: string, net: number): PropTrade => ({
  id: `d${++seq}`,
  day: d,
  entryAt: null,
  exitAt: null,
  netCents: net * 100,
  symbol: 'NQ',
  quantity: 1,
});
const run = (rules: Partial<PropRuleSet>, trades: PropTrade[], kind: 'evaluation' | 'funded' = 'evaluation', today = '2026-03-31') =>
  evaluatePropAccount({ kind, startingBalanceCents: START, rules: { ...EMPTY_RULE_SET, ...rules }, trades, today });

describe('profit target and trading days', () => {
  it('reaching $3,000 on the 2nd day with 3 days required: reached Mar 17, passed Mar 18, whatever the 4th day did', () => {
    const trades = [day('2026-03-16', 1_400), day('2026-03-17', 1_700), day('2026-03-18', 100), day('2026-03-19', -1_000)];
    const status = run({ profitTargetCents: 300_000, minTradingDays: 3 }, trades);
    expect(status).toMatchObject({
      targetReachedOn: '2026-03-17',
      passedOn: '2026-03-18',
      outcome: 'passed',
      headline: 'Passed on Mar 18, 2026: target and rules met',
    });
    // The pass stands though the balance is back under the target.
    expect(status.rules.find((r) => r.rule === 'profitTarget')).toMatchObject({
      state: 'met',
      distanceCents: 0,
      detail: 'Target of $3,000.00 reached on Mar 17, 2026',
    });
  });

  it('a personal or funded account never "passes"; an evaluation short of the target names the distance', () => {
    expect(run({ profitTargetCents: 300_000 }, [day('2026-03-16', 3_500)], 'funded').passedOn).toBeNull();
    const short = run({ profitTargetCents: 300_000, maxLoss: { amountCents: 200_000, trailing: 'static', lockAboveStartCents: null } }, [
      day('2026-03-16', 374.8),
    ]);
    expect(short).toMatchObject({ outcome: 'active', passedOn: null, headline: 'Max loss: $2,374.80 left' });
    expect(run({ profitTargetCents: 300_000 }, [day('2026-03-16', 374.8)]).headline).toBe('$2,625.20 to the target');
  });
});

describe('a failed account says so first', () => {
  it('-$2,100 on Mar 17 ends a static $2,000 limit: the target is missed, not "$2,625.20 to go", and the headline names the day and year', () => {
    const trades = [day('2026-03-16', 374.8), day('2026-03-17', -2_474.8)];
    const status = run(
      { profitTargetCents: 300_000, minTradingDays: 5, maxLoss: { amountCents: 200_000, trailing: 'static', lockAboveStartCents: null } },
      trades,
    );
    expect(status.headline).toBe('Maximum loss limit broken on Mar 17, 2026');
    expect(status.rules.map((r) => [r.rule, r.state, r.distanceCents])).toEqual([
      ['profitTarget', 'missed', null],
      ['maxLoss', 'broken', 0],
      ['minTradingDays', 'missed', null],
    ]);
  });
});

describe('payout (funded)', () => {
  it('$500 above the start with a $600 buffer: $100 more before a payout; at $600 and 2 profit days of $150 it is eligible', () => {
    const rules = { payout: { minBalanceAboveStartCents: 60_000 }, minProfitDays: { days: 2, minCents: 15_000 } };
    const short = run(rules, [day('2026-03-16', 350), day('2026-03-17', 150)], 'funded');
    expect(short.rules.find((r) => r.rule === 'payout')).toMatchObject({
      state: 'pending',
      distanceCents: 10_000,
      detail: '$100.00 more profit before a payout',
    });
    const eligible = run(rules, [day('2026-03-16', 350), day('2026-03-17', 150), day('2026-03-18', 100)], 'funded');
    expect(eligible).toMatchObject({ outcome: 'payout-eligible', headline: 'Eligible for a payout by these rules' });
  });
});
