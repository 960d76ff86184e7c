import { DAY_NAMES } from '../dates/calendar-day';
import { RESULT_NAMES, type TradeColumns } from './report-trade';

/**
 * The Trade Log's search over the report copy (the R panel of the Trade Log narrows its trades as the list
 * does). The list asks the database's search function (migrations trade_search and trade_search_contract): a trade
 * matches when `symbol, contract, trade_type, period, status, notes, day_of_week, tags joined by ' '`, joined by a unit
 * separator, ILIKE '%term%', or when its account's name does. The separator is stripped from terms, so a match lies in
 * one column: each distinct text of a column is tested once and the trades by their codes. Notes are not in the copy:
 * the server asks the database which trades' notes match.
 *
 * ILIKE compares lower(text) with lower(pattern), and lower() is the database's (its locale: the C locale of an
 * embedded
 * database folds only ASCII, a libc or ICU one accented letters too). An ASCII text's lower case is the same in both
 * (a Turkish locale aside); every other text's lower case is asked of the database (`texts`), so the two never differ.
 */

/** The term the list searches for: without the separator that joins the searched columns, trimmed; '' is none. */
export const toSearchTerm = (q: string) => q.replace(/\x1f/g, '').trim();

const isAscii = (text: string) => /^[\x00-\x7f]*$/.test(text);

export interface RowSearch {
  /** The texts whose lower case must come from the database (those not ASCII), each once. */
  texts: string[];
  /**
   * The rows that match, in their order. `lowered` holds the database's lower case of `texts`; `notes` the ids of the
   * trades whose notes match.
   */
  match(lowered: ReadonlyMap<string, string>, notes: ReadonlySet<string>): Uint32Array;
}

/** The search of `term` (toSearchTerm's, not blank) in `rows` of the columns; accounts' names by id. */
export function prepareRowSearch(columns: TradeColumns, rows: Uint32Array, term: string, accountName: (id: string) => string | undefined): RowSearch {
  const c = columns;
  // A term without a space matches the tags' joined text only within one tag; one with a space may span two
  // ('A+ FOMO'), so each distinct sequence of tags is joined as the database joins them.
  const spans = term.includes(' ');
  const sequenceOf = spans ? new Int32Array(rows.length).fill(-1) : null;
  const sequences: string[] = [];
  if (sequenceOf) {
    const byCodes = new Map<string, number>();
    for (let k = 0; k < rows.length; k++) {
      const i = rows[k]!;
      const from = c.tagStart[i]!;
      const to = c.tagStart[i + 1]!;
      if (from === to) continue;
      const key = c.tagCodes.subarray(from, to).join(',');
      let code = byCodes.get(key);
      if (code === undefined) {
        code = sequences.length;
        sequences.push(Array.from(c.tagCodes.subarray(from, to), (tag) => c.tagValues[tag]!).join(' '));
        byCodes.set(key, code);
      }
      sequenceOf[k] = code;
    }
  }
  const accountNames = c.account.values.map((id) => (id === null ? null : (accountName(id) ?? null)));
  const texts = new Set<string>();
  const need = (values: Iterable<string | null>) => {
    for (const value of values) if (value !== null && !isAscii(value)) texts.add(value);
  };
  need([term]);
  need(c.symbol.values);
  need(c.contract.values);
  need(c.setup.values);
  need(c.session.values);
  need(spans ? sequences : c.tagValues);
  need(accountNames);

  return {
    texts: [...texts],
    match(lowered, notes) {
      const lower = (text: string) => (isAscii(text) ? text.toLowerCase() : (lowered.get(text) ?? text.toLowerCase()));
      const needle = lower(term);
      const test = (values: ReadonlyArray<string | null>) =>
        Uint8Array.from(values, (value) => (value !== null && lower(value).includes(needle) ? 1 : 0));
      const symbol = test(c.symbol.values);
      const contract = test(c.contract.values);
      const setup = test(c.setup.values);
      const session = test(c.session.values);
      const status = test(RESULT_NAMES);
      // By ISO weekday (Monday 1 ... Sunday 7), as the copy keeps each day's.
      const weekday = test(Array.from({ length: 8 }, (_, d) => (d === 0 ? null : DAY_NAMES[d % 7]!)));
      const account = test(accountNames);
      const tag = test(spans ? sequences : c.tagValues);
      const out = new Uint32Array(rows.length);
      let n = 0;
      for (let k = 0; k < rows.length; k++) {
        const i = rows[k]!;
        let found: number | boolean =
          symbol[c.symbol.codes[i]!]! ||
          contract[c.contract.codes[i]!]! ||
          setup[c.setup.codes[i]!]! ||
          session[c.session.codes[i]!]! ||
          status[c.result[i]!]! ||
          weekday[c.dayWeekday[c.day[i]!]!]! ||
          account[c.account.codes[i]!]!;
        if (!found && sequenceOf) found = sequenceOf[k]! >= 0 && tag[sequenceOf[k]!]!;
        if (!found && !sequenceOf) {
          for (let t = c.tagStart[i]!; t < c.tagStart[i + 1]! && !found; t++) found = tag[c.tagCodes[t]!]!;
        }
        if (found || (notes.size > 0 && notes.has(c.id[i]!))) out[n++] = i;
      }
      return out.subarray(0, n);
    },
  };
}
