import { buildTradeColumns, dayOf, type ReportTrade, type TextColumn, type TradeColumns } from '../../../../domain/reports/report-trade';
import { createRiskPricer } from '../../../../domain/reports/r-multiples';
import { getHourOfInstant } from '../../../../domain/dates/clock';
import {
  buildIdIndex,
  findIdRow,
  hasSlotsFor,
  insertId,
  moveIdIndex,
  takeArray,
  withMergeRoom,
  withRoom,
  type IdIndex,
  type NumberArray,
  type NumberArrayType,
  type Spares,
} from './column-room';

/**
 * A trader's columns brought up to date with the trades that changed since they were built: the server keeps
 * the columns between reports and, after a write, reads only the changed trades. The merge writes the same columns a
 * build of every trade writes (same rows in the same trading order, same codes), so a report cannot tell the two apart.
 *
 * The trading order is compared on the keys as stored, not on the columns' milliseconds: the day's instant and the
 * times in microseconds (src/domain/trades/trading-order.ts), then the id as PostgreSQL compares uuids (their hex
 * text).
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
  /** Absent: the columns have no room past their rows, and appendOrderedColumns copies them once. */
  room?: Room;
}

/**
 * What the copies of one lineage share (append-columns.ts): how many rows its newest copy holds (the only one that may
 * write rows past its length into the arrays it shares with the others), and the index of its ids, built at the first
 * append.
 */
export interface Room {
  rows: number;
  ids: IdIndex | null;
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
      t.day - keys.day[mid]! ||
      t.first - keys.first[mid]! ||
      t.second - keys.second[mid]! ||
      t.created - keys.created[mid]! ||
      compareIds(t.trade.id, ids[mid]!);
    if (order > 0) low = mid + 1;
    else high = mid;
  }
  return low;
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

/**
 * The merged order as runs, in one pass of two sorted lists: the base's rows (less those `removed`, ascending) and the
 * added trades, each placed before base row `places[k]` (ascending, as the trades are sorted).
 */
function toRuns(size: number, removed: readonly number[], places: Int32Array): Run[] {
  const runs: Run[] = [];
  let to = 0;
  let i = 0;
  let r = 0;
  let k = 0;
  const added = places.length;
  for (;;) {
    if (k < added && places[k]! <= i) {
      const start = k;
      while (k < added && places[k]! <= i) k++;
      runs.push({ to, fromBase: false, start, length: k - start });
      to += k - start;
    }
    if (i >= size) break;
    if (r < removed.length && removed[r] === i) {
      r++;
      i++;
      continue;
    }
    const stop = Math.min(r < removed.length ? removed[r]! : size, k < added ? places[k]! : size);
    runs.push({ to, fromBase: true, start: i, length: stop - i });
    to += stop - i;
    i = stop;
  }
  return runs;
}

/** Where each row went: per base row its new row (-1: taken out), per added trade its row. */
function placeRows(runs: readonly Run[], baseRows: number, addedRows: number): { moved: Int32Array; addedTo: Int32Array } {
  const moved = new Int32Array(baseRows).fill(-1);
  const addedTo = new Int32Array(addedRows);
  for (const run of runs) {
    const into = run.fromBase ? moved : addedTo;
    for (let j = 0; j < run.length; j++) into[run.start + j] = run.to + j;
  }
  return { moved, addedTo };
}

/**
 * An array for a merge's `size` rows with room past them: a spare buffer's whole length when one fits, else new with
 * withMergeRoom's room. Only its first `size` are read, and the merge writes every one of them.
 */
const roomFor = <T extends NumberArray>(Type: NumberArrayType<T>, size: number, spares: Spares | undefined) =>
  takeArray(Type, size, withMergeRoom(size), spares);

/** The runs' rows of `a` and `b` in an array with room past `size`, as a view of its first `size`. */
function gatherNumbers<T extends NumberArray>(
  Type: NumberArrayType<T>,
  a: T,
  b: T,
  runs: readonly Run[],
  size: number,
  spares: Spares | undefined,
): T {
  const out = roomFor(Type, size, spares);
  for (const run of runs) out.set((run.fromBase ? a : b).subarray(run.start, run.start + run.length), run.to);
  return out.subarray(0, size) as T;
}

/**
 * The codes of a merge's texts: a build numbers texts where they first appear, so each text's first appearance in the
 * merged rows is found (`firstA[c]` for the base's code c, `firstB` for the added trades', as an order key; Infinity
 * where it no longer appears) and the texts numbered in that order. `fromA[c]` and `fromB[c]` are the new codes, and
 * `kept` says the base's codes stay as they are (then its rows' codes are copied as runs, not mapped row by row).
 */
function numberTexts<T extends string | null>(
  aValues: readonly T[],
  firstA: Float64Array,
  bValues: readonly T[],
  firstB: Float64Array,
  from: number,
) {
  const seen: Array<{ key: number; value: T }> = [];
  aValues.forEach((value, c) => c >= from && firstA[c]! < Infinity && seen.push({ key: firstA[c]!, value }));
  bValues.forEach((value, c) => c >= from && firstB[c]! < Infinity && seen.push({ key: firstB[c]!, value }));
  seen.sort((x, y) => x.key - y.key);
  const values: T[] = aValues.slice(0, from);
  const codes = new Map<T, number>();
  for (const { value } of seen) {
    if (codes.has(value)) continue;
    codes.set(value, values.length);
    values.push(value);
  }
  const fromA = Int32Array.from(aValues, (value, c) => (c < from ? c : (codes.get(value) ?? -1)));
  const fromB = Int32Array.from(bValues, (value, c) => (c < from ? c : (codes.get(value) ?? -1)));
  const kept = values.length === aValues.length && fromA.every((to, c) => to === c);
  return { values: kept ? aValues : values, fromA, fromB, kept };
}

/** A text column of the runs' rows, coded as a build codes them (numberTexts). */
function gatherText(
  a: TextColumn,
  b: TextColumn,
  runs: readonly Run[],
  size: number,
  moved: Int32Array,
  addedTo: Int32Array,
  spares: Spares | undefined,
): TextColumn {
  // First appearances: the base's codes first appear within its first rows (but for a text a deleted trade held alone).
  const firstA = new Float64Array(a.values.length).fill(Infinity);
  let missing = a.values.length - 1;
  for (let r = 0; r < moved.length && missing > 0; r++) {
    const code = a.codes[r]!;
    if (code !== 0 && firstA[code] === Infinity && moved[r]! >= 0) {
      firstA[code] = moved[r]!;
      missing--;
    }
  }
  const firstB = new Float64Array(b.values.length).fill(Infinity);
  for (let k = b.codes.length - 1; k >= 0; k--) firstB[b.codes[k]!] = addedTo[k]!;
  const { values, fromA, fromB, kept } = numberTexts(a.values, firstA, b.values, firstB, 1);
  const codes = roomFor(Uint32Array, size, spares);
  for (const run of runs) {
    if (run.fromBase && kept) {
      codes.set(a.codes.subarray(run.start, run.start + run.length), run.to);
      continue;
    }
    const from = run.fromBase ? a.codes : b.codes;
    const map = run.fromBase ? fromA : fromB;
    for (let j = 0; j < run.length; j++) codes[run.to + j] = map[from[run.start + j]!]!;
  }
  return { codes: codes.subarray(0, size), values };
}

/** The tag lists of the runs' rows, their codes given as a build gives them (numberTexts). */
function gatherTags(
  a: TradeColumns,
  b: TradeColumns,
  runs: readonly Run[],
  size: number,
  moved: Int32Array,
  addedTo: Int32Array,
  spares: Spares | undefined,
) {
  // A tag's first appearance as a key: its row, then its place in the row's list (one row may bring several).
  const key = (row: number, q: number, start: number) => row * 65_536 + (q - start);
  const firstA = new Float64Array(a.tagValues.length).fill(Infinity);
  let missing = a.tagValues.length;
  for (let r = 0; r < a.size && missing > 0; r++) {
    if (moved[r]! < 0) continue;
    for (let q = a.tagStart[r]!; q < a.tagStart[r + 1]!; q++) {
      const code = a.tagCodes[q]!;
      if (firstA[code] !== Infinity) continue;
      firstA[code] = key(moved[r]!, q, a.tagStart[r]!);
      missing--;
    }
  }
  const firstB = new Float64Array(b.tagValues.length).fill(Infinity);
  for (let k = b.size - 1; k >= 0; k--) {
    for (let q = b.tagStart[k + 1]! - 1; q >= b.tagStart[k]!; q--) firstB[b.tagCodes[q]!] = key(addedTo[k]!, q, b.tagStart[k]!);
  }
  const { values, fromA, fromB, kept } = numberTexts(a.tagValues, firstA, b.tagValues, firstB, 0);
  let count = 0;
  for (const run of runs) {
    const src = run.fromBase ? a : b;
    count += src.tagStart[run.start + run.length]! - src.tagStart[run.start]!;
  }
  const tagStart = roomFor(Uint32Array, size + 1, spares);
  const tagCodes = roomFor(Uint32Array, count, spares);
  let t = 0;
  for (const run of runs) {
    const src = run.fromBase ? a : b;
    const first = src.tagStart[run.start]!;
    for (let j = 0; j < run.length; j++) tagStart[run.to + j] = t + src.tagStart[run.start + j]! - first;
    const end = src.tagStart[run.start + run.length]!;
    if (run.fromBase && kept) tagCodes.set(a.tagCodes.subarray(first, end), t);
    else {
      const map = run.fromBase ? fromA : fromB;
      for (let q = first; q < end; q++) tagCodes[t + q - first] = map[src.tagCodes[q]!]!;
    }
    t += end - first;
  }
  tagStart[size] = t;
  return { tagStart: tagStart.subarray(0, size + 1), tagCodes: tagCodes.subarray(0, count), tagValues: values as readonly string[] };
}

/**
 * `base` with every trade whose id is in `changed` taken out and `current` (the changed trades that still exist, as
 * they are now, in any order) put in at their places in the trading order. A changed id missing from `current` was
 * deleted. The merged order is worked out once, as runs of base rows between two changed trades, and every column is
 * gathered by it (TypedArray.set of each run) into arrays with room past the rows, so that the next import of later
 * trades is appended in place (append-columns.ts) rather than copying every column again. The trades taken out are
 * found, and the index of the ids moved to the new rows, through the lineage's index of ids (column-room.ts) when
 * there is one. Entry hours already computed for a zone and planned risks priced under the trader's defaults are
 * carried over (computed for the changed trades only).
 */
export function mergeOrderedColumns(
  base: OrderedColumns,
  changed: ReadonlySet<string>,
  current: readonly OrderedTrade[],
  spares?: Spares,
): OrderedColumns {
  const { columns: a, keys: oldKeys } = base;
  const n = a.size;
  const added = [...current].sort(compareOrderedTrades);
  for (const t of added) if (!changed.has(t.trade.id)) throw new RangeError(`mergeOrderedColumns: trade ${t.trade.id} is not among the changed`);
  const b = buildTradeColumns(added.map((t) => t.trade));
  const places = Int32Array.from(added, (t) => findPlace(oldKeys, a.id, t));

  const index = base.room?.ids ?? null;
  const removed: number[] = [];
  if (index) {
    for (const id of changed) {
      const row = findIdRow(index, a.id, n, id);
      if (row >= 0) removed.push(row);
    }
    removed.sort((x, y) => x - y);
  } else if (changed.size > 0) {
    for (let i = 0; i < n; i++) if (changed.has(a.id[i]!)) removed.push(i);
  }
  const size = n - removed.length + added.length;
  const runs = toRuns(n, removed, places);
  const { moved, addedTo } = placeRows(runs, n, added.length);

  const f64 = Float64Array;
  const u8 = Uint8Array;
  const addedKeys = createKeys(added.length);
  added.forEach((t, k) => setKeys(addedKeys, k, t));
  const keys: TradeKeys = {
    day: gatherNumbers(f64, oldKeys.day, addedKeys.day, runs, size, spares),
    first: gatherNumbers(f64, oldKeys.first, addedKeys.first, runs, size, spares),
    second: gatherNumbers(f64, oldKeys.second, addedKeys.second, runs, size, spares),
    created: gatherNumbers(f64, oldKeys.created, addedKeys.created, runs, size, spares),
  };

  // Ids and days, run by run; a day's text is compared once per day, not per row. A former copy's list of ids is
  // written over when there is one (every row written, its length cut to this copy's).
  const id: string[] = spares?.takeIds() ?? new Array<string>(size);
  id.length = size;
  const days: string[] = [];
  const day = roomFor(Uint32Array, size, spares);
  const weekdays: number[] = [];
  const starts: number[] = [];
  let lastSrc: TradeColumns | null = null;
  let lastCode = -1;
  for (const run of runs) {
    const src = run.fromBase ? a : b;
    for (let j = 0; j < run.length; j++) {
      const i = run.to + j;
      const o = run.start + j;
      id[i] = src.id[o]!;
      const code = src.day[o]!;
      if (src !== lastSrc || code !== lastCode) {
        const text = src.days[code]!;
        if (days.length === 0 || days[days.length - 1] !== text) {
          days.push(text);
          weekdays.push(src.dayWeekday[code]!);
          starts.push(i);
        }
        lastSrc = src;
        lastCode = code;
      }
      day[i] = days.length - 1;
    }
  }
  starts.push(size);

  const hoursByZone = new Map<string, Int8Array>();
  for (const [zone, hours] of a.hoursByZone) {
    const ofAdded = Int8Array.from(b.entry, (ms) => (Number.isNaN(ms) ? -1 : getHourOfInstant(ms, zone)));
    hoursByZone.set(zone, gatherNumbers(Int8Array, hours, ofAdded, runs, size, spares));
  }
  const text = (name: (typeof TEXT_COLUMNS)[number]) => gatherText(a[name], b[name], runs, size, moved, addedTo, spares);
  const columns: TradeColumns = {
    size,
    id,
    days,
    dayWeekday: Uint8Array.from(weekdays),
    day: day.subarray(0, size),
    dayStart: Uint32Array.from(starts),
    result: gatherNumbers(u8, a.result, b.result, runs, size, spares),
    pnl: gatherNumbers(f64, a.pnl, b.pnl, runs, size, spares),
    fee: gatherNumbers(f64, a.fee, b.fee, runs, size, spares),
    entry: gatherNumbers(f64, a.entry, b.entry, runs, size, spares),
    exit: gatherNumbers(f64, a.exit, b.exit, runs, size, spares),
    hold: gatherNumbers(f64, a.hold, b.hold, runs, size, spares),
    quantity: gatherNumbers(f64, a.quantity, b.quantity, runs, size, spares),
    ownRisk: gatherNumbers(f64, a.ownRisk, b.ownRisk, runs, size, spares),
    account: text('account'),
    symbol: text('symbol'),
    contract: text('contract'),
    side: text('side'),
    setup: text('setup'),
    playbook: text('playbook'),
    ticked: gatherNumbers(u8, a.ticked, b.ticked, runs, size, spares),
    session: text('session'),
    ...gatherTags(a, b, runs, size, moved, addedTo, spares),
    hoursByZone,
    riskByDefaults: new Map(),
  };
  // Planned risks priced under the defaults: carried over, priced for the changed trades only.
  for (const [key, { defaults, risk }] of a.riskByDefaults) {
    const price = createRiskPricer(b, defaults);
    const ofAdded = Float64Array.from(b.ownRisk, (own, k) => (Number.isNaN(own) && defaults.length > 0 ? price(k) : own));
    columns.riskByDefaults.set(key, { defaults, risk: gatherNumbers(f64, risk, ofAdded, runs, size, spares) });
  }

  // The index of the ids follows the rows: its slots moved to the new rows (the rows taken out left as gone), the added
  // trades' put in; built anew when too full. A new lineage: the base's own index is not written.
  let ids: IdIndex | null = null;
  if (index) {
    if (hasSlotsFor(index, added.length)) {
      ids = moveIdIndex(index, moved, spares);
      for (let k = 0; k < added.length; k++) insertId(ids, b.id[k]!, addedTo[k]!);
    } else {
      ids = buildIdIndex(id, size, withRoom(size), spares);
    }
  }
  return { columns, keys, room: { rows: size, ids } };
}

const TEXT_COLUMNS = ['account', 'symbol', 'contract', 'side', 'setup', 'playbook', 'session'] as const;
const NUMBER_COLUMNS = ['result', 'pnl', 'fee', 'entry', 'exit', 'hold', 'quantity', 'ownRisk', 'ticked'] as const;

/** Equal as stored in a Float64Array: NaN (no value) equals NaN. */
const sameNumber = (x: number, y: number) => x === y || (x !== x && y !== y);

/** The code of a text in a column, built once per column asked: 0 for null, undefined for a text the column lacks. */
export function createCodeLookup(values: ReadonlyArray<string | null>): (value: string | null) => number | undefined {
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
function appearEarlier(
  asked: ReadonlyArray<{ code: number; row: number }>,
  changedRows: ReadonlySet<number>,
  codesOf: (u: number, found: (code: number) => void) => void,
): boolean {
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

  // Each edited trade's row: by the lineage's index of ids; without one, by its new place when its keys did not
  // change, else by a scan of the ids. A trade not found is new: not an edit.
  const rows = new Int32Array(edited.length).fill(-1);
  const missing = new Map<string, number>();
  const index = base.room?.ids ?? null;
  edited.forEach((t, k) => {
    if (index) {
      rows[k] = findIdRow(index, a.id, a.size, t.trade.id);
      if (rows[k] < 0) missing.set(t.trade.id, k);
      return;
    }
    const place = findPlace(oldKeys, a.id, t);
    if (a.id[place] === t.trade.id) rows[k] = place;
    else missing.set(t.trade.id, k);
  });
  for (let i = 0; i < a.size && missing.size > 0 && !index; i++) {
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
    if (keys === oldKeys)
      keys = {
        day: oldKeys.day,
        first: Float64Array.from(oldKeys.first),
        second: Float64Array.from(oldKeys.second),
        created: Float64Array.from(oldKeys.created),
      };
    keys.first[r] = t.first;
    keys.second[r] = t.second;
    keys.created[r] = t.created;
  });
  if (keys !== oldKeys) {
    const compareRows = (i: number, j: number) =>
      keys.day[i]! - keys.day[j]! ||
      keys.first[i]! - keys.first[j]! ||
      keys.second[i]! - keys.second[j]! ||
      keys.created[i]! - keys.created[j]! ||
      compareIds(a.id[i]!, a.id[j]!);
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
  // The same rows and ids: the lineage's room and index stay good for this copy.
  return { columns, keys, ...(base.room && { room: base.room }) };
}

/**
 * Every buffer a copy's arrays are views of, and its list of ids (copies of one lineage share them: an append writes
 * into the same buffers, a patch shares the columns it leaves alone), for the cache to tell which of a former copy's
 * buffers no other copy uses. Walks the columns as they are (the entry hours and planned risks are added to a copy
 * when first asked).
 */
export function collectBuffers(copy: OrderedColumns, into: Set<ArrayBufferLike | readonly string[]> = new Set()) {
  const walk = (value: unknown): void => {
    if (ArrayBuffer.isView(value)) into.add(value.buffer);
    else if (value instanceof Map) for (const held of value.values()) walk(held);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) for (const held of Object.values(value)) walk(held);
  };
  walk(copy.columns);
  walk(copy.keys);
  into.add(copy.columns.id);
  if (copy.room?.ids) into.add(copy.room.ids.table.buffer);
  return into;
}
