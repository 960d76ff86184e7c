import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEE_SCHEDULE, parseImport, scheduledCommission } from '../importers';
import { marketDayOf } from '../market-time';
import { evaluatePropAccount } from './evaluate';
import { EMPTY_RULE_SET, type PropRuleSet, type PropTrade } from './types';

/** An account's status, each scenario named after its trades. Amounts in dollars in the names, cents in the code. */
const START = 5_000_000; // $50,000

let seq = 0;
function trade(day: string, net: number, extra: Partial<PropTrade> = {}): PropTrade {
  seq++;
  return { id: `t${seq}`, day, entryAt: null, exitAt: null, netCents: Math.round(net * 100), symbol: 'NQ', quantity: 1, ...extra };
}

function rules(partial: Partial<PropRuleSet>): PropRuleSet {
  return { ...EMPTY_RULE_SET, ...partial };
}

const evaluate = (r: PropRuleSet, trades: PropTrade[], today = '2026-03-20', kind: 'evaluation' | 'funded' | 'personal' = 'evaluation') =>
  evaluatePropAccount({ kind, startingBalanceCents: START, rules: r, trades, today });

describe('daily loss limit, $1,000', () => {
  // -$600, -$500 (the day at -$1,100), +$400 (closes at -$700).
  const dipAndRecover = () => [trade('2026-03-16', -600), trade('2026-03-16', -500), trade('2026-03-16', 400)];

  it('-$600, -$500, +$400 in one day: the intraday rule breaks at the second trade, at -$1,100', () => {
    const trades = dipAndRecover();
    const status = evaluate(rules({ dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' } }), trades);
    expect(status.breaches).toHaveLength(1);
    expect(status.breaches[0]).toMatchObject({
      rule: 'dailyLoss',
      tradeId: trades[1]!.id,
      day: '2026-03-16',
      value: -110_000,
      limit: -100_000,
      fatal: true,
    });
    expect(status.outcome).toBe('broken');
    expect(status.state).toBe('broken');
  });

  it('-$600, -$500, +$400 in one day: the end-of-day rule sees a -$700 close and nothing broken', () => {
    const status = evaluate(rules({ dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'end-of-day' } }), dipAndRecover());
    expect(status.breaches).toEqual([]);
    expect(status.outcome).toBe('active');
    expect(status.balanceCents).toBe(START - 70_000);
  });

  it('a soft limit (stop for the day): the account lives, a trade after the stop is flagged, the next day is fresh', () => {
    const trades = [trade('2026-03-16', -1_000), trade('2026-03-16', 200), trade('2026-03-17', -300)];
    const status = evaluate(rules({ dailyLoss: { limitCents: 100_000, onBreach: 'stop-day', check: 'intraday' } }), trades, '2026-03-17');
    expect(status.breaches.map((b) => [b.tradeId, b.fatal, b.message])).toEqual([
      [trades[0]!.id, false, "Day's net -$1,000.00 reached the daily loss limit of -$1,000.00"],
      [trades[1]!.id, false, 'Traded after the daily loss limit stopped the day'],
    ]);
    expect(status.outcome).toBe('active');
    // Today (03-17) is at -$300: $700 of room, more than a quarter of the limit.
    expect(status.rules.find((r) => r.rule === 'dailyLoss')).toMatchObject({ state: 'ok', distanceCents: 70_000, value: -30_000 });
  });

  it('-$990 gross with $20 of fees: net -$1,010 breaks a $1,000 limit that the gross would not', () => {
    const gross = -990;
    const fees = 20;
    const status = evaluate(rules({ dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' } }), [trade('2026-03-16', gross - fees)]);
    expect(status.breaches[0]).toMatchObject({ rule: 'dailyLoss', value: -101_000 });
  });

  it("a Sunday 18:30 New York entry is Monday's trading day: with Monday morning's loss the day breaks the limit", () => {
    const sundayEvening = Date.parse('2026-03-15T18:30:00-04:00');
    const mondayMorning = Date.parse('2026-03-16T10:05:00-04:00');
    const sundayDay = marketDayOf(sundayEvening, { rule: 'exchange' }).tradingDay;
    const mondayDay = marketDayOf(mondayMorning, { rule: 'exchange' }).tradingDay;
    expect(sundayDay).toBe('2026-03-16');
    expect(mondayDay).toBe('2026-03-16');
    const trades = [
      trade(sundayDay, -600, { entryAt: '2026-03-15T22:30:00Z', exitAt: '2026-03-15T22:50:00Z' }),
      trade(mondayDay, -450, { entryAt: '2026-03-16T14:05:00Z', exitAt: '2026-03-16T14:20:00Z' }),
    ];
    const status = evaluate(rules({ dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' } }), trades);
    expect(status.days).toHaveLength(1);
    expect(status.breaches[0]).toMatchObject({ tradeId: trades[1]!.id, day: '2026-03-16', at: '2026-03-16T14:20:00Z', value: -105_000 });
  });

  it('amber within 25% of the limit: -$800 today leaves $200 of a $1,000 limit', () => {
    const status = evaluate(rules({ dailyLoss: { limitCents: 100_000, onBreach: 'stop-day', check: 'intraday' } }), [trade('2026-03-20', -800)]);
    expect(status.rules[0]).toMatchObject({ rule: 'dailyLoss', state: 'near', distanceCents: 20_000 });
    expect(status.state).toBe('near');
  });
});

describe('maximum loss limit, $2,000', () => {
  it('static: +$1,500 then -$3,400 ends at $48,100, above the fixed $48,000 floor', () => {
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'static', lockAboveStartCents: null } }), [
      trade('2026-03-16', 1_500),
      trade('2026-03-17', -3_400),
    ]);
    expect(status.breaches).toEqual([]);
    expect(status.rules[0]).toMatchObject({ rule: 'maxLoss', limit: 4_800_000, distanceCents: 10_000, state: 'near' });
  });

  it('end-of-day trailing: a +$1,500 day lifts the floor to $49,500; -$1,000 and -$1,100 the next day break it at $49,400', () => {
    const trades = [trade('2026-03-16', 1_500), trade('2026-03-17', -1_000), trade('2026-03-17', -1_100)];
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: null } }), trades);
    expect(status.breaches).toHaveLength(1);
    expect(status.breaches[0]).toMatchObject({ rule: 'maxLoss', tradeId: trades[2]!.id, value: 4_940_000, limit: 4_950_000 });
    expect(status.timeline.map((p) => p.thresholdCents)).toEqual([4_800_000, 4_950_000, 4_950_000]);
  });

  it('end-of-day trailing: an intraday high that is given back by the close does not move the floor', () => {
    const trades = [trade('2026-03-16', 1_800), trade('2026-03-16', -1_700), trade('2026-03-17', -2_050)];
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: null } }), trades);
    // The day closed at $50,100: floor $48,100. -$2,050 -> $48,050, below it.
    expect(status.days.map((d) => d.thresholdCents)).toEqual([4_810_000, 4_810_000]);
    expect(status.breaches[0]).toMatchObject({ tradeId: trades[2]!.id, value: 4_805_000, limit: 4_810_000 });
  });

  it('intraday (realized) trailing: +$1,800 then -$1,700 in one day moves the floor to $49,800 at once; -$250 the next day leaves $50', () => {
    const trades = [trade('2026-03-16', 1_800), trade('2026-03-16', -1_700), trade('2026-03-17', -250)];
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'intraday', lockAboveStartCents: null } }), trades);
    // Floor after the first trade: $51,800 - $2,000 = $49,800. Balance $50,100, then -$250 -> $49,850: $50 above it.
    expect(status.timeline.map((p) => [p.balanceCents, p.thresholdCents])).toEqual([
      [5_180_000, 4_980_000],
      [5_010_000, 4_980_000],
      [4_985_000, 4_980_000],
    ]);
    expect(status.breaches).toEqual([]);
    expect(status.rules[0]).toMatchObject({ state: 'near', distanceCents: 5_000 });
  });

  it('a trailing threshold stops at the starting balance: +$3,000 days lift it to $50,000 and no further', () => {
    const trades = [trade('2026-03-16', 1_500), trade('2026-03-17', 1_500), trade('2026-03-18', 1_000), trade('2026-03-19', -1_900)];
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: 0 } }), trades);
    expect(status.days.map((d) => d.thresholdCents)).toEqual([4_950_000, 5_000_000, 5_000_000, 5_000_000]);
    // $54,000 - $1,900 = $52,100: $2,100 above the locked $50,000 floor. Unlocked it would have been $52,000.
    expect(status.breaches).toEqual([]);
    expect(status.rules[0]).toMatchObject({ limit: 5_000_000, distanceCents: 210_000 });
  });

  it('a threshold locked $100 above the start (Apex): floor $50,100 once the balance reached $52,600', () => {
    const status = evaluate(rules({ maxLoss: { amountCents: 250_000, trailing: 'intraday', lockAboveStartCents: 10_000 } }), [
      trade('2026-03-16', 2_600),
      trade('2026-03-16', 500),
      trade('2026-03-17', -3_000),
    ]);
    expect(status.timeline.map((p) => p.thresholdCents)).toEqual([5_010_000, 5_010_000, 5_010_000]);
    expect(status.breaches[0]).toMatchObject({ rule: 'maxLoss', value: 5_010_000 });
  });

  it('reaching the threshold exactly is a breach', () => {
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'static', lockAboveStartCents: null } }), [
      trade('2026-03-16', -2_000),
    ]);
    expect(status.breaches).toHaveLength(1);
  });
});

describe('consistency, target and days', () => {
  it('best day $1,800 of $3,000 total profit is 60%: over a 50% rule, so not passed though the target is met', () => {
    const status = evaluate(rules({ profitTargetCents: 300_000, consistency: { maxBestDayPct: 50, of: 'profit' } }), [
      trade('2026-03-16', 1_800),
      trade('2026-03-17', 700),
      trade('2026-03-18', 500),
    ]);
    expect(status.rules.find((r) => r.rule === 'profitTarget')).toMatchObject({ state: 'met', progressPct: 100 });
    expect(status.rules.find((r) => r.rule === 'consistency')).toMatchObject({ state: 'pending', value: 60 });
    expect(status.outcome).toBe('active');
  });

  it('two more $600 days bring the best day to 42.86% of $4,200: passed', () => {
    const status = evaluate(rules({ profitTargetCents: 300_000, consistency: { maxBestDayPct: 50, of: 'profit' }, minTradingDays: 5 }), [
      trade('2026-03-16', 1_800),
      trade('2026-03-17', 700),
      trade('2026-03-18', 500),
      trade('2026-03-19', 600),
      trade('2026-03-20', 600),
    ]);
    expect(status.rules.find((r) => r.rule === 'consistency')).toMatchObject({ state: 'met', value: 42.86 });
    expect(status.rules.find((r) => r.rule === 'minTradingDays')).toMatchObject({ state: 'met', value: 5 });
    expect(status.outcome).toBe('passed');
  });

  it('consistency of the target: a $1,600 day is 53.33% of a $3,000 target', () => {
    const status = evaluate(rules({ profitTargetCents: 300_000, consistency: { maxBestDayPct: 50, of: 'target' } }), [trade('2026-03-16', 1_600)]);
    expect(status.rules.find((r) => r.rule === 'consistency')).toMatchObject({ value: 53.33, state: 'pending' });
  });

  it('funded: five days of $150 or more, and one of $149.99 that does not count, make a payout-eligible account', () => {
    const days = ['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20', '2026-03-23'];
    const trades = days.map((d, i) => trade(d, i === 2 ? 149.99 : 150));
    const status = evaluate(
      rules({ minProfitDays: { days: 5, minCents: 15_000 }, payout: { minBalanceAboveStartCents: null } }),
      trades,
      '2026-03-23',
      'funded',
    );
    expect(status.rules.find((r) => r.rule === 'minProfitDays')).toMatchObject({ value: 5, state: 'met' });
    expect(status.outcome).toBe('payout-eligible');
    const fewer = evaluate(
      rules({ minProfitDays: { days: 5, minCents: 15_000 }, payout: { minBalanceAboveStartCents: null } }),
      trades.slice(0, 5),
      '2026-03-23',
      'funded',
    );
    expect(fewer.outcome).toBe('active');
  });
});

describe('position and hours', () => {
  it('3 NQ and 25 MNQ open together are 5.5 NQ: over a 5-contract limit at the MNQ entry', () => {
    const trades = [
      trade('2026-03-16', 100, { symbol: 'NQM6', quantity: 3, entryAt: '2026-03-16T13:35:00Z', exitAt: '2026-03-16T13:50:00Z' }),
      trade('2026-03-16', 50, { symbol: 'MNQM6', quantity: 25, entryAt: '2026-03-16T13:40:00Z', exitAt: '2026-03-16T13:45:00Z' }),
      // After both closed: 50 MNQ alone is exactly 5 NQ, within the limit.
      trade('2026-03-16', 20, { symbol: 'MNQM6', quantity: 50, entryAt: '2026-03-16T14:00:00Z', exitAt: '2026-03-16T14:10:00Z' }),
    ];
    const status = evaluate(rules({ maxPosition: { contracts: 5 } }), trades);
    expect(status.breaches).toEqual([
      expect.objectContaining({ rule: 'maxPosition', tradeId: trades[1]!.id, value: 5.5, at: '2026-03-16T13:40:00Z' }),
    ]);
  });

  it('an exit and an entry at the same instant are not two positions at once', () => {
    const trades = [
      trade('2026-03-16', 100, { quantity: 5, entryAt: '2026-03-16T13:35:00Z', exitAt: '2026-03-16T13:50:00Z' }),
      trade('2026-03-16', 100, { quantity: 5, entryAt: '2026-03-16T13:50:00Z', exitAt: '2026-03-16T14:00:00Z' }),
    ];
    expect(evaluate(rules({ maxPosition: { contracts: 5 } }), trades).breaches).toEqual([]);
  });

  it('flat by 16:10 New York: a trade held from 16:05 to 16:12 breaks it; one from 18:05 on the evening session does not', () => {
    const trades = [
      trade('2026-03-16', 100, { entryAt: '2026-03-16T20:05:00Z', exitAt: '2026-03-16T20:12:00Z' }),
      trade('2026-03-17', 100, { entryAt: '2026-03-16T22:05:00Z', exitAt: '2026-03-16T22:30:00Z' }),
      trade('2026-03-17', 100, { entryAt: '2026-03-17T14:00:00Z', exitAt: '2026-03-17T20:09:00Z' }),
    ];
    const status = evaluate(
      rules({ tradingHours: { flatBy: '16:10', reopenAt: '18:00', timeZone: 'America/New_York', noTradingWeekdays: [], noTradingDates: [] } }),
      trades,
    );
    expect(status.breaches.map((b) => [b.tradeId, b.at])).toEqual([[trades[0]!.id, '2026-03-16T20:10:00.000Z']]);
  });

  it('a trade on a closed day is flagged by its trading day', () => {
    const status = evaluate(
      rules({
        tradingHours: { flatBy: null, reopenAt: '18:00', timeZone: 'America/New_York', noTradingWeekdays: [], noTradingDates: ['2026-03-17'] },
      }),
      [trade('2026-03-16', 10), trade('2026-03-17', 10)],
    );
    expect(status.breaches.map((b) => b.day)).toEqual(['2026-03-17']);
  });
});

describe('no rules, no trades', () => {
  it('an empty account stands at its starting balance with nothing broken', () => {
    const status = evaluate(EMPTY_RULE_SET, []);
    expect(status).toMatchObject({
      balanceCents: START,
      profitCents: 0,
      state: 'ok',
      outcome: 'active',
      breaches: [],
      rules: [],
      tradingDays: 0,
      basis: 'realized',
    });
  });
});

describe('account state on the trading day that has not closed', () => {
  it('end-of-day trailing: +$1,500 so far today does not lift the $48,000 floor before the close', () => {
    const trades = [trade('2026-03-19', 500), trade('2026-03-20', 1_500)];
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: null } }), trades, '2026-03-20');
    // Yesterday closed at $50,500: floor $48,500. Today's $52,000 counts only at the close.
    expect(status.days.map((d) => d.thresholdCents)).toEqual([4_850_000, 4_850_000]);
    expect(status.rules[0]).toMatchObject({ limit: 4_850_000, distanceCents: 5_200_000 - 4_850_000 });
    // The same trades seen the next day: the close moved it to $50,000.
    const tomorrow = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: null } }), trades, '2026-03-23');
    expect(tomorrow.rules[0]).toMatchObject({ limit: 5_000_000 });
  });

  it('end-of-day daily limit: -$1,100 so far today is past it but not broken until the close; the next day it is', () => {
    const trades = [trade('2026-03-20', -1_100)];
    const eod = rules({ dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'end-of-day' } });
    const today = evaluate(eod, trades, '2026-03-20');
    expect(today.breaches).toEqual([]);
    expect(today.outcome).toBe('active');
    expect(today.rules[0]).toMatchObject({ state: 'near', distanceCents: 0 });
    expect(today.rules[0]!.detail).toBe("Today's net -$1,100.00 is past the daily loss limit of $1,000.00: the day's close decides");
    const after = evaluate(eod, trades, '2026-03-23');
    expect(after.outcome).toBe('broken');
    expect(after.brokenBy).toMatchObject({ rule: 'dailyLoss', tradeId: trades[0]!.id, day: '2026-03-20' });
  });

  it('a soft position breach is marked on its day only, and never ends the account', () => {
    const over = trade('2026-03-19', 100, { quantity: 6, entryAt: '2026-03-19T14:00:00Z', exitAt: '2026-03-19T14:05:00Z' });
    const r = rules({ maxPosition: { contracts: 5 } });
    // 'breached', not 'broken': a soft breach costs the trade, and 'broken' now says only that the account failed.
    expect(evaluate(r, [over], '2026-03-19').rules[0]).toMatchObject({ state: 'breached', value: 6 });
    const later = evaluate(r, [over], '2026-03-20');
    // OK today, and the breach of the past says its day: "OK" beside "1 trade over" with no day read as a contradiction.
    expect(later.rules[0]).toMatchObject({ state: 'ok', value: 0, detail: '1 trade over 5 contracts, last on Mar 19, 2026 (micros at their ratio)' });
    expect(later.outcome).toBe('active');
    expect(later.brokenBy).toBeNull();
  });

  it('brokenBy is the first fatal breach: -$2,100 breaks the maximum loss, a later daily loss does not replace it', () => {
    const trades = [trade('2026-03-16', -2_100), trade('2026-03-17', -1_200)];
    const status = evaluate(
      rules({
        maxLoss: { amountCents: 200_000, trailing: 'static', lockAboveStartCents: null },
        dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' },
      }),
      trades,
    );
    expect(status.brokenBy).toMatchObject({ rule: 'maxLoss', tradeId: trades[0]!.id });
  });
});

describe('two accounts of one file', () => {
  it('a Tradovate Orders export of PROP-50K-A and PROP-50K-B: A breaks its $1,000 daily limit by $3.56 of fees at 10:20 on Monday, B is $791.44 up', () => {
    const file = readFileSync(new URL('./fixtures/two-evaluations-orders.csv', import.meta.url), 'utf8');
    const parsed = parseImport(file, { timeZone: 'America/New_York', tradingDay: 'exchange' });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.costsInFile).toBe(false);
    // The server applies the account's fee schedule to files without costs: $2.14 a side per NQ by default.
    const byAccount = new Map<string, PropTrade[]>();
    for (const t of parsed.trades) {
      const fees = scheduledCommission(DEFAULT_FEE_SCHEDULE, t.contract || t.symbol, t.quantity)!;
      const list = byAccount.get(t.account) ?? [];
      list.push({
        id: t.importKey,
        day: t.tradingDay,
        entryAt: t.entryTime,
        exitAt: t.exitTime,
        netCents: t.grossPnl - fees,
        symbol: t.contract,
        quantity: t.quantity?.toNumber() ?? null,
      });
      byAccount.set(t.account, list);
    }
    expect([...byAccount.keys()].sort()).toEqual(['PROP-50K-A', 'PROP-50K-B']);
    const limit = rules({ dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' }, maxPosition: { contracts: 5 } });
    const a = evaluate(limit, byAccount.get('PROP-50K-A')!, '2026-03-16');
    const b = evaluate(limit, byAccount.get('PROP-50K-B')!, '2026-03-16');
    // A: Sunday 18:30 is Monday's trading day: -$400 - $4.28, then -$595 - $4.28 = -$1,003.56 (gross -$995 would pass).
    expect(a.days).toEqual([expect.objectContaining({ day: '2026-03-16', netCents: -100_356, trades: 2 })]);
    expect(a.brokenBy).toMatchObject({ rule: 'dailyLoss', at: '2026-03-16T14:20:00.000Z', value: -100_356 });
    expect(a.outcome).toBe('broken');
    expect(b).toMatchObject({ balanceCents: START + 79_144, outcome: 'active', state: 'ok', breaches: [] });
  });
});

describe('a broken limit leaves no room', () => {
  it('-$2,100 breaks a static $2,000 maximum loss; +$500 after it does not give back $400 of room', () => {
    const status = evaluate(rules({ maxLoss: { amountCents: 200_000, trailing: 'static', lockAboveStartCents: null } }), [
      trade('2026-03-16', -2_100),
      trade('2026-03-17', 500),
    ]);
    expect(status.rules[0]).toMatchObject({ rule: 'maxLoss', state: 'broken', distanceCents: 0 });
  });

  it('a daily limit that failed the account on Monday has no room on Friday', () => {
    const status = evaluate(rules({ dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' } }), [trade('2026-03-16', -1_100)]);
    expect(status.rules[0]).toMatchObject({ rule: 'dailyLoss', state: 'broken', distanceCents: 0 });
  });
});
