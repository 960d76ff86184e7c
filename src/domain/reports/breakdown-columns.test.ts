import { describe, expect, it } from 'vitest';
import { computeBreakdown, fillHourSpan } from './breakdown';
import { createTradeSet, type ReportTrade } from './report-trade';

const NY = 'America/New_York';
let seq = 0;
/** A trade on Monday March 2, 2026 (New York is UTC-5), entered at `at` New York time when given. */
const trade = (pnlCents: number, commissionCents: number, options: Partial<ReportTrade> & { at?: string } = {}): ReportTrade => {
  const { at, ...rest } = options;
  const entryMs = at ? Date.parse(`2026-03-02T${at}:00Z`) + 5 * 3_600_000 : null;
  return {
    id: `t${++seq}`,
    tradeDate: '2026-03-02',
    accountId: 'a',
    symbol: 'NQ',
    contract: null,
    side: 'Long',
    setup: '',
    session: 'AM',
    tags: [],
    status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
    pnlCents,
    commissionCents,
    entryMs,
    exitMs: null,
    quantity: 1,
    ...rest,
  };
};

describe('a breakdown row’s gross P&L and fees', () => {
  it('gives each row its fees and its gross, gross less fees being the net to the cent', () => {
    // NQ: +150.00 net after 4.20 of fees, -60.00 net after 4.20: gross +154.20 and -55.80, 149.40 in all.
    // ES: a break-even by net that paid 2.10 (gross +2.10), and a trade with no fees.
    const rows = computeBreakdown(
      createTradeSet([trade(15_000, 420), trade(-6_000, 420), trade(0, 210, { symbol: 'ES' }), trade(1_001, 0, { symbol: 'ES' })]),
      'instrument',
      { timeZone: NY },
    ).rows;
    expect(rows.map((r) => [r.key, r.netCents, r.feesCents, r.grossCents])).toEqual([
      ['ES', 1_001, 210, 1_211],
      ['NQ', 9_000, 840, 9_840],
    ]);
  });

  it('counts a tagged trade’s fees in each of its tags', () => {
    const rows = computeBreakdown(createTradeSet([trade(10_000, 300, { tags: ['A+', 'FOMO'] }), trade(-2_000, 100, { tags: ['FOMO'] })]), 'tag', {
      timeZone: NY,
    }).rows;
    expect(rows.map((r) => [r.key, r.feesCents, r.grossCents])).toEqual([
      ['FOMO', 400, 8_400],
      ['A+', 300, 10_300],
    ]);
  });
});

describe('sessions in clock order', () => {
  it('orders the sessions as the trading day runs, not by trades or name; other names follow', () => {
    const trades = [
      trade(100, 0, { session: 'New York' }),
      trade(100, 0, { session: 'New York' }),
      trade(100, 0, { session: 'New York' }),
      trade(100, 0, { session: 'London' }),
      trade(100, 0, { session: 'London' }),
      trade(100, 0, { session: 'Asia' }),
      trade(100, 0, { session: 'Scalps' }),
      trade(100, 0, { session: 'After Hours' }),
    ];
    expect(computeBreakdown(createTradeSet(trades), 'session', { timeZone: NY }).rows.map((r) => r.key)).toEqual([
      'Asia',
      'London',
      'New York',
      'After Hours',
      'Scalps',
    ]);
    const exchange = ['PM', 'AM', 'Overnight', 'Lunch', 'After Hours'].map((session) => trade(100, 0, { session }));
    expect(computeBreakdown(createTradeSet(exchange), 'session', { timeZone: NY }).rows.map((r) => r.key)).toEqual([
      'Overnight',
      'AM',
      'Lunch',
      'PM',
      'After Hours',
    ]);
  });
});

describe('the hour chart’s empty hours', () => {
  it('fills the hours between the first and last hour with trades with zero rows, none outside', () => {
    const breakdown = computeBreakdown(
      createTradeSet([trade(5_000, 0, { at: '09:31' }), trade(-1_000, 0, { at: '12:10' }), trade(2_000, 0, { at: '09:59' })]),
      'hour',
      { timeZone: NY },
    );
    // The breakdown itself keeps only the hours with trades.
    expect(breakdown.rows.map((r) => r.key)).toEqual(['9', '12']);
    expect(fillHourSpan(breakdown.rows).map((r) => [r.label, r.trades, r.netCents])).toEqual([
      ['09:00-10:00', 2, 7_000],
      ['10:00-11:00', 0, 0],
      ['11:00-12:00', 0, 0],
      ['12:00-13:00', 1, -1_000],
    ]);
    expect(fillHourSpan([])).toEqual([]);
  });

  it('reads a night session across midnight as one span, from the evening into the morning', () => {
    // Entries at 22:10, 01:05 and 02:40 New York time: 22:00 to 03:00, not 01:00 to 23:00 with the day between.
    const night = computeBreakdown(
      createTradeSet([trade(500, 0, { at: '01:05' }), trade(700, 0, { at: '02:40' }), trade(-300, 0, { at: '22:10' })]),
      'hour',
      { timeZone: NY },
    );
    expect(fillHourSpan(night.rows).map((r) => [r.key, r.trades])).toEqual([
      ['22', 1],
      ['23', 0],
      ['0', 0],
      ['1', 1],
      ['2', 1],
    ]);
    // One hour alone is its own span.
    expect(fillHourSpan(night.rows.filter((r) => r.key === '22')).map((r) => r.key)).toEqual(['22']);
  });
});
