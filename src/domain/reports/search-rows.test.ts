import { describe, expect, it } from 'vitest';
import { buildTradeColumns, type ReportTrade } from './report-trade';
import { prepareRowSearch, toSearchTerm } from './search-rows';

const base: Omit<ReportTrade, 'id' | 'tradeDate'> = {
  accountId: null,
  symbol: 'NQ',
  contract: null,
  side: null,
  setup: 'Breakout',
  session: 'AM',
  tags: [],
  status: 'Win',
  pnlCents: 100,
  commissionCents: 0,
  entryMs: null,
  exitMs: null,
  quantity: null,
};
// Mon 4 May 2026 .. Wed 6 May.
const columns = buildTradeColumns([
  { ...base, id: 'a', tradeDate: '2026-05-04', contract: 'NQM6', tags: ['A+', 'FOMO'], accountId: 'acc-1' },
  { ...base, id: 'b', tradeDate: '2026-05-04', symbol: 'ES', setup: 'Pullback', tags: ['FOMO', 'A+'], status: 'Loss' },
  { ...base, id: 'c', tradeDate: '2026-05-05', symbol: 'CL', session: 'PM', tags: ['Été'], status: 'BE', accountId: 'acc-2' },
  { ...base, id: 'd', tradeDate: '2026-05-06', symbol: 'MES', setup: 'Opening Drive', tags: [] },
]);
const names = new Map([
  ['acc-1', 'Topstep Combine'],
  ['acc-2', 'Apex_50K'],
]);
const every = Uint32Array.from([0, 1, 2, 3]);

/** The ids a term finds, with the database's lower case of non-ASCII texts given as `lowered`, notes' matches as `notes`. */
function find(term: string, options: { rows?: Uint32Array; lowered?: Record<string, string>; notes?: string[] } = {}) {
  const search = prepareRowSearch(columns, options.rows ?? every, toSearchTerm(term), (id) => names.get(id));
  const lowered = new Map(search.texts.map((text) => [text, options.lowered?.[text] ?? text]));
  return { ids: Array.from(search.match(lowered, new Set(options.notes ?? [])), (i) => columns.id[i]), texts: search.texts };
}

describe("the Trade Log's search over the report copy", () => {
  it('finds a term in any one searched column, ignoring ASCII case', () => {
    expect(find('nq').ids).toEqual(['a']); // symbol and contract
    expect(find('M6').ids).toEqual(['a']); // contract only
    expect(find('PULLBACK').ids).toEqual(['b']); // setup
    expect(find('pm').ids).toEqual(['c']); // session
    expect(find('loss').ids).toEqual(['b']); // status
    expect(find('be').ids).toEqual(['c']);
    expect(find('tuesday').ids).toEqual(['c']); // day of week
    expect(find('combine').ids).toEqual(['a']); // account name
    expect(find('_50k').ids).toEqual(['c']);
    expect(find('zzz').ids).toEqual([]);
  });

  it('matches tags within one tag, or across them in their stored order when the term has a space', () => {
    expect(find('fomo').ids).toEqual(['a', 'b']);
    expect(find('A+ FOMO').ids).toEqual(['a']);
    expect(find('fomo a+').ids).toEqual(['b']);
    expect(find('opening drive').ids).toEqual(['d']);
  });

  it('adds the trades whose notes match, searches only the rows given, and strips the separator and blanks of a term', () => {
    expect(find('zzz', { notes: ['d', 'x'] }).ids).toEqual(['d']);
    expect(find('fomo', { rows: Uint32Array.from([1, 3]) }).ids).toEqual(['b']);
    expect(toSearchTerm('  fo\x1fmo ')).toBe('fomo');
  });

  it('asks the database for the lower case of texts that are not ASCII, and uses its answer', () => {
    const { texts } = find('été');
    expect(texts.sort()).toEqual(['Été', 'été']);
    // A database that folds accented letters finds 'Été' for 'été'; one in the C locale (it leaves them) does not.
    expect(find('été', { lowered: { Été: 'été' } }).ids).toEqual(['c']);
    expect(find('été').ids).toEqual([]);
    expect(find('ÉTÉ', { lowered: { ÉTÉ: 'été', Été: 'été' } }).ids).toEqual(['c']);
    // The joined tags are asked whole when the term has a space.
    expect(find('a+ é').texts).toEqual(['a+ é', 'Été']);
  });
});
