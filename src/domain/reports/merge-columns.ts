import { buildTradeColumns, dayOf, getIsoWeekday, type ReportTrade, type TextColumn, type TradeColumns } from './report-trade';
import { createRiskPricer } from './r-multiples';
import { getHourOfInstant } from './zone-clock';

/**
 * A trader's columns brought up to date with the trades that changed since they were built (issue 26): the server keeps
 * the columns between reports and, after a write, reads only the changed trades. The merge writes the same columns a
 * build of every trade writes (same rows in the same trading order, same codes), so a report cannot tell the two apart.
 *
 * The trading order is compared on the keys as stored, not on the columns' milliseconds: the day's instant and the
 * times in microseconds (src/domain/trades/trading-order.ts), then the id as PostgreSQL compares uuids (their hex text).
 */

/** A trade with its place in the trading order: day (epoch seconds of trade_date), then times in epoch microseconds. */
export interface OrderedTrade {
  trade: ReportTrade;
  day: number;
  /** Entry, else exit, else creation. */
  first: number;
  /** Exit, else entry, else creation. */
  second: number;
  created: number;
}

/** The same keys for every row of columns. */
export interface TradeKeys {
  day: Float64Array;
  first: Float64Array;
  second: Float64Array;
  created: Float64Array;
}

export interface OrderedColumns {
  columns: TradeColumns;
  keys: TradeKeys;
}

/** Negative when `a` comes first in the trading order. */
export function compareOrderedTrades(a: OrderedTrade, b: OrderedTrade): number {
  return a.day - b.day || a.first - b.first || a.second - b.second || a.created - b.created || compareIds(a.trade.id, b.trade.id);
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function createKeys(size: number): TradeKeys {
  return { day: new Float64Array(size), first: new Float64Array(size), second: new Float64Array(size), created: new Float64Array(size) };
}

function setKeys(keys: TradeKeys, i: number, t: OrderedTrade) {
  keys.day[i] = t.day;
  keys.first[i] = t.first;
  keys.second[i] = t.second;
  keys.created[i] = t.created;
}

/** Columns of trades in any order: sorted into the trading order (the array itself is sorted). */
export function buildOrderedColumns(trades: OrderedTrade[]): OrderedColumns {
  trades.sort(compareOrderedTrades);
  const keys = createKeys(trades.length);
  trades.forEach((t, i) => setKeys(keys, i, t));
  return { columns: buildTradeColumns(trades.map((t) => t.trade)), keys };
}

/** First index of `keys` (all rows, in trading order) that comes after `t`. */
function findPlace(keys: TradeKeys, ids: readonly string[], t: OrderedTrade): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const order =
      t.day - keys.day[mid]! || t.first - keys.first[mid]! || t.second - keys.second[mid]! || t.created - keys.created[mid]! || compareIds(t.trade.id, ids[mid]!);
    if (order > 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * A text column of rows gathered from two columns (`origin[i]` >= 0: row of `a`, else row -origin[i] - 1 of `b`), its
 * codes given where each text first appears, as a build gives them.
 */
function gatherText(a: TextColumn, b: TextColumn, origin: Int32Array): TextColumn {
  const values: Array<string | null> = [null];
  const index = new Map<string, number>();
  const code = (value: string) => {
    let known = index.get(value);
    if (known === undefined) {
      known = values.length;
      values.push(value);
      index.set(value, known);
    }
    return known;
  };
  const fromA = new Int32Array(a.values.length).fill(-1);
  const fromB = new Int32Array(b.values.length).fill(-1);
  fromA[0] = 0;
  fromB[0] = 0;
  const codes = new Uint32Array(origin.length);
  for (let i = 0; i < origin.length; i++) {
    const o = origin[i]!;
    if (o >= 0) {
      const from = a.codes[o]!;
      let to = fromA[from]!;
      if (to < 0) fromA[from] = to = code(a.values[from]!);
      codes[i] = to;
    } else {
      const from = b.codes[-o - 1]!;
      let to = fromB[from]!;
      if (to < 0) fromB[from] = to = code(b.values[from]!);
      codes[i] = to;
    }
  }
  return { codes, values };
}

/**
 * The rows of a merge as runs: `length` rows from `start` of the base (`fromBase`) or of the added trades, written from
 * row `to`. Between two changed trades the base's rows come as one run, copied whole (TypedArray.set).
 */
interface Run {
  to: number;
  fromBase: boolean;
  start: number;
  length: number;
}

function toRuns(origin: Int32Array): Run[] {
  const runs: Run[] = [];
  let last: Run | null = null;
  for (let i = 0; i < origin.length; i++) {
    const o = origin[i]!;
    const fromBase = o >= 0;
    const start = fromBase ? o : -o - 1;
    if (last && last.fromBase === fromBase && last.start + last.length === start) last.length++;
    else runs.push((last = { to: i, fromBase, start, length: 1 }));
  }
  return runs;
}

function gatherNumbers<T extends Float64Array | Uint8Array | Int8Array>(make: (size: number) => T, a: T, b: T, runs: readonly Run[], size: number): T {
  const out = make(size);
  for (const run of runs) out.set((run.fromBase ? a : b).subarray(run.start, run.start + run.length), run.to);
  return out;
}

/**
 * `base` with every trade whose id is in `changed` taken out and `current` (the changed trades that still exist, as
 * they are now, in any order) put in at their places in the trading order. A changed id missing from `current` was
 * deleted. Entry hours already computed for a zone and planned risks priced under the trader's defaults are carried
 * over (computed for the changed trades only). The rows are
 * gathered column by column (not an object per trade), the base's rows between two changed trades copied as one run:
 * at 100,000 trades this is what keeps the first report after an import fast.
 */
export function mergeOrderedColumns(base: OrderedColumns, changed: ReadonlySet<string>, current: readonly OrderedTrade[]): OrderedColumns {
  const { columns: a, keys: oldKeys } = base;
  const added = [...current].sort(compareOrderedTrades);
  for (const t of added) if (!changed.has(t.trade.id)) throw new RangeError(`mergeOrderedColumns: trade ${t.trade.id} is not among the changed`);
  const b = buildTradeColumns(added.map((t) => t.trade));
  const places = added.map((t) => findPlace(oldKeys, a.id, t));

  let removed = 0;
  const keep = new Uint8Array(a.size).fill(1);
  if (changed.size > 0) {
    for (let i = 0; i < a.size; i++) {
      if (changed.has(a.id[i]!)) {
        keep[i] = 0;
        removed++;
      }
    }
  }
  const size = a.size - removed + added.length;
  /** Per new row: the old row it came from (>= 0), or -(k + 1) for added trade k. */
  const origin = new Int32Array(size);
  let out = 0;
  let next = 0;
  for (let i = 0; i < a.size; i++) {
    while (next < added.length && places[next]! <= i) origin[out++] = -(++next);
    if (keep[i]) origin[out++] = i;
  }
  while (next < added.length) origin[out++] = -(++next);

  const runs = toRuns(origin);
  const f64 = (n: number) => new Float64Array(n);
  const addedKeys = createKeys(added.length);
  added.forEach((t, k) => setKeys(addedKeys, k, t));
  const keys: TradeKeys = {
    day: gatherNumbers(f64, oldKeys.day, addedKeys.day, runs, size),
    first: gatherNumbers(f64, oldKeys.first, addedKeys.first, runs, size),
    second: gatherNumbers(f64, oldKeys.second, addedKeys.second, runs, size),
    created: gatherNumbers(f64, oldKeys.created, addedKeys.created, runs, size),
  };
  const id: string[] = new Array(size);
  const days: string[] = [];
  const day = new Uint32Array(size);
  const starts: number[] = [];
  let tagCount = 0;
  for (const run of runs) {
    const src = run.fromBase ? a : b;
    tagCount += src.tagStart[run.start + run.length]! - src.tagStart[run.start]!;
    for (let k = 0; k < run.length; k++) {
      const i = run.to + k;
      const o = run.start + k;
      id[i] = src.id[o]!;
      const dayText = src.days[src.day[o]!]!;
      if (days.length === 0 || days[days.length - 1] !== dayText) {
        days.push(dayText);
        starts.push(i);
      }
      day[i] = days.length - 1;
    }
  }
  starts.push(size);

  // Tags: codes where each first appears, as for the other texts.
  const tagValues: string[] = [];
  const tagIndex = new Map<string, number>();
  const tagFromA = new Int32Array(a.tagValues.length).fill(-1);
  const tagFromB = new Int32Array(b.tagValues.length).fill(-1);
  const tagStart = new Uint32Array(size + 1);
  const tagCodes = new Uint32Array(tagCount);
  let t = 0;
  const tagCode = (value: string) => {
    let known = tagIndex.get(value);
    if (known === undefined) {
      known = tagValues.length;
      tagValues.push(value);
      tagIndex.set(value, known);
    }
    return known;
  };
  for (let i = 0; i < size; i++) {
    tagStart[i] = t;
    const o = origin[i]!;
    const src = o >= 0 ? a : b;
    const row = o >= 0 ? o : -o - 1;
    const map = o >= 0 ? tagFromA : tagFromB;
    for (let k = src.tagStart[row]!, end = src.tagStart[row + 1]!; k < end; k++) {
      const from = src.tagCodes[k]!;
      let to = map[from]!;
      if (to < 0) map[from] = to = tagCode(src.tagValues[from]!);
      tagCodes[t++] = to;
    }
  }
  tagStart[size] = t;

  const entry = gatherNumbers(f64, a.entry, b.entry, runs, size);
  const hoursByZone = new Map<string, Int8Array>();
  for (const [zone, hours] of a.hoursByZone) {
    const ofAdded = Int8Array.from(b.entry, (ms) => (Number.isNaN(ms) ? -1 : getHourOfInstant(ms, zone)));
    hoursByZone.set(zone, gatherNumbers((n) => new Int8Array(n), hours, ofAdded, runs, size));
  }
  const columns: TradeColumns = {
    size,
    id,
    days,
    dayWeekday: Uint8Array.from(days, getIsoWeekday),
    day,
    dayStart: Uint32Array.from(starts),
    result: gatherNumbers((n) => new Uint8Array(n), a.result, b.result, runs, size),
    pnl: gatherNumbers(f64, a.pnl, b.pnl, runs, size),
    fee: gatherNumbers(f64, a.fee, b.fee, runs, size),
    entry,
    exit: gatherNumbers(f64, a.exit, b.exit, runs, size),
    hold: gatherNumbers(f64, a.hold, b.hold, runs, size),
    quantity: gatherNumbers(f64, a.quantity, b.quantity, runs, size),
    ownRisk: gatherNumbers(f64, a.ownRisk, b.ownRisk, runs, size),
    account: gatherText(a.account, b.account, origin),
    symbol: gatherText(a.symbol, b.symbol, origin),
    contract: gatherText(a.contract, b.contract, origin),
    side: gatherText(a.side, b.side, origin),
    setup: gatherText(a.setup, b.setup, origin),
    playbook: gatherText(a.playbook, b.playbook, origin),
    ticked: gatherNumbers((n) => new Uint8Array(n), a.ticked, b.ticked, runs, size),
    session: gatherText(a.session, b.session, origin),
    tagStart,
    tagCodes,
    tagValues,
    hoursByZone,
    riskByDefaults: new Map(),
  };
  // Planned risks priced under the defaults: carried over, priced for the changed trades only.
  for (const [key, { defaults, risk }] of a.riskByDefaults) {
    const price = createRiskPricer(b, defaults);
    const ofAdded = Float64Array.from(b.ownRisk, (own, k) => (Number.isNaN(own) && defaults.length > 0 ? price(k) : own));
    columns.riskByDefaults.set(key, { defaults, risk: gatherNumbers(f64, risk, ofAdded, runs, size) });
  }
  return { columns, keys };
}

const TEXT_COLUMNS = ['account', 'symbol', 'contract', 'side', 'setup', 'playbook', 'session'] as const;
const NUMBER_COLUMNS = ['result', 'pnl', 'fee', 'entry', 'exit', 'hold', 'quantity', 'ownRisk', 'ticked'] as const;

/** Equal as stored in a Float64Array: NaN (no value) equals NaN. */
const sameNumber = (x: number, y: number) => x === y || (x !== x && y !== y);

/** The code of a text in a column, built once per column asked: 0 for null, undefined for a text the column lacks. */
function createCodeLookup(values: ReadonlyArray<string | null>): (value: string | null) => number | undefined {
  let index: Map<string, number> | null = null;
  return (value) => {
    if (value === null) return 0;
    if (!index) {
      index = new Map();
      for (let code = 1; code < values.length; code++) index.set(values[code]!, code);
    }
    return index.get(value);
  };
}

/**
 * For each (code, row) asked: is there an unchanged row before `row` that holds the code? Then the code's first
 * appearance, which decides its number in a build, is not moved by the changed rows. `codesOf(u)` lists row u's codes.
 */
function appearEarlier(asked: ReadonlyArray<{ code: number; row: number }>, changedRows: ReadonlySet<number>, codesOf: (u: number, found: (code: number) => void) => void): boolean {
  if (asked.length === 0) return true;
  const wanted = new Set(asked.map((x) => x.code));
  const limit = Math.max(...asked.map((x) => x.row));
  const first = new Map<number, number>();
  for (let u = 0; u < limit && first.size < wanted.size; u++) {
    if (changedRows.has(u)) continue;
    codesOf(u, (code) => {
      if (wanted.has(code) && !first.has(code)) first.set(code, u);
    });
  }
  return asked.every(({ code, row }) => (first.get(code) ?? Infinity) < row);
}

/**
 * The most trades a patch takes: an edit of a few trades (a trade, a bulk edit of a page) is what it is for; past this
 * the scan for trades not where their keys say (inserted ones) costs about what a merge does, which follows anyway.
 */
const PATCH_LIMIT = 64;

/**
 * `base` brought up to date with edits that leave every trade where it was, or null when the changes are not such
 * edits (more than PATCH_LIMIT trades, a trade added or deleted, moved to another day or past a neighbour, or given a
 * text whose code a build would number otherwise: then mergeOrderedColumns). Copy on write: the result shares every
 * array the edits leave as they are with `base`, which stays as it was for the reports still reading it; an edit of a
 * trade's P&L copies the P&L and result columns (under 1 MB at 100,000 trades) where a merge writes every column
 * (18 MB). The result is the very columns a build of every trade writes, codes included.
 */
export function patchOrderedColumns(base: OrderedColumns, changed: ReadonlySet<string>, current: readonly OrderedTrade[]): OrderedColumns | null {
  const { columns: a, keys: oldKeys } = base;
  if (current.length === 0 || current.length !== changed.size || current.length > PATCH_LIMIT) return null;
  const edited = [...current].sort(compareOrderedTrades);
  for (const t of edited) if (!changed.has(t.trade.id)) return null;

  // Each edited trade's row: found by its new place when its keys did not change, else by a scan of the ids.
  const rows = new Int32Array(edited.length).fill(-1);
  const missing = new Map<string, number>();
  edited.forEach((t, k) => {
    const place = findPlace(oldKeys, a.id, t);
    if (a.id[place] === t.trade.id) rows[k] = place;
    else missing.set(t.trade.id, k);
  });
  for (let i = 0; i < a.size && missing.size > 0; i++) {
    const k = missing.get(a.id[i]!);
    if (k !== undefined) {
      rows[k] = i;
      missing.delete(a.id[i]!);
    }
  }
  if (missing.size > 0) return null;
  const changedRows = new Set(rows);
  const b = buildTradeColumns(edited.map((t) => t.trade));

  // The trading day must stay: the days and their ranges of rows are shared.
  for (let k = 0; k < edited.length; k++) if (dayOf(a, rows[k]!) !== dayOf(b, k)) return null;

  // Order keys: copied when a time changed, and each edited row must still sort between its neighbours.
  let keys = oldKeys;
  edited.forEach((t, k) => {
    const r = rows[k]!;
    if (t.first === oldKeys.first[r] && t.second === oldKeys.second[r] && t.created === oldKeys.created[r] && t.day === oldKeys.day[r]) return;
    if (keys === oldKeys) keys = { day: oldKeys.day, first: Float64Array.from(oldKeys.first), second: Float64Array.from(oldKeys.second), created: Float64Array.from(oldKeys.created) };
    keys.first[r] = t.first;
    keys.second[r] = t.second;
    keys.created[r] = t.created;
  });
  if (keys !== oldKeys) {
    const compareRows = (i: number, j: number) =>
      keys.day[i]! - keys.day[j]! || keys.first[i]! - keys.first[j]! || keys.second[i]! - keys.second[j]! || keys.created[i]! - keys.created[j]! || compareIds(a.id[i]!, a.id[j]!);
    for (const r of changedRows) {
      if (r > 0 && compareRows(r - 1, r) >= 0) return null;
      if (r < a.size - 1 && compareRows(r, r + 1) >= 0) return null;
    }
  }

  // Texts: a changed one must be a text the column holds, and neither it nor the one it replaces may first appear at
  // an edited row (a build numbers texts in the order they first appear).
  const texts: Partial<Record<(typeof TEXT_COLUMNS)[number], TextColumn>> = {};
  for (const name of TEXT_COLUMNS) {
    const column = a[name];
    const lookup = createCodeLookup(column.values);
    const asked: Array<{ code: number; row: number }> = [];
    let codes: Uint32Array | null = null;
    for (let k = 0; k < edited.length; k++) {
      const r = rows[k]!;
      const code = lookup(b[name].values[b[name].codes[k]!]!);
      if (code === undefined) return null;
      const old = column.codes[r]!;
      if (code === old) continue;
      codes ??= Uint32Array.from(column.codes);
      codes[r] = code;
      if (old !== 0) asked.push({ code: old, row: r });
      if (code !== 0) asked.push({ code, row: r });
    }
    if (!codes) continue;
    if (!appearEarlier(asked, changedRows, (u, found) => found(column.codes[u]!))) return null;
    texts[name] = { codes, values: column.values };
  }

  // Tags: the same rule, per tag; the tag lists are rebuilt when one changed (their lengths may differ). Tag codes count
  // from 0 (no "none" code): here they are taken one up, so that the lookup's 0 stays "none".
  const tagLookup = createCodeLookup([null, ...a.tagValues]);
  const newTags = new Map<number, number[]>();
  const askedTags: Array<{ code: number; row: number }> = [];
  for (let k = 0; k < edited.length; k++) {
    const r = rows[k]!;
    const tags: number[] = [];
    for (let q = b.tagStart[k]!; q < b.tagStart[k + 1]!; q++) {
      const code = tagLookup(b.tagValues[b.tagCodes[q]!]!);
      if (code === undefined) return null;
      tags.push(code);
    }
    const old = Array.from(a.tagCodes.subarray(a.tagStart[r]!, a.tagStart[r + 1]!), (code) => code + 1);
    if (tags.length === old.length && tags.every((code, q) => code === old[q])) continue;
    newTags.set(r, tags);
    for (const code of new Set([...old, ...tags])) askedTags.push({ code, row: r });
  }
  let tagStart = a.tagStart;
  let tagCodes = a.tagCodes;
  if (newTags.size > 0) {
    const tagsOf = (u: number, found: (code: number) => void) => {
      for (let q = a.tagStart[u]!; q < a.tagStart[u + 1]!; q++) found(a.tagCodes[q]! + 1);
    };
    if (!appearEarlier(askedTags, changedRows, tagsOf)) return null;
    let total = a.tagCodes.length;
    for (const [r, tags] of newTags) total += tags.length - (a.tagStart[r + 1]! - a.tagStart[r]!);
    tagStart = new Uint32Array(a.size + 1);
    tagCodes = new Uint32Array(total);
    let t = 0;
    for (let i = 0; i < a.size; i++) {
      tagStart[i] = t;
      const tags = newTags.get(i);
      if (tags) for (const code of tags) tagCodes[t++] = code - 1;
      else for (let q = a.tagStart[i]!; q < a.tagStart[i + 1]!; q++) tagCodes[t++] = a.tagCodes[q]!;
    }
    tagStart[a.size] = t;
  }

  const columns: TradeColumns = { ...a, ...texts, tagStart, tagCodes, hoursByZone: new Map(), riskByDefaults: new Map() };
  for (const name of NUMBER_COLUMNS) {
    const from = a[name];
    let to: typeof from | null = null;
    for (let k = 0; k < edited.length; k++) {
      const r = rows[k]!;
      if (sameNumber(from[r]!, b[name][k]!)) continue;
      to ??= from.slice();
      to[r] = b[name][k]!;
    }
    if (to) (columns[name] as typeof from) = to;
  }

  // Entry hours and planned risks: shared where no edited row's changed, else copied with those rows computed again.
  for (const [zone, hours] of a.hoursByZone) {
    let to: Int8Array | null = null;
    for (const r of changedRows) {
      const ms = columns.entry[r]!;
      const hour = Number.isNaN(ms) ? -1 : getHourOfInstant(ms, zone);
      if (hour === hours[r]) continue;
      to ??= hours.slice();
      to[r] = hour;
    }
    columns.hoursByZone.set(zone, to ?? hours);
  }
  for (const [key, { defaults, risk }] of a.riskByDefaults) {
    const price = createRiskPricer(columns, defaults);
    let to: Float64Array | null = null;
    for (const r of changedRows) {
      const own = columns.ownRisk[r]!;
      const cents = Number.isNaN(own) && defaults.length > 0 ? price(r) : own;
      if (sameNumber(cents, risk[r]!)) continue;
      to ??= risk.slice();
      to[r] = cents;
    }
    columns.riskByDefaults.set(key, { defaults, risk: to ?? risk });
  }
  return { columns, keys };
}
