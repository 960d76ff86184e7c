import { describe, expect, it } from 'vitest';
import { evaluatePropAccount } from '../evaluate';
import { EMPTY_RULE_SET, type DailyLossRule, type PropTrade } from '../types';

/** The daily loss limit, $1,000, hard and soft, checked after each closed trade or at the close. */
const START = 5_000_000;
const at = (day: string, hhmm: string) => `${day}T${hhmm}:00Z`;
const trade = (id: string, day: string, net: number, exit: string): PropTrade => ({
  id,
  day,
  entryAt: at(
    day,
    exit.replace(/:(\d\d)$/, (_, m: string) => `:${String(Number(m) - 5).padStart(2, '0')}`),
  ),
  exitAt: at(day, exit),
  netCents: net * 100,
  symbol: 'NQH6',
  quantity: 1,
});
const run = (rule: DailyLossRule, trades: PropTrade[], today = '2026-03-18') =>
  evaluatePropAccount({ kind: 'evaluation', startingBalanceCents: START, rules: { ...EMPTY_RULE_SET, dailyLoss: rule }, trades, today });

describe('daily loss limit, $1,000', () => {
  // Monday: -$700 (14:10), -$450 (14:40): -$1,150 at 14:40; +$300 (15:30). Tuesday: -$200.
  const monday = () => [
    trade('m1', '2026-03-16', -700, '14:10'),
    trade('m2', '2026-03-16', -450, '14:40'),
    trade('m3', '2026-03-16', 300, '15:30'),
    trade('t1', '2026-03-17', -200, '14:10'),
  ];

  it('hard: the account fails at the trade that took the day to -$1,150, and has no room after', () => {
    const status = run({ limitCents: 100_000, onBreach: 'fail', check: 'intraday' }, monday());
    expect(status.brokenBy).toMatchObject({ rule: 'dailyLoss', tradeId: 'm2', fatal: true, value: -115_000, at: at('2026-03-16', '14:40') });
    expect(status.outcome).toBe('broken');
    expect(status.rules[0]).toMatchObject({ state: 'broken', severity: 'hard', distanceCents: 0 });
  });

  it('soft: the day is over at -$1,150 and the +$300 realized after it is flagged; the account stands, Tuesday is fresh', () => {
    const status = run({ limitCents: 100_000, onBreach: 'stop-day', check: 'intraday' }, monday());
    expect(status.brokenBy).toBeNull();
    expect(status.outcome).toBe('active');
    expect(status.breaches.map((b) => [b.tradeId, b.fatal, b.message])).toEqual([
      ['m2', false, "Day's net -$1,150.00 reached the daily loss limit of -$1,000.00"],
      ['m3', false, 'Traded after the daily loss limit stopped the day'],
    ]);
    expect(status.days.map((d) => [d.day, d.lowNetCents, d.dailyLossRoomCents])).toEqual([
      ['2026-03-16', -115_000, -15_000],
      ['2026-03-17', -20_000, 80_000],
    ]);
  });

  it('soft, on the day it happens: breached (not broken), no room left today, the account amber', () => {
    const status = run({ limitCents: 100_000, onBreach: 'stop-day', check: 'intraday' }, monday().slice(0, 2), '2026-03-16');
    expect(status.rules[0]).toMatchObject({
      state: 'breached',
      severity: 'soft',
      distanceCents: 0,
      detail: 'Daily loss limit reached today: the day is over',
    });
    expect(status.state).toBe('breached');
    expect(status.headline).toBe('Daily loss limit reached today: the day is over');
  });

  it('soft: a trade entered before the stop and closed after it was still open at the stop', () => {
    const open: PropTrade = { ...trade('open', '2026-03-16', 100, '15:00'), entryAt: at('2026-03-16', '14:30') };
    const status = run({ limitCents: 100_000, onBreach: 'stop-day', check: 'intraday' }, [...monday().slice(0, 2), open]);
    expect(status.breaches[1]).toMatchObject({ tradeId: 'open', message: 'Still open when the daily loss limit stopped the day' });
  });

  it('end of day: Monday closes at -$850 after dipping to -$1,150, so nothing breaks; the dip is in the day row', () => {
    const status = run({ limitCents: 100_000, onBreach: 'fail', check: 'end-of-day' }, monday());
    expect(status.breaches).toEqual([]);
    expect(status.days[0]).toMatchObject({ netCents: -85_000, lowNetCents: -115_000 });
  });

  it('end of day, hard: a day closing at -$1,150 fails the account at its last trade, once the day has closed', () => {
    const trades = monday().slice(0, 2);
    expect(run({ limitCents: 100_000, onBreach: 'fail', check: 'end-of-day' }, trades, '2026-03-16').brokenBy).toBeNull();
    expect(run({ limitCents: 100_000, onBreach: 'fail', check: 'end-of-day' }, trades, '2026-03-17').brokenBy).toMatchObject({
      tradeId: 'm2',
      value: -115_000,
    });
  });

  it('end of day, soft: the same close costs the day only', () => {
    const status = run({ limitCents: 100_000, onBreach: 'stop-day', check: 'end-of-day' }, monday().slice(0, 2), '2026-03-17');
    expect(status.breaches).toEqual([expect.objectContaining({ tradeId: 'm2', fatal: false })]);
    expect(status.outcome).toBe('active');
  });
});
