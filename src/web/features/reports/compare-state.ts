import { BREAKDOWNS, type BreakdownBy } from '../../../domain/reports/breakdown';
import { COMPARE_SET_KEYS, MAX_COMPARE_SETS } from '../../../domain/reports/compare-sets';
import { parseReportFilterParams, REPORT_FILTER_KEYS, writeReportFilterParams } from '../../../domain/reports/filter';

/**
 * Compare's sets live in the page's URL, so a comparison can be shared and walked back: set A is the page's own
 * filter, B, C and D their filters under a prefix (?b.side=Short&c.symbol=ES), and `sets` says how many are shown
 * (an added set with no filter yet writes no parameter of its own). `by` is the dimension of the breakdowns shown side
 * by side, none when left out.
 */
export const COMPARE_SET_PREFIXES = ['', 'b.', 'c.', 'd.'] as const;
export const COMPARE_SETS_PARAM = 'sets';
export const COMPARE_SET_LETTERS = COMPARE_SET_KEYS.map((key) => key.toUpperCase());
export const COMPARE_BY_PARAM = 'by';
const MIN_SETS = 2;

export type CompareAction =
  | { type: 'add' }
  | { type: 'remove'; index: number }
  | { type: 'reset' }
  /** A saved view's filter (its URL text) becomes set `index`'s filter, in place of the set's own. */
  | { type: 'load'; index: number; filter: string }
  | { type: 'breakdown'; by: BreakdownBy | null };

const FILTER_KEYS: ReadonlySet<string> = new Set(REPORT_FILTER_KEYS);
/** Which set a parameter belongs to (0 for A), or null for another parameter of the page. */
function setOf(key: string): number | null {
  for (let i = COMPARE_SET_PREFIXES.length - 1; i >= 1; i--) {
    const prefix = COMPARE_SET_PREFIXES[i]!;
    if (key.startsWith(prefix) && FILTER_KEYS.has(key.slice(prefix.length))) return i;
  }
  return FILTER_KEYS.has(key) ? 0 : null;
}

/** How many sets the URL shows: what `sets` says, and never fewer than the last set with a filter of its own. */
export function readCompareSetCount(params: URLSearchParams): number {
  const asked = Number(params.get(COMPARE_SETS_PARAM));
  let count = Number.isInteger(asked) ? Math.min(Math.max(asked, MIN_SETS), MAX_COMPARE_SETS) : MIN_SETS;
  for (const key of params.keys()) {
    const set = setOf(key);
    if (set !== null) count = Math.max(count, set + 1);
  }
  return count;
}

/** The dimension of the breakdowns side by side, or null for none (an unknown one is none). */
export function readCompareBy(params: URLSearchParams): BreakdownBy | null {
  const by = params.get(COMPARE_BY_PARAM);
  return BREAKDOWNS.find((b) => b === by) ?? null;
}

/**
 * The URL after an action: 'add' shows one more set (up to four) with no filter yet; 'remove' drops set B, C or D
 * and moves the sets after it up a letter; 'reset' keeps A and B only (a preset sets both); 'load' puts a saved view's
 * filter in one set, every other set and the number of sets as they were; 'breakdown' picks the breakdowns' dimension.
 */
export function compareParams(params: URLSearchParams, action: CompareAction): URLSearchParams {
  const count = readCompareSetCount(params);
  const next = new URLSearchParams();
  const write = (count: number) => (count > MIN_SETS ? next.set(COMPARE_SETS_PARAM, String(count)) : next.delete(COMPARE_SETS_PARAM));
  switch (action.type) {
    case 'add':
      for (const [key, value] of params) if (key !== COMPARE_SETS_PARAM) next.append(key, value);
      write(Math.min(count + 1, MAX_COMPARE_SETS));
      return next;
    case 'remove': {
      if (action.index < 1 || action.index >= count || count <= MIN_SETS) return new URLSearchParams(params);
      for (const [key, value] of params) {
        if (key === COMPARE_SETS_PARAM) continue;
        const set = setOf(key);
        if (set === null || set < action.index) next.append(key, value);
        else if (set > action.index) next.append(`${COMPARE_SET_PREFIXES[set - 1]}${key.slice(COMPARE_SET_PREFIXES[set]!.length)}`, value);
      }
      write(count - 1);
      return next;
    }
    case 'load': {
      if (action.index < 0 || action.index >= count) return new URLSearchParams(params);
      for (const [key, value] of params) if (key !== COMPARE_SETS_PARAM && setOf(key) !== action.index) next.append(key, value);
      // Through the filter model, so a view saved before a key was renamed or dropped loads only what the filter reads.
      const view = writeReportFilterParams(parseReportFilterParams(new URLSearchParams(action.filter)));
      for (const [key, value] of view) next.append(`${COMPARE_SET_PREFIXES[action.index]}${key}`, value);
      write(count);
      return next;
    }
    case 'breakdown':
      for (const [key, value] of params) if (key !== COMPARE_BY_PARAM) next.append(key, value);
      if (action.by) next.set(COMPARE_BY_PARAM, action.by);
      return next;
    case 'reset':
      for (const [key, value] of params) {
        const set = setOf(key);
        if (key !== COMPARE_SETS_PARAM && (set === null || set < MIN_SETS)) next.append(key, value);
      }
      return next;
  }
}
