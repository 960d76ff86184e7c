import { describe, expect, it } from 'vitest';
import { evaluatePropAccount } from './evaluate';
import { headlineOf } from './headline';
import { EMPTY_RULE_SET, type PropRuleSet, type PropTrade } from './types';

/**
 * A prop account counted in USDT (an exchange's perpetuals) writes its amounts in USDT, never with a dollar sign; a USD
 * account's words stay as they were.
 */
const trade = (id: string, day: string, netCents: number): PropTrade => ({
  id,
  day,
  entryAt: null,
  exitAt: null,
  netCents,
  symbol: 'BTCUSDT',
  quantity: 1,
});

const RULES: PropRuleSet = {
  ...EMPTY_RULE_SET,
  profitTargetCents: 100_000,
  dailyLoss: { limitCents: 50_000, onBreach: 'fail', check: 'intraday' },
  maxLoss: { amountCents: 80_000, trailing: 'static', lockAboveStartCents: null },
  minProfitDays: { days: 3, minCents: 2_500 },
};

const run = (currency: string | undefined, trades: PropTrade[], kind: 'evaluation' | 'funded' = 'evaluation') =>
  evaluatePropAccount({ kind, startingBalanceCents: 1_000_000, rules: RULES, trades, today: '2026-03-17', ...(currency && { currency }) });

describe('prop amounts in the account currency', () => {
  it('a USDT account: the headline and every rule figure are in USDT, with no dollar sign', () => {
    const status = run('USDT', [trade('a', '2026-03-16', 25_000), trade('b', '2026-03-17', -40_000)]);
    // Today is at -400.00 of a 500.00 daily limit: the least room left.
    expect(status.headline).toBe('Daily loss: 100.00 USDT left');
    const detail = Object.fromEntries(status.rules.map((r) => [r.rule, r.detail]));
    expect(detail.profitTarget).toBe('1,150.00 USDT to the target of 1,000.00 USDT');
    expect(detail.dailyLoss).toBe('100.00 USDT left today before the daily loss limit of 500.00 USDT');
    expect(detail.maxLoss).toBe('650.00 USDT above the maximum loss threshold of 9,200.00 USDT');
    expect(detail.minProfitDays).toBe('1 of 3 days of at least 25.00 USDT');
    expect(JSON.stringify(status)).not.toContain('$');
  });

  it('a USD account, named or by default, keeps its dollar text exactly', () => {
    const trades = [trade('a', '2026-03-16', 25_000), trade('b', '2026-03-17', -40_000)];
    for (const status of [run('USD', trades), run(undefined, trades)]) {
      expect(status.headline).toBe('Daily loss: $100.00 left');
      const detail = Object.fromEntries(status.rules.map((r) => [r.rule, r.detail]));
      expect(detail.profitTarget).toBe('$1,150.00 to the target of $1,000.00');
      expect(detail.maxLoss).toBe('$650.00 above the maximum loss threshold of $9,200.00');
      expect(detail.minProfitDays).toBe('1 of 3 days of at least $25.00');
    }
  });

  it("a breach's message and the distance to the target are in USDT too", () => {
    const broken = run('USDT', [trade('a', '2026-03-16', -60_000)]);
    expect(broken.breaches[0]!.message).toBe("Day's net -600.00 USDT reached the daily loss limit of -500.00 USDT");
    const ahead = run('USDT', [trade('a', '2026-03-16', 10_000)], 'evaluation');
    const target = ahead.rules.find((r) => r.rule === 'profitTarget')!;
    expect(headlineOf({ ...ahead, rules: [target] }, 1, 'USDT')).toBe('900.00 USDT to the target');
    expect(headlineOf({ ...ahead, rules: [target] }, 1)).toBe('$900.00 to the target');
  });
});
