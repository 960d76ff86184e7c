import { describe, expect, it } from 'vitest';
import { evaluatePropAccount } from '../evaluate';
import { EMPTY_RULE_SET, type MaxLossRule, type PropTrade } from '../types';

/** The maximum loss limit, $2,000 on a $50,000 account: static, trailing at the close or after each trade, its lock. */
const START = 5_000_000;
let seq = 0;
const trade = (day: string, net: number): PropTrade => ({
  id: `t${++seq}`,
  day,
  entryAt: null,
  exitAt: null,
  netCents: net * 100,
  symbol: 'NQ',
  quantity: 1,
});
const run = (rule: MaxLossRule, trades: PropTrade[], today = '2026-03-31') =>
  evaluatePropAccount({ kind: 'evaluation', startingBalanceCents: START, rules: { ...EMPTY_RULE_SET, maxLoss: rule }, trades, today });

describe('maximum loss limit, $2,000', () => {
  it('hard (the default): -$2,000 on the static floor fails the account at that trade', () => {
    const trades = [trade('2026-03-16', -1_200), trade('2026-03-16', -800), trade('2026-03-17', 900)];
    const status = run({ amountCents: 200_000, trailing: 'static', lockAboveStartCents: null }, trades);
    expect(status.brokenBy).toMatchObject({ rule: 'maxLoss', tradeId: trades[1]!.id, fatal: true, value: 4_800_000, limit: 4_800_000 });
    expect(status.rules[0]).toMatchObject({ state: 'broken', severity: 'hard' });
  });

  it('soft (a personal guard): each day the balance touches the floor is over, the account stands', () => {
    const trades = [trade('2026-03-16', -2_100), trade('2026-03-16', -50), trade('2026-03-17', -10), trade('2026-03-18', 500)];
    const status = run({ amountCents: 200_000, trailing: 'static', lockAboveStartCents: null, onBreach: 'stop-day' }, trades, '2026-03-17');
    expect(status.breaches.map((b) => [b.tradeId, b.day, b.fatal])).toEqual([
      [trades[0]!.id, '2026-03-16', false],
      [trades[2]!.id, '2026-03-17', false],
    ]);
    expect(status.outcome).toBe('active');
    expect(status.rules[0]).toMatchObject({ state: 'breached', severity: 'soft', distanceCents: 0 });
  });

  it('end-of-day trailing with its lock at the start: $51,500, $52,300 closes lift it to $50,000 and no higher; the day it stopped is said', () => {
    const trades = [trade('2026-03-16', 1_500), trade('2026-03-17', 800), trade('2026-03-18', -1_000)];
    const status = run({ amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: 0 }, trades);
    expect(status.days.map((d) => d.thresholdCents)).toEqual([4_950_000, 5_000_000, 5_000_000]);
    expect(status.thresholdLock).toEqual({ day: '2026-03-17', thresholdCents: 5_000_000 });
    expect(status.rules[0]!.detail).toBe(
      '$1,300.00 above the maximum loss threshold of $50,000.00, which stopped trailing at $50,000.00 on Mar 17, 2026',
    );
  });

  it('intraday trailing locked $100 above the start: stops at $50,100 after a $52,100 high', () => {
    const trades = [trade('2026-03-16', 2_100), trade('2026-03-16', 900), trade('2026-03-17', -2_000)];
    const status = run({ amountCents: 200_000, trailing: 'intraday', lockAboveStartCents: 10_000 }, trades);
    expect(status.timeline.map((p) => p.thresholdCents)).toEqual([5_010_000, 5_010_000, 5_010_000]);
    expect(status.thresholdLock).toEqual({ day: '2026-03-16', thresholdCents: 5_010_000 });
    // $53,000 - $2,000 = $51,000: $900 above the locked floor; each day's least room is kept.
    expect(status.rules[0]).toMatchObject({ distanceCents: 90_000 });
    expect(status.days.map((d) => d.maxLossRoomCents)).toEqual([200_000, 90_000]);
  });

  it('a day that dips toward the floor and recovers keeps its closest approach in its row', () => {
    const trades = [trade('2026-03-16', -1_700), trade('2026-03-16', 1_500)];
    const status = run({ amountCents: 200_000, trailing: 'static', lockAboveStartCents: null }, trades);
    expect(status.days[0]).toMatchObject({ netCents: -20_000, lowBalanceCents: 4_830_000, maxLossRoomCents: 30_000 });
  });
});
