import { compareOrderedTrades, createCodeLookup, type OrderedColumns, type OrderedTrade, type Room, type TradeKeys } from './merge-columns';
import { createRiskPricer } from '../../../../domain/reports/r-multiples';
import { buildTradeColumns, type TextColumn, type TradeColumns } from '../../../../domain/reports/report-trade';
import { getHourOfInstant } from '../../../../domain/dates/clock';
import { buildIdIndex, findIdRow, hasSlotsFor, insertId, withRoom, type IdIndex } from './column-room';

/**
 * Trades added after the last one in the trading order: what a trader's import of their latest trades is.
 * The columns keep room past their length (a column is a view of the first `size` rows of a longer array), so the new
 * rows are written after the old ones without copying or rebuilding them, and a text the new rows bring gets the next
 * code, as a build numbers texts where they first appear. A copy handed out reads only its own length, and no row below
 * it is ever written: the reports still reading the copy before the append see it as it was.
 *
 * Rows past a copy's length are written only from the newest copy of a lineage (Room.rows says how many rows it holds):
 * two copies made from the same one (two loads at once) must not write the same rows, so the second one copies.
 */

type NumberArray = Float64Array | Uint32Array | Uint8Array | Int8Array;
interface NumberArrayType<T extends NumberArray> {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
}

/** `old` with `tail` after it: in the same array when `inPlace` and it has room, else in a new one with room. */
function extend<T extends NumberArray>(Type: NumberArrayType<T>, old: T, tail: ArrayLike<number>, inPlace: boolean): T {
  const length = old.length + tail.length;
  // Math.floor: a merge may have written the column into a spare buffer of another element size (column-room.ts).
  const capacity = Math.floor(old.buffer.byteLength / old.BYTES_PER_ELEMENT);
  const whole = inPlace && old.byteOffset === 0 && capacity >= length ? new Type(old.buffer as ArrayBuffer, 0, capacity) : null;
  const into = whole ?? new Type(withRoom(length));
  if (!whole) into.set(old);
  into.set(tail, old.length);
  return into.subarray(0, length) as T;
}

/** `a`'s codes with `b`'s rows after them: `b`'s texts `a` lacks take the next codes, in the order `b` holds them. */
function appendText(a: TextColumn, b: TextColumn, inPlace: boolean): TextColumn {
  const lookup = createCodeLookup(a.values);
  let values: Array<string | null> | null = null;
  const map = new Uint32Array(b.values.length);
  for (let code = 1; code < b.values.length; code++) {
    let to = lookup(b.values[code]!);
    if (to === undefined) {
      values ??= [...a.values];
      to = values.length;
      values.push(b.values[code]!);
    }
    map[code] = to;
  }
  return {
    codes: extend(
      Uint32Array,
      a.codes,
      Uint32Array.from(b.codes, (code) => map[code]!),
      inPlace,
    ),
    values: values ?? a.values,
  };
}

/**
 * `base` with `current` (the changed trades as they are now) appended, or null when the changes are not such an append:
 * a changed trade deleted, one that was in the base already (an edit), or one that does not come after the base's last
 * trade in the trading order. Then patchOrderedColumns or mergeOrderedColumns. The result is the very columns a build
 * of every trade writes, codes included; entry hours and planned risks kept for the base are extended with the new
 * rows'.
 */
export function appendOrderedColumns(base: OrderedColumns, changed: ReadonlySet<string>, current: readonly OrderedTrade[]): OrderedColumns | null {
  const { columns: a, keys: oldKeys } = base;
  if (current.length === 0 || current.length !== changed.size) return null;
  const added = [...current].sort(compareOrderedTrades);
  for (const t of added) if (!changed.has(t.trade.id)) return null;
  const n = a.size;
  if (n > 0) {
    const t = added[0]!;
    const last = n - 1;
    const order =
      t.day - oldKeys.day[last]! ||
      t.first - oldKeys.first[last]! ||
      t.second - oldKeys.second[last]! ||
      t.created - oldKeys.created[last]! ||
      (t.trade.id > a.id[last]! ? 1 : -1);
    if (order <= 0) return null;
  }
  // A lineage's index answers for any of its copies (a candidate row is checked against the copy's own ids).
  const shared = base.room?.ids ?? null;
  const index = shared ?? buildIdIndex(a.id, n, withRoom(n + added.length));
  for (const t of added) if (findIdRow(index, a.id, n, t.trade.id) >= 0) return null;

  return writeAppend(base, added, index, shared, base.room !== undefined && base.room.rows === n);
}

/**
 * `base` in arrays with room and its ids indexed, the same columns otherwise: what the server does once after reading
 * every trade (a few tens of milliseconds at 100,000 trades, beside seconds of reading), so that the first append after
 * it writes in place instead of copying then.
 */
export function reserveRoom(base: OrderedColumns): OrderedColumns {
  const n = base.columns.size;
  return writeAppend(base, [], buildIdIndex(base.columns.id, n, withRoom(n)), null, false);
}

/** The append itself, `added` sorted and known to be new trades after the last row of `base`. */
function writeAppend(base: OrderedColumns, added: readonly OrderedTrade[], index: IdIndex, shared: IdIndex | null, inPlace: boolean): OrderedColumns {
  const { columns: a, keys: oldKeys } = base;
  const n = a.size;
  const b = buildTradeColumns(added.map((t) => t.trade));
  const k = added.length;
  const size = n + k;

  const continues = n > 0 && b.days[0] === a.days[a.days.length - 1];
  const skip = continues ? 1 : 0;
  const dayOffset = a.days.length - skip;
  const days = a.days.concat(b.days.slice(skip));
  const dayWeekday = new Uint8Array(days.length);
  dayWeekday.set(a.dayWeekday);
  dayWeekday.set(b.dayWeekday.subarray(skip), a.days.length);
  const dayStart = new Uint32Array(days.length + 1);
  dayStart.set(a.dayStart.subarray(0, a.days.length));
  for (let d = skip; d < b.days.length; d++) dayStart[dayOffset + d] = n + b.dayStart[d]!;
  dayStart[days.length] = size;

  const tagLookup = createCodeLookup([null, ...a.tagValues]);
  let tagValues: string[] | null = null;
  const tagMap = new Uint32Array(b.tagValues.length);
  b.tagValues.forEach((tag, code) => {
    let to = tagLookup(tag);
    if (to === undefined) {
      tagValues ??= [...a.tagValues];
      to = tagValues.length + 1;
      tagValues.push(tag);
    }
    tagMap[code] = to - 1;
  });
  const tagTotal = a.tagStart[n]!;

  const keys: TradeKeys = {
    day: extend(
      Float64Array,
      oldKeys.day,
      added.map((t) => t.day),
      inPlace,
    ),
    first: extend(
      Float64Array,
      oldKeys.first,
      added.map((t) => t.first),
      inPlace,
    ),
    second: extend(
      Float64Array,
      oldKeys.second,
      added.map((t) => t.second),
      inPlace,
    ),
    created: extend(
      Float64Array,
      oldKeys.created,
      added.map((t) => t.created),
      inPlace,
    ),
  };
  const columns: TradeColumns = {
    size,
    // Ids are texts, not numbers: copied (a pass over pointers, not rows rebuilt) so that each copy's list is its own.
    id: a.id.concat(b.id),
    days,
    dayWeekday,
    day: extend(
      Uint32Array,
      a.day,
      b.day.map((d) => d + dayOffset),
      inPlace,
    ),
    dayStart,
    result: extend(Uint8Array, a.result, b.result, inPlace),
    pnl: extend(Float64Array, a.pnl, b.pnl, inPlace),
    fee: extend(Float64Array, a.fee, b.fee, inPlace),
    entry: extend(Float64Array, a.entry, b.entry, inPlace),
    exit: extend(Float64Array, a.exit, b.exit, inPlace),
    hold: extend(Float64Array, a.hold, b.hold, inPlace),
    quantity: extend(Float64Array, a.quantity, b.quantity, inPlace),
    ownRisk: extend(Float64Array, a.ownRisk, b.ownRisk, inPlace),
    account: appendText(a.account, b.account, inPlace),
    symbol: appendText(a.symbol, b.symbol, inPlace),
    contract: appendText(a.contract, b.contract, inPlace),
    side: appendText(a.side, b.side, inPlace),
    setup: appendText(a.setup, b.setup, inPlace),
    playbook: appendText(a.playbook, b.playbook, inPlace),
    ticked: extend(Uint8Array, a.ticked, b.ticked, inPlace),
    session: appendText(a.session, b.session, inPlace),
    // tagStart holds size + 1 entries: its last, the old total, is where the new rows' tags start, and stays.
    tagStart: extend(
      Uint32Array,
      a.tagStart,
      b.tagStart.subarray(1).map((t) => t + tagTotal),
      inPlace,
    ),
    tagCodes: extend(
      Uint32Array,
      a.tagCodes,
      b.tagCodes.map((code) => tagMap[code]!),
      inPlace,
    ),
    tagValues: tagValues ?? a.tagValues,
    hoursByZone: new Map(),
    riskByDefaults: new Map(),
  };
  for (const [zone, hours] of a.hoursByZone) {
    const tail = Int8Array.from(b.entry, (ms) => (Number.isNaN(ms) ? -1 : getHourOfInstant(ms, zone)));
    columns.hoursByZone.set(zone, extend(Int8Array, hours, tail, inPlace));
  }
  for (const [key, { defaults, risk }] of a.riskByDefaults) {
    const price = createRiskPricer(b, defaults);
    const tail = Float64Array.from(b.ownRisk, (own, r) => (Number.isNaN(own) && defaults.length > 0 ? price(r) : own));
    columns.riskByDefaults.set(key, { defaults, risk: extend(Float64Array, risk, tail, inPlace) });
  }

  // The lineage's frontier moves to this copy; a copy that could not write in place starts a lineage of its own.
  // Another lineage may write into a shared index: a copy of its own (its candidates are checked against the ids).
  let ids = inPlace || shared === null ? index : { table: index.table.slice(), used: index.used };
  if (!hasSlotsFor(ids, k)) ids = buildIdIndex(columns.id, n, withRoom(size));
  for (let r = 0; r < k; r++) insertId(ids, b.id[r]!, n + r);
  let room: Room;
  if (inPlace) {
    room = base.room!;
    room.rows = size;
    room.ids = ids;
  } else {
    room = { rows: size, ids };
  }
  return { columns, keys, room };
}
