import { buildTradeColumns, getIsoWeekday, type ReportTrade, type TextColumn, type TradeColumns } from './report-trade';
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

function gatherNumbers<T extends Float64Array | Uint8Array>(make: (size: number) => T, a: T, b: T, origin: Int32Array): T {
  const out = make(origin.length);
  for (let i = 0; i < origin.length; i++) {
    const o = origin[i]!;
    out[i] = o >= 0 ? a[o]! : b[-o - 1]!;
  }
  return out;
}

/**
 * `base` with every trade whose id is in `changed` taken out and `current` (the changed trades that still exist, as
 * they are now, in any order) put in at their places in the trading order. A changed id missing from `current` was
 * deleted. Entry hours already computed for a zone and planned risks priced under the trader's defaults are carried
 * over (computed for the changed trades only). The rows are
 * gathered column by column (a loop over typed arrays per column, not an object per trade): at 100,000 trades this is
 * what keeps the first report after a write fast.
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

  const keys = createKeys(size);
  const id: string[] = new Array(size);
  const days: string[] = [];
  const day = new Uint32Array(size);
  const starts: number[] = [];
  let tagCount = 0;
  for (let i = 0; i < size; i++) {
    const o = origin[i]!;
    const dayText = o >= 0 ? a.days[a.day[o]!]! : b.days[b.day[-o - 1]!]!;
    if (days.length === 0 || days[days.length - 1] !== dayText) {
      days.push(dayText);
      starts.push(i);
    }
    day[i] = days.length - 1;
    if (o >= 0) {
      id[i] = a.id[o]!;
      tagCount += a.tagStart[o + 1]! - a.tagStart[o]!;
      keys.day[i] = oldKeys.day[o]!;
      keys.first[i] = oldKeys.first[o]!;
      keys.second[i] = oldKeys.second[o]!;
      keys.created[i] = oldKeys.created[o]!;
    } else {
      const k = -o - 1;
      id[i] = b.id[k]!;
      tagCount += b.tagStart[k + 1]! - b.tagStart[k]!;
      setKeys(keys, i, added[k]!);
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

  const f64 = (n: number) => new Float64Array(n);
  const entry = gatherNumbers(f64, a.entry, b.entry, origin);
  const hoursByZone = new Map<string, Int8Array>();
  for (const [zone, hours] of a.hoursByZone) {
    const merged = new Int8Array(size);
    for (let i = 0; i < size; i++) {
      const o = origin[i]!;
      const ms = entry[i]!;
      merged[i] = o >= 0 ? hours[o]! : Number.isNaN(ms) ? -1 : getHourOfInstant(ms, zone);
    }
    hoursByZone.set(zone, merged);
  }
  const columns: TradeColumns = {
    size,
    id,
    days,
    dayWeekday: Uint8Array.from(days, getIsoWeekday),
    day,
    dayStart: Uint32Array.from(starts),
    result: gatherNumbers((n) => new Uint8Array(n), a.result, b.result, origin),
    pnl: gatherNumbers(f64, a.pnl, b.pnl, origin),
    fee: gatherNumbers(f64, a.fee, b.fee, origin),
    entry,
    exit: gatherNumbers(f64, a.exit, b.exit, origin),
    hold: gatherNumbers(f64, a.hold, b.hold, origin),
    quantity: gatherNumbers(f64, a.quantity, b.quantity, origin),
    ownRisk: gatherNumbers(f64, a.ownRisk, b.ownRisk, origin),
    account: gatherText(a.account, b.account, origin),
    symbol: gatherText(a.symbol, b.symbol, origin),
    contract: gatherText(a.contract, b.contract, origin),
    side: gatherText(a.side, b.side, origin),
    setup: gatherText(a.setup, b.setup, origin),
    playbook: gatherText(a.playbook, b.playbook, origin),
    ticked: gatherNumbers((n) => new Uint8Array(n), a.ticked, b.ticked, origin),
    session: gatherText(a.session, b.session, origin),
    tagStart,
    tagCodes,
    tagValues,
    hoursByZone,
    riskByDefaults: new Map(),
  };
  // Planned risks priced under the defaults: carried over, priced for the changed trades only.
  for (const [key, { defaults, risk }] of a.riskByDefaults) {
    const price = createRiskPricer(columns, defaults);
    const merged = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      const o = origin[i]!;
      const own = columns.ownRisk[i]!;
      merged[i] = o >= 0 ? risk[o]! : Number.isNaN(own) && defaults.length > 0 ? price(i) : own;
    }
    columns.riskByDefaults.set(key, { defaults, risk: merged });
  }
  return { columns, keys };
}
