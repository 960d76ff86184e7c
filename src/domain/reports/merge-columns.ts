import { createColumnWriter, type ReportTrade, type TradeColumns } from './report-trade';
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
  const writer = createColumnWriter(trades.length);
  const keys = createKeys(trades.length);
  trades.forEach((t, i) => {
    writer.writeTrade(t.trade);
    setKeys(keys, i, t);
  });
  return { columns: writer.finish(), keys };
}

/**
 * `base` with every trade whose id is in `changed` taken out and `current` (the changed trades that still exist, as
 * they are now, in any order) put in at their places in the trading order. A changed id missing from `current` was
 * deleted. Entry hours already computed for a zone are carried over (computed for the new trades only).
 */
export function mergeOrderedColumns(base: OrderedColumns, changed: ReadonlySet<string>, current: readonly OrderedTrade[]): OrderedColumns {
  const { columns: old, keys: oldKeys } = base;
  const added = [...current].sort(compareOrderedTrades);
  for (const t of added) if (!changed.has(t.trade.id)) throw new RangeError(`mergeOrderedColumns: trade ${t.trade.id} is not among the changed`);
  const keep = new Uint8Array(old.size);
  let kept = 0;
  for (let i = 0; i < old.size; i++) {
    if (!changed.has(old.id[i]!)) {
      keep[i] = 1;
      kept++;
    }
  }
  const size = kept + added.length;
  const writer = createColumnWriter(size);
  const copy = writer.copierFrom(old);
  const keys = createKeys(size);
  /** Per new row: the old row it came from, or -1 for a changed trade. */
  const origin = new Int32Array(size);
  let out = 0;
  let next = 0;
  const comesBefore = (t: OrderedTrade, i: number) =>
    (t.day - oldKeys.day[i]! || t.first - oldKeys.first[i]! || t.second - oldKeys.second[i]! || t.created - oldKeys.created[i]! || compareIds(t.trade.id, old.id[i]!)) < 0;
  const writeAdded = () => {
    const t = added[next++]!;
    writer.writeTrade(t.trade);
    setKeys(keys, out, t);
    origin[out++] = -1;
  };
  for (let i = 0; i < old.size; i++) {
    if (!keep[i]) continue;
    while (next < added.length && comesBefore(added[next]!, i)) writeAdded();
    copy(i);
    keys.day[out] = oldKeys.day[i]!;
    keys.first[out] = oldKeys.first[i]!;
    keys.second[out] = oldKeys.second[i]!;
    keys.created[out] = oldKeys.created[i]!;
    origin[out++] = i;
  }
  while (next < added.length) writeAdded();
  const columns = writer.finish();
  for (const [zone, hours] of old.hoursByZone) {
    const merged = new Int8Array(size);
    for (let i = 0; i < size; i++) {
      const from = origin[i]!;
      const ms = columns.entry[i]!;
      merged[i] = from >= 0 ? hours[from]! : Number.isNaN(ms) ? -1 : getHourOfInstant(ms, zone);
    }
    columns.hoursByZone.set(zone, merged);
  }
  return { columns, keys };
}
