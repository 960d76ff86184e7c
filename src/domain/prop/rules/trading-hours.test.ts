import { describe, expect, it } from 'vitest';
import { evaluatePropAccount } from '../evaluate';
import { EMPTY_RULE_SET, type PropTrade, type TradingHoursRule } from '../types';

/** Trading hours: flat by 16:10 New York until the 18:00 reopen; soft costs the trade, hard the account. */
const START = 5_000_000;
const hours = (onBreach?: 'fail' | 'close-trade'): TradingHoursRule => ({
  flatBy: '16:10',
  reopenAt: '18:00',
  timeZone: 'America/New_York',
  noTradingWeekdays: [],
  noTradingDates: [],
  ...(onBreach && { onBreach }),
});
const held: PropTrade = {
  id: 'late',
  day: '2026-03-16',
  entryAt: '2026-03-16T20:05:00Z',
  exitAt: '2026-03-16T20:12:00Z',
  netCents: 5_000,
  symbol: 'NQH6',
  quantity: 1,
};
const run = (rule: TradingHoursRule, today: string) =>
  evaluatePropAccount({ kind: 'funded', startingBalanceCents: START, rules: { ...EMPTY_RULE_SET, tradingHours: rule }, trades: [held], today });

describe('trading hours', () => {
  it('soft (the default): a trade held past 16:10 is flagged on its day and costs only the trade', () => {
    const today = run(hours(), '2026-03-16');
    expect(today.breaches).toEqual([expect.objectContaining({ rule: 'tradingHours', fatal: false, at: '2026-03-16T20:10:00.000Z' })]);
    expect(today.rules[0]).toMatchObject({ state: 'breached', severity: 'soft' });
    expect(run(hours(), '2026-03-17').rules[0]).toMatchObject({ state: 'ok', detail: '1 trade outside the trading hours, last on Mar 16, 2026' });
    expect(run(hours(), '2026-03-17').outcome).not.toBe('broken');
  });

  it('hard: the same trade ends the account at 16:10', () => {
    const status = run(hours('fail'), '2026-03-17');
    expect(status.brokenBy).toMatchObject({ rule: 'tradingHours', tradeId: 'late', fatal: true });
    expect(status.rules[0]).toMatchObject({ state: 'broken', severity: 'hard' });
    expect(status.rules.find((r) => r.rule === 'payout')).toMatchObject({ state: 'missed' });
  });
});
