import { describe, expect, it } from 'vitest';
import { marketDayOf } from '../market-time';
import { wallClockToInstant } from '../dates/clock';
import { evaluatePropAccount } from './evaluate';
import { buildReplay, realizedDayOf } from './replay';
import { EMPTY_RULE_SET, type PropRuleSet, type PropTrade } from './types';

/**
 * The replay every prop rule reads: trades in the order their P&L was realized (exit, then entry, creation, id), each
 * on the trading day of its exit. The exchange's day opens at 18:00 New York (Sunday evening opens Monday).
 */
const START = 5_000_000;

/** The ISO instant of a New York wall-clock time. */
const ny = (day: string, time: string) => new Date(wallClockToInstant(Date.parse(`${day}T${time}Z`), 'America/New_York')).toISOString();

function trade(id: string, day: string, net: number, entry: string | null, exit: string | null, extra: Partial<PropTrade> = {}): PropTrade {
  return {
    id,
    day,
    entryAt: entry && ny(entry.slice(0, 10), entry.slice(11)),
    exitAt: exit && ny(exit.slice(0, 10), exit.slice(11)),
    netCents: Math.round(net * 100),
    symbol: 'NQH6',
    quantity: 1,
    ...extra,
  };
}

const dailyLimit = (check: 'intraday' | 'end-of-day' = 'intraday'): PropRuleSet => ({
  ...EMPTY_RULE_SET,
  dailyLoss: { limitCents: 100_000, onBreach: 'fail', check },
});

describe('realized order: a trade that closes before an earlier-entered one', () => {
  // -$600 at 09:50; A entered 10:14:05 and closed 10:15:45 for +$300.80; B entered 10:14:30 and closed 10:15:20 for
  // -$424.20. In entry order the day read -$723.40 after B's close; in realized order it read -$1,024.20.
  const trades = [
    trade('early', '2026-03-16', -600, '2026-03-16T09:40:00', '2026-03-16T09:50:00'),
    trade('A', '2026-03-16', 300.8, '2026-03-16T10:14:05', '2026-03-16T10:15:45'),
    trade('B', '2026-03-16', -424.2, '2026-03-16T10:14:30', '2026-03-16T10:15:20'),
  ];

  it('takes B before A: the running net after each close is -$600.00, -$1,024.20, -$723.40', () => {
    const replay = buildReplay({ trades, startingBalanceCents: START, today: '2026-03-20', options: { tradingDay: 'exchange' } });
    expect(replay.steps.map((s) => [s.trade.id, s.dayNetCents])).toEqual([
      ['early', -60_000],
      ['B', -102_420],
      ['A', -72_340],
    ]);
    expect(replay.days).toEqual([
      expect.objectContaining({ day: '2026-03-16', netCents: -72_340, lowNetCents: -102_420, lowBalanceCents: START - 102_420 }),
    ]);
  });

  it('a $1,000 daily loss limit breaks at B, 10:15:20 New York, at -$1,024.20, whatever order the trades come in', () => {
    for (const order of [trades, [...trades].reverse()]) {
      const status = evaluatePropAccount({
        kind: 'evaluation',
        startingBalanceCents: START,
        rules: dailyLimit(),
        trades: order,
        today: '2026-03-20',
      });
      expect(status.brokenBy).toMatchObject({ rule: 'dailyLoss', tradeId: 'B', at: ny('2026-03-16', '10:15:20'), value: -102_420 });
      expect(status.days[0]).toMatchObject({ lowNetCents: -102_420, dailyLossRoomCents: -2_420 });
    }
  });
});

describe('realized day: a trade across the 18:00 reopen', () => {
  // Thursday: -$700 at 10:00; a trade entered 16:02 and closed 18:06 for -$400 (Friday's session). Friday: -$650 at 09:50.
  const trades = [
    trade('thu', '2026-03-19', -700, '2026-03-19T09:55:00', '2026-03-19T10:00:00'),
    trade('across', '2026-03-19', -400, '2026-03-19T16:02:00', '2026-03-19T18:06:00'),
    trade('fri', '2026-03-20', -650, '2026-03-20T09:40:00', '2026-03-20T09:50:00'),
  ];

  it("counts toward Friday, the session its P&L was realized in, by the exchange's day", () => {
    expect(realizedDayOf(trades[1]!, { tradingDay: 'exchange' })).toBe('2026-03-20');
    const status = evaluatePropAccount({ kind: 'evaluation', startingBalanceCents: START, rules: dailyLimit(), trades, today: '2026-03-23' });
    expect(status.days.map((d) => [d.day, d.netCents, d.trades])).toEqual([
      ['2026-03-19', -70_000, 1],
      ['2026-03-20', -105_000, 2],
    ]);
    // Thursday stays at -$700; Friday breaks the limit at its 09:50 trade, -$1,050.
    expect(status.brokenBy).toMatchObject({ rule: 'dailyLoss', tradeId: 'fri', day: '2026-03-20', value: -105_000 });
    expect(status.timeline.map((p) => [p.tradeId, p.day])).toEqual([
      ['thu', '2026-03-19'],
      ['across', '2026-03-20'],
      ['fri', '2026-03-20'],
    ]);
  });

  it('counts toward Thursday for a trader who counts calendar days: Thursday breaks at -$1,100', () => {
    expect(realizedDayOf(trades[1]!, { tradingDay: 'calendar' })).toBe('2026-03-19');
    const status = evaluatePropAccount({
      kind: 'evaluation',
      startingBalanceCents: START,
      rules: dailyLimit(),
      trades,
      today: '2026-03-23',
      tradingDay: 'calendar',
    });
    expect(status.brokenBy).toMatchObject({ tradeId: 'across', day: '2026-03-19', value: -110_000 });
  });

  it('a Friday 16:30 to Sunday 18:30 hold realizes on Monday; a trade without an exit time stays on its own day', () => {
    const weekend = trade('weekend', '2026-03-20', 50, '2026-03-20T16:30:00', '2026-03-22T18:30:00');
    expect(realizedDayOf(weekend, { tradingDay: 'exchange' })).toBe('2026-03-23');
    expect(realizedDayOf(trade('open', '2026-03-20', 50, '2026-03-20T16:30:00', null), { tradingDay: 'exchange' })).toBe('2026-03-20');
    // A manual trade keeps the day typed: an exit earlier than it does not move it back.
    expect(realizedDayOf(trade('typed', '2026-03-20', 50, null, '2026-03-19T10:00:00'), { tradingDay: 'exchange' })).toBe('2026-03-20');
  });
});

describe("the exit's day, for every hold over a weekend and a clock change", () => {
  it("is the market's day of the exit (never before the entry's), by either rule, for futures and for spot crypto", () => {
    // Entries every 37 minutes from Friday 2026-03-06 to Monday 2026-03-16 (New York springs forward on the 8th),
    // held from a minute to 31 hours.
    const start = Date.parse('2026-03-06T00:00:00Z');
    let checked = 0;
    for (const tradingDay of ['exchange', 'calendar'] as const) {
      for (const symbol of ['NQH6', 'BTCUSDT']) {
        const futures = symbol === 'NQH6';
        for (let entry = start; entry < start + 10 * 86_400_000; entry += 37 * 60_000) {
          for (const hold of [60_000, 47 * 60_000, 5 * 3_600_000 + 13 * 60_000, 31 * 3_600_000]) {
            const exit = entry + hold;
            const day = marketDayOf(entry, { rule: tradingDay, futures }).tradingDay;
            const exitDay = marketDayOf(exit, { rule: tradingDay, futures }).tradingDay;
            const t: PropTrade = {
              id: 'x',
              day,
              entryAt: new Date(entry).toISOString(),
              exitAt: new Date(exit).toISOString(),
              netCents: 0,
              symbol,
              quantity: 1,
            };
            expect(realizedDayOf(t, { tradingDay }), `${symbol} ${tradingDay} ${t.entryAt} -> ${t.exitAt}`).toBe(exitDay > day ? exitDay : day);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(6_000);
  });
});

describe('ties in realized order', () => {
  it('one exit second: the earlier entry first; stored trades of one creation by id; trades without times in the order given', () => {
    const same = (id: string, entry: string, created?: string) =>
      trade(id, '2026-03-16', 1, `2026-03-16T${entry}`, '2026-03-16T10:00:00', created ? { createdAt: created } : {});
    const replay = buildReplay({
      trades: [
        same('b', '09:30:00'),
        same('a', '09:20:00'),
        same('d', '09:10:00', '2026-03-16T15:00:00Z'),
        same('c', '09:10:00', '2026-03-16T15:00:00Z'),
      ],
      startingBalanceCents: START,
      today: '2026-03-16',
      options: { tradingDay: 'exchange' },
    });
    expect(replay.steps.map((s) => s.trade.id)).toEqual(['c', 'd', 'a', 'b']);
    const untimed = buildReplay({
      trades: [trade('z', '2026-03-16', 1, null, null), trade('y', '2026-03-16', 1, null, null)],
      startingBalanceCents: START,
      today: '2026-03-16',
      options: { tradingDay: 'exchange' },
    });
    expect(untimed.steps.map((s) => s.trade.id)).toEqual(['z', 'y']);
  });
});
