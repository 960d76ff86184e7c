import { describe, expect, it } from 'vitest';
import {
  countActiveFilters,
  createReportFilter,
  describeReportFilter,
  hasTradeLevelFilter,
  parseReportFilterParams,
  writeReportFilterParams,
} from './filter';
import { isNearEvent, sortEventInstants } from './news';
import { createTradeSet, selectTrades, type ReportTrade } from './report-trade';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
// CPI at 13:30 UTC and the FOMC statement at 19:00 UTC on Wednesday Dec 9, 2026, given out of order.
const CPI = at('2026-12-09T13:30:00Z');
const FOMC = at('2026-12-09T19:00:00Z');
const EVENTS = sortEventInstants([FOMC, CPI]);

describe('a trade near high-impact news (15 minutes either side)', () => {
  const near = (iso: string) => isNearEvent(EVENTS, at(iso), 15 * MINUTE);

  it('counts an entry exactly 15 minutes before or after an event, and not one second more', () => {
    expect(near('2026-12-09T13:15:00Z')).toBe(true);
    expect(near('2026-12-09T13:14:59Z')).toBe(false);
    expect(near('2026-12-09T13:45:00Z')).toBe(true);
    expect(near('2026-12-09T13:45:01Z')).toBe(false);
  });

  it('counts an entry at the event itself, and one inside the window of either event', () => {
    expect(near('2026-12-09T13:30:00Z')).toBe(true);
    expect(near('2026-12-09T18:50:00Z')).toBe(true);
    expect(near('2026-12-09T19:15:00Z')).toBe(true);
  });

  it('leaves out an entry between two events that is far from both, and ones before the first and after the last', () => {
    // 16:15 is 2h45m after CPI and 2h45m before the FOMC.
    expect(near('2026-12-09T16:15:00Z')).toBe(false);
    expect(near('2026-12-08T13:30:00Z')).toBe(false);
    expect(near('2026-12-09T19:15:01Z')).toBe(false);
  });

  it('finds the right event among many: one on each side of the entry, only the later one close enough', () => {
    const many = sortEventInstants([0, 1, 2, 3, 4, 5, 6, 7].map((h) => at('2026-12-07T00:00:00Z') + h * 60 * MINUTE));
    // 03:40 is 40 minutes after 03:00 and 20 minutes before 04:00.
    expect(isNearEvent(many, at('2026-12-07T03:40:00Z'), 20 * MINUTE)).toBe(true);
    expect(isNearEvent(many, at('2026-12-07T03:40:00Z'), 19 * MINUTE)).toBe(false);
    expect(isNearEvent(many, at('2026-12-07T03:20:00Z'), 20 * MINUTE)).toBe(true);
  });

  it('finds nothing near when there are no events', () => {
    expect(isNearEvent(sortEventInstants([]), CPI, 60 * MINUTE)).toBe(false);
  });
});

describe('the news filter key', () => {
  const trade = (id: string, entry: string | null): ReportTrade => ({
    id,
    tradeDate: '2026-12-09',
    accountId: null,
    symbol: 'NQ',
    contract: null,
    side: 'Long',
    setup: '',
    session: 'AM',
    tags: [],
    status: 'Win',
    pnlCents: 1_000,
    commissionCents: 0,
    entryMs: entry === null ? null : at(entry),
    exitMs: null,
    quantity: 1,
  });
  // In trading order: 13:10 (20 min before CPI), 13:20 (10 before), 13:45 (15 after), no entry time, 18:59 (1 before FOMC).
  const { columns } = createTradeSet([
    trade('early', '2026-12-09T13:10:00Z'),
    trade('ten-before', '2026-12-09T13:20:00Z'),
    trade('fifteen-after', '2026-12-09T13:45:00Z'),
    trade('no-entry', null),
    trade('fomc', '2026-12-09T18:59:00Z'),
  ]);
  const all = { from: null, to: null };
  const picked = (news: 5 | 15 | 30 | 60, newsMode: 'near' | 'away', events: Float64Array = EVENTS) =>
    Array.from(selectTrades(columns, createReportFilter({ news, newsMode }), all, 'UTC', { newsEvents: events }).rows, (i) => columns.id[i]);

  it('keeps the trades entered within the window of an event, or (away) the ones entered outside every window', () => {
    expect(picked(15, 'near')).toEqual(['ten-before', 'fifteen-after', 'fomc']);
    expect(picked(5, 'near')).toEqual(['fomc']);
    expect(picked(30, 'near')).toEqual(['early', 'ten-before', 'fifteen-after', 'fomc']);
    // A trade without an entry time is neither near nor away.
    expect(picked(15, 'away')).toEqual(['early']);
  });

  it('with no stored events keeps nothing near news and every timed trade away from it', () => {
    expect(picked(60, 'near', sortEventInstants([]))).toEqual([]);
    expect(picked(60, 'away', sortEventInstants([]))).toEqual(['early', 'ten-before', 'fifteen-after', 'fomc']);
  });

  it('refuses to guess when the events were not given', () => {
    expect(() => selectTrades(columns, createReportFilter({ news: 15 }), all, 'UTC')).toThrow(/news filter/);
  });

  it('travels in the URL (the mode only when it is away), counts as one filter inside trades, and reads in words', () => {
    const near = createReportFilter({ news: 15 });
    const away = createReportFilter({ news: 30, newsMode: 'away' });
    expect(writeReportFilterParams(near).toString()).toBe('news=15');
    expect(writeReportFilterParams(away).toString()).toBe('news=30&newsMode=away');
    expect(parseReportFilterParams(new URLSearchParams('news=30&newsMode=away'))).toEqual(away);
    // Windows the filter bar does not offer are left at the default, never rounded to one it does.
    expect(parseReportFilterParams(new URLSearchParams('news=10')).news).toBeNull();
    expect(countActiveFilters(near)).toBe(1);
    expect(hasTradeLevelFilter(near)).toBe(true);
    expect(hasTradeLevelFilter(createReportFilter({ newsMode: 'away' }))).toBe(false);
    expect(describeReportFilter(near, all, () => undefined)).toBe('All Time; within 15 min of high-impact USD news');
    expect(describeReportFilter(away, all, () => undefined)).toBe('All Time; more than 30 min from high-impact USD news');
  });
});
