import { describe, expect, it } from 'vitest';
import {
  countActiveFilters,
  createReportFilter,
  describeHours,
  describeReportBasis,
  describeReportFilter,
  getHoldBucket,
  hasTradeLevelFilter,
  isSameReportFilter,
  parseReportFilterParams,
  readReportFilterParams,
  resolveReportRange,
  writeReportFilterParams,
  type ResolvedRange,
} from './filter';
import { createTradeSet, selectTrades, type ReportTrade } from './report-trade';

const NY = 'America/New_York';
// Wednesday Nov 25, 2026, 10:00 in New York.
const NOW = new Date('2026-11-25T15:00:00Z');

describe('date presets, ending today in the trader zone', () => {
  it.each([
    ['today', '2026-11-25', '2026-11-25'],
    ['this-week', '2026-11-23', '2026-11-25'],
    ['this-month', '2026-11-01', '2026-11-25'],
    ['last-30-days', '2026-10-27', '2026-11-25'],
    ['last-90-days', '2026-08-28', '2026-11-25'],
    ['this-year', '2026-01-01', '2026-11-25'],
  ] as const)('%s is %s to %s', (range, from, to) => {
    expect(resolveReportRange(createReportFilter({ range }), NOW, NY)).toEqual({ from, to });
  });

  it('all time is open both ways; custom is what was typed', () => {
    expect(resolveReportRange(createReportFilter(), NOW, NY)).toEqual({ from: null, to: null });
    expect(resolveReportRange(createReportFilter({ range: 'custom', from: '2026-01-05', to: null }), NOW, NY)).toEqual({
      from: '2026-01-05',
      to: null,
    });
  });

  it('at 20:00 on Nov 25 in New York it is already Nov 26 in Tokyo: Today follows the trader zone', () => {
    const evening = new Date('2026-11-26T01:00:00Z');
    expect(resolveReportRange(createReportFilter({ range: 'today' }), evening, NY)).toEqual({ from: '2026-11-25', to: '2026-11-25' });
    expect(resolveReportRange(createReportFilter({ range: 'today' }), evening, 'Asia/Tokyo')).toEqual({ from: '2026-11-26', to: '2026-11-26' });
  });

  it('this week on a Sunday still starts on the Monday before (weeks start on Monday)', () => {
    expect(resolveReportRange(createReportFilter({ range: 'this-week' }), new Date('2026-11-29T15:00:00Z'), NY)).toEqual({
      from: '2026-11-23',
      to: '2026-11-29',
    });
  });
});

describe('one trade against the filter', () => {
  // Wednesday Mar 4, 2026, 14:30 New York (EST, UTC-5), held 4 minutes.
  const entry = Date.parse('2026-03-04T19:30:00Z');
  const nqShort: ReportTrade = {
    id: 'nq-short',
    tradeDate: '2026-03-04',
    accountId: 'acct-a',
    symbol: 'NQ',
    contract: 'NQH6',
    side: 'Short',
    setup: 'Short',
    session: 'PM',
    tags: ['FOMO', 'A+'],
    status: 'Loss',
    pnlCents: -12_000,
    commissionCents: 428,
    entryMs: entry,
    exitMs: entry + 240_000,
    quantity: 2,
  };
  const all: ResolvedRange = { from: null, to: null };
  const matchesTrade = (trade: ReportTrade, patch: Parameters<typeof createReportFilter>[0], range = all) =>
    selectTrades(createTradeSet([trade]).columns, createReportFilter(patch), range, NY).rows.length === 1;
  const matches = (patch: Parameters<typeof createReportFilter>[0], range = all) => matchesTrade(nqShort, patch, range);

  it('an NQ short at 14:30 on a Wednesday, held 4 minutes, 2 contracts, tagged FOMO and A+', () => {
    expect(matches({})).toBe(true);
    expect(matches({ symbol: ['ES', 'NQ'], side: ['Short'], hour: [14, 15], weekday: [3], hold: ['1-5m'], sizeMin: 2, sizeMax: 2 })).toBe(true);
    expect(matches({ symbol: ['ES'] })).toBe(false);
    expect(matches({ side: ['Long'] })).toBe(false);
    expect(matches({ hour: [9] })).toBe(false);
    expect(matches({ hold: ['5-15m'] })).toBe(false);
    expect(matches({ sizeMin: 3 })).toBe(false);
    expect(matches({ result: ['Win', 'BE'] })).toBe(false);
    expect(matches({ account: ['unassigned'] })).toBe(false);
    expect(matches({ account: ['acct-b', 'acct-a'] })).toBe(true);
    expect(matches({ contract: ['NQH6'], setup: ['Short'], session: ['PM', 'AM'] })).toBe(true);
  });

  it('the same trade on a Tokyo clock is entered at 04:30: the hour follows the trader zone', () => {
    expect(selectTrades(createTradeSet([nqShort]).columns, createReportFilter({ hour: [4] }), all, 'Asia/Tokyo').rows.length).toBe(1);
  });

  it('tags any of, all of, none of', () => {
    expect(matches({ tag: ['FOMO', 'Revenge'], tagMode: 'any' })).toBe(true);
    expect(matches({ tag: ['FOMO', 'Revenge'], tagMode: 'all' })).toBe(false);
    expect(matches({ tag: ['FOMO', 'A+'], tagMode: 'all' })).toBe(true);
    expect(matches({ tag: ['Revenge'], tagMode: 'none' })).toBe(true);
    expect(matches({ tag: ['FOMO'], tagMode: 'none' })).toBe(false);
  });

  it('the day range is inclusive at both ends', () => {
    expect(matches({}, { from: '2026-03-04', to: '2026-03-04' })).toBe(true);
    expect(matches({}, { from: '2026-03-05', to: null })).toBe(false);
    expect(matches({}, { from: null, to: '2026-03-03' })).toBe(false);
  });

  it('a manual trade without times, size or side is left out by an hour, hold, size or side filter, and kept by the others', () => {
    const manual: ReportTrade = { ...nqShort, contract: null, side: null, quantity: null, accountId: null, entryMs: null, exitMs: null };
    expect(matchesTrade(manual, { hour: [14] })).toBe(false);
    expect(matchesTrade(manual, { hold: ['1-5m'] })).toBe(false);
    expect(matchesTrade(manual, { sizeMax: 10 })).toBe(false);
    expect(matchesTrade(manual, { side: ['Short'] })).toBe(false);
    expect(matchesTrade(manual, { symbol: ['NQ'], account: ['unassigned'] })).toBe(true);
  });

  it('a week of days picks its range of trades in order, whatever the days without trades', () => {
    const week = ['2026-03-02', '2026-03-03', '2026-03-05', '2026-03-06'].map((tradeDate, k) => ({ ...nqShort, id: `t${k}`, tradeDate }));
    const { columns } = createTradeSet(week);
    const ids = (range: ResolvedRange) => Array.from(selectTrades(columns, createReportFilter(), range, NY).rows, (i) => columns.id[i]);
    expect(ids({ from: '2026-03-03', to: '2026-03-05' })).toEqual(['t1', 't2']);
    expect(ids({ from: '2026-03-04', to: '2026-03-04' })).toEqual([]);
    expect(ids({ from: '2026-03-07', to: null })).toEqual([]);
    expect(ids({ from: null, to: '2026-03-01' })).toEqual([]);
    expect(ids({ from: '2026-01-01', to: '2026-12-31' })).toEqual(['t0', 't1', 't2', 't3']);
  });
});

describe('hold buckets: lower bound in, upper bound out', () => {
  it.each([
    [0, 'under-1m'],
    [59, 'under-1m'],
    [60, '1-5m'],
    [299, '1-5m'],
    [300, '5-15m'],
    [3599, '15-60m'],
    [3600, '1-4h'],
    [14_400, 'over-4h'],
  ] as const)('%i s is %s', (seconds, bucket) => {
    expect(getHoldBucket(seconds)).toBe(bucket);
  });
});

describe('the filter in the URL', () => {
  it('a plain filter writes nothing; a full one round-trips through the URL unchanged', () => {
    expect(writeReportFilterParams(createReportFilter()).toString()).toBe('');
    const filter = createReportFilter({
      range: 'custom',
      from: '2026-01-01',
      to: '2026-03-31',
      account: ['unassigned'],
      symbol: ['NQ', 'ES'],
      contract: ['NQH6'],
      side: ['Short'],
      setup: ['Breakout, retest'],
      session: ['PM'],
      tag: ['A+', 'FOMO'],
      tagMode: 'none',
      result: ['Loss'],
      weekday: [1, 5],
      hour: [14, 15],
      hold: ['1-5m'],
      sizeMin: 1,
      sizeMax: 2.5,
    });
    const url = writeReportFilterParams(filter);
    expect(url.getAll('symbol')).toEqual(['NQ', 'ES']);
    // A comma inside a value stays one value: lists are repeated parameters, not comma-joined.
    expect(url.getAll('setup')).toEqual(['Breakout, retest']);
    const back = parseReportFilterParams(new URLSearchParams(url.toString()));
    expect(back).toEqual(filter);
    expect(isSameReportFilter(back, filter)).toBe(true);
  });

  it('other parameters of the page are kept when the filter is written', () => {
    const params = writeReportFilterParams(createReportFilter({ symbol: ['NQ'] }), new URLSearchParams('by=hour&symbol=ES'));
    expect(params.toString()).toBe('by=hour&symbol=NQ');
  });

  it('a hand-edited link keeps what it can read: hour 25 and a bad date are dropped, not guessed', () => {
    const filter = parseReportFilterParams(
      new URLSearchParams('hour=25&hour=9&from=2026-02-30&to=2026-03-01&weekday=x&result=Win&result=Maybe&account=all'),
    );
    expect(filter.hour).toEqual([9]);
    expect(filter.range).toBe('custom');
    expect(filter.from).toBeNull();
    expect(filter.to).toBe('2026-03-01');
    expect(filter.weekday).toEqual([]);
    expect(filter.result).toEqual(['Win']);
    expect(filter.account).toEqual([]);
  });

  it('the raw reading the server validates: lists as arrays, the rest as the last value', () => {
    expect(readReportFilterParams(new URLSearchParams('symbol=NQ&range=today&range=this-week&hour=14'))).toEqual({
      range: 'this-week',
      symbol: ['NQ'],
      hour: ['14'],
    });
  });
});

describe('the filter in words', () => {
  const names = (id: string) => ({ 'acct-a': 'Apex 50K' })[id];

  it('NQ shorts after 14:00 in the last 90 days, in one account', () => {
    const filter = createReportFilter({ range: 'last-90-days', account: ['acct-a'], symbol: ['NQ'], side: ['Short'], hour: [14, 15, 16] });
    const range = resolveReportRange(filter, NOW, NY);
    expect(describeReportFilter(filter, range, names)).toBe(
      'Last 90 Days: Aug 28, 2026 to Nov 25, 2026; account Apex 50K; instrument NQ; side Short; entry 14:00-17:00',
    );
    expect(hasTradeLevelFilter(filter)).toBe(true);
    expect(countActiveFilters(filter)).toBe(5);
  });

  it('a basis line for the AI: trades, first and last day, and the filters', () => {
    const filter = createReportFilter({ symbol: ['ES'], tag: ['FOMO'], tagMode: 'none', weekday: [1] });
    expect(describeReportBasis({ trades: 12, firstDay: '2026-06-02', lastDay: '2026-06-30' }, filter, { from: null, to: null }, names)).toBe(
      'Computed from 12 trades, Jun 2, 2026 to Jun 30, 2026 (instrument ES; tags none of FOMO; day Monday)',
    );
    expect(
      describeReportBasis({ trades: 1, firstDay: '2026-06-02', lastDay: '2026-06-02' }, createReportFilter(), { from: null, to: null }, names),
    ).toBe('Computed from 1 trade, Jun 2, 2026');
  });

  it('an account the trader no longer has, unassigned trades, a size range and separate hours', () => {
    const filter = createReportFilter({ account: ['gone', 'unassigned'], sizeMin: 1, sizeMax: 3 });
    expect(describeReportFilter(filter, { from: null, to: null }, names)).toBe('All Time; account an unknown account or Unassigned; size 1-3');
    expect(describeHours([9, 10, 14, 23])).toBe('09:00-11:00, 14:00-15:00, 23:00-24:00');
    expect(hasTradeLevelFilter(createReportFilter({ account: ['acct-a'], range: 'today' }))).toBe(false);
  });
});

describe('the R and mistake filters', () => {
  const trade = (id: string, pnlCents: number, tags: string[]): ReportTrade => ({
    id,
    tradeDate: '2026-05-04',
    accountId: null,
    symbol: 'NQ',
    contract: null,
    side: null,
    setup: '',
    session: 'AM',
    tags,
    status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
    pnlCents,
    commissionCents: 0,
    entryMs: null,
    exitMs: null,
    quantity: 1,
  });
  // Planned risks by hand: a $300 plan losing $100 is -1/3R; $150 on $100 is +1.5R; $100 on $100 exactly +1R; no plan.
  const set = createTradeSet([
    trade('third', -10_000, ['fomo']),
    trade('one-half', 15_000, ['A+']),
    trade('one', 10_000, ['FOMO', 'Oversized']),
    trade('none', 5_000, []),
  ]);
  const risk = Float64Array.from([30_000, 10_000, 10_000, Number.NaN]);
  const mistakeTags = ['FOMO', 'Moved stop'];
  const pick = (patch: Parameters<typeof createReportFilter>[0]) =>
    [...selectTrades(set.columns, createReportFilter(patch), { from: null, to: null }, NY, { risk, mistakeTags }).rows].map((i) => set.columns.id[i]);

  it('an R range is inclusive and exact, and leaves out trades without a planned risk', () => {
    expect(pick({ rMin: 1 })).toEqual(['one-half', 'one']);
    expect(pick({ rMax: 1 })).toEqual(['third', 'one']);
    // -1/3R is below -0.33R and above -0.34R: no rounding to the R shown.
    expect(pick({ rMin: -0.33 })).toEqual(['one-half', 'one']);
    expect(pick({ rMin: -0.34, rMax: -0.33 })).toEqual(['third']);
    expect(pick({ rMin: 1.5, rMax: 1.5 })).toEqual(['one-half']);
  });

  it('has / has no planned risk', () => {
    expect(pick({ risk: 'with' })).toEqual(['third', 'one-half', 'one']);
    expect(pick({ risk: 'without' })).toEqual(['none']);
  });

  it("with / without a mistake, and given mistakes, compare tags as the Mistakes report does ('fomo' is FOMO)", () => {
    expect(pick({ mistakes: 'with' })).toEqual(['third', 'one']);
    expect(pick({ mistakes: 'without' })).toEqual(['one-half', 'none']);
    expect(pick({ mistake: ['Fomo'] })).toEqual(['third', 'one']);
    // A given tag need not be marked to be asked for; with 'with', the trade must also carry a marked one.
    expect(pick({ mistake: ['oversized'] })).toEqual(['one']);
    expect(pick({ mistake: ['Moved stop'] })).toEqual([]);
    expect(pick({ mistakes: 'without', risk: 'with' })).toEqual(['one-half']);
  });

  it('needs the planned risks or the mistakes it reads: never a silent "no trade has one"', () => {
    expect(() => selectTrades(set.columns, createReportFilter({ risk: 'with' }), { from: null, to: null }, NY)).toThrow(/planned risk/);
    expect(() => selectTrades(set.columns, createReportFilter({ mistakes: 'with' }), { from: null, to: null }, NY)).toThrow(/mistake tags/);
  });

  it('travels in the URL, counts in the badge, looks inside trades, and reads in words', () => {
    const filter = createReportFilter({ rMin: -1, rMax: 2.5, risk: 'with', mistakes: 'without', mistake: ['FOMO', 'Moved stop'] });
    const url = writeReportFilterParams(filter);
    expect(url.toString()).toBe('mistake=FOMO&mistake=Moved+stop&rMin=-1&rMax=2.5&risk=with&mistakes=without');
    expect(parseReportFilterParams(new URLSearchParams(url.toString()))).toEqual(filter);
    // A hand-edited bound with three decimals or beyond the limit is dropped, not rounded.
    expect(parseReportFilterParams(new URLSearchParams('rMin=1.234&rMax=20000&risk=maybe'))).toMatchObject({ rMin: null, rMax: null, risk: null });
    expect(countActiveFilters(filter)).toBe(3);
    expect(hasTradeLevelFilter(createReportFilter({ risk: 'without' }))).toBe(true);
    expect(hasTradeLevelFilter(createReportFilter({ mistake: ['FOMO'] }))).toBe(true);
    expect(describeReportFilter(filter, { from: null, to: null }, () => undefined)).toBe(
      'All Time; R-multiple -1R to +2.5R; without a mistake; mistake FOMO or Moved stop',
    );
    expect(describeReportFilter(createReportFilter({ risk: 'without' }), { from: null, to: null }, () => undefined)).toBe(
      'All Time; without a planned risk',
    );
    expect(describeReportFilter(createReportFilter({ rMin: 1 }), { from: null, to: null }, () => undefined)).toBe('All Time; R-multiple +1R or more');
  });
});
