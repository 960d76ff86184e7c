import { describe, expect, it } from 'vitest';
import { marketOf, symbolsOfMarkets } from '../instruments/figures';
import { computeBreakdown, getBreakdownRowFilter } from './breakdown';
import { createReportFilter, describeReportFilterParts, parseReportFilterParams, writeReportFilterParams } from './filter';
import { createTradeSet, selectTrades, type ReportTrade } from './report-trade';

const trade = (id: string, symbol: string, pnlCents: number): ReportTrade => ({
  id,
  tradeDate: '2026-03-02',
  accountId: 'acct-a',
  symbol,
  contract: null,
  side: 'Long',
  setup: '',
  session: 'AM',
  tags: [],
  status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  pnlCents,
  commissionCents: 0,
  entryMs: null,
  exitMs: null,
  quantity: 1,
});

const TRADES = [
  trade('1', 'NQ', 10_000),
  trade('2', 'MNQ', -2_500),
  trade('3', 'ES', 5_000),
  trade('4', 'MES', 1_250),
  trade('5', 'YM', -3_000),
  trade('6', 'MYM', 700),
  trade('7', 'RTY', 2_000),
  trade('8', 'M2K', -150),
  trade('9', 'MNQZ5', 400),
  trade('10', 'CL', 900),
  trade('11', 'BTCUSDT', -80),
];
const set = createTradeSet(TRADES);
const ALL = { from: null, to: null };
const ids = (filter = createReportFilter()) => Array.from(selectTrades(set.columns, filter, ALL, 'UTC').rows, (i) => set.columns.id[i]);

describe('markets: a micro counted with its full-size contract', () => {
  it('names the market of each symbol: micros their full-size contract, dated contracts their root, others themselves', () => {
    expect(['NQ', 'MNQ', 'ES', 'MES', 'YM', 'MYM', 'RTY', 'M2K', 'MNQZ5', 'NQH6', 'MGC'].map(marketOf)).toEqual([
      'NQ',
      'NQ',
      'ES',
      'ES',
      'YM',
      'YM',
      'RTY',
      'RTY',
      'NQ',
      'NQ',
      'GC',
    ]);
    // QM is a smaller crude contract but not a micro: its own market. Unknown symbols and spot crypto are their own.
    expect(['QM', 'CL', 'BTCUSDT', 'AAPL'].map(marketOf)).toEqual(['QM', 'CL', 'BTCUSDT', 'AAPL']);
    expect(symbolsOfMarkets(['MES'], ['NQ', 'ES', 'MES', 'MNQ', 'ESZ5']).sort()).toEqual(['ES', 'ESZ5', 'MES']);
  });

  it('filters an instrument as its whole market only when grouped', () => {
    expect(ids(createReportFilter({ symbol: ['NQ'] }))).toEqual(['1']);
    expect(ids(createReportFilter({ symbol: ['NQ'], markets: 'grouped' }))).toEqual(['1', '2', '9']);
    // Choosing the micro means its market too.
    expect(ids(createReportFilter({ symbol: ['M2K', 'MES'], markets: 'grouped' }))).toEqual(['3', '4', '7', '8']);
    expect(ids(createReportFilter({ symbol: ['CL'], markets: 'grouped' }))).toEqual(['10']);
  });

  it('breaks down by market when grouped, each market summing its micro and full-size trades in cents', () => {
    const separate = computeBreakdown(set, 'instrument', { timeZone: 'UTC' });
    expect(separate.rows.length).toBe(11);
    const grouped = computeBreakdown(set, 'instrument', { timeZone: 'UTC', markets: 'grouped' });
    const byKey = Object.fromEntries(grouped.rows.map((r) => [r.key, [r.trades, r.netCents]]));
    expect(byKey).toEqual({
      NQ: [3, 10_000 - 2_500 + 400],
      ES: [2, 6_250],
      YM: [2, -2_300],
      RTY: [2, 1_850],
      CL: [1, 900],
      BTCUSDT: [1, -80],
    });
    expect(grouped.rows.reduce((sum, r) => sum + r.netCents, 0)).toBe(TRADES.reduce((sum, t) => sum + t.pnlCents, 0));
    // A market's row opens the same trades it counts.
    const row = getBreakdownRowFilter(createReportFilter({ markets: 'grouped' }), ALL, 'instrument', 'NQ');
    expect(ids(row)).toEqual(['1', '2', '9']);
  });

  it('travels in a URL and says so in words', () => {
    const filter = createReportFilter({ symbol: ['NQ'], markets: 'grouped' });
    const params = writeReportFilterParams(filter);
    expect(params.get('markets')).toBe('grouped');
    expect(parseReportFilterParams(params)).toEqual(filter);
    expect(writeReportFilterParams(createReportFilter()).has('markets')).toBe(false);
    expect(describeReportFilterParts(filter, () => undefined)).toEqual(['market NQ', 'micros counted with their full-size contract']);
  });
});
