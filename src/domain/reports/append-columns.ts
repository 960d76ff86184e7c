import { compareOrderedTrades, createCodeLookup, type OrderedColumns, type OrderedTrade, type Room, type TradeKeys } from './merge-columns';
import { createRiskPricer } from './r-multiples';
import { buildTradeColumns, type TextColumn, type TradeColumns } from './report-trade';
import { getHourOfInstant } from './zone-clock';

/**
 * Trades added after the last one in the trading order (issue 26): what a trader's import of their latest trades is.
 * The columns keep room past their length (a column is a view of the first `size` rows of a longer array), so the new
 * rows are written after the old ones without copying or rebuilding them, and a text the new rows bring gets the next
 * code, as a build numbers texts where they first appear. A copy handed out reads only its own length, and no row below
 * it is ever written: the reports still reading the copy before the append see it as it was.
 *
 * Rows past a copy's length are written only from the newest copy of a lineage (Room.rows says how many rows it holds):
 * two copies made from the same one (two loads at once) must not write the same rows, so the second one copies.
 */

/** Room is made half again as large as what is needed: an import of a day's trades then rarely has to copy. */
const ROOM_FACTOR = 1.5;

type NumberArray = Float64Array | Uint32Array | Uint8Array | Int8Array;
interface NumberArrayType<T extends NumberArray> {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
}

/** `old` with `tail` after it: in the same array when `inPlace` and it has room, else in a new one with room. */
function extend<T extends NumberArray>(Type: NumberArrayType<T>, old: T, tail: ArrayLike<number>, inPlace: boolean): T {
  const length = old.length + tail.length;
  const capacity = old.buffer.byteLength / old.BYTES_PER_ELEMENT;
  const whole = inPlace && old.byteOffset === 0 && capacity >= length ? new Type(old.buffer as ArrayBuffer, 0, capacity) : null;
  const into = whole ?? new Type(Math.max(length, Math.ceil(length * ROOM_FACTOR)));
  if (!whole) into.set(old);
  into.set(tail, old.length);
  return into.subarray(0, length) as T;
}

/**
 * The ids' rows by a hash of the id (open addressing; 0 is an empty slot, else row + 1): whether an added trade is a
 * new one (an edit of an old trade that moved it past the last one is not an append) is then known without a pass over
 * every id. A slot is only a candidate: the row's id is compared, and a row at or past the copy's size is not its own.
 */
export interface IdIndex {
  table: Int32Array;
  used: number;
}

/** A hash of an id: of its first and last 8 characters (a uuid's are random), of all of a short one. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  const n = id.length;
  for (let i = 0; i < n; i++) {
    if (n > 16 && i === 8) i = n - 8;
    h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}

function insertId(index: IdIndex, id: string, row: number) {
  const mask = index.table.length - 1;
  let slot = hashId(id) & mask;
  while (index.table[slot] !== 0) slot = (slot + 1) & mask;
  index.table[slot] = row + 1;
  index.used++;
}

function buildIdIndex(ids: readonly string[], size: number, room: number): IdIndex {
  let length = 16;
  while (length < room * 3) length *= 2;
  const index = { table: new Int32Array(length), used: 0 };
  for (let i = 0; i < size; i++) insertId(index, ids[i]!, i);
  return index;
}

function hasId(index: IdIndex, ids: readonly string[], size: number, id: string): boolean {
  const mask = index.table.length - 1;
  for (let slot = hashId(id) & mask; index.table[slot] !== 0; slot = (slot + 1) & mask) {
    const row = index.table[slot]! - 1;
    if (row < size && ids[row] === id) return true;
  }
  return false;
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
  return { codes: extend(Uint32Array, a.codes, Uint32Array.from(b.codes, (code) => map[code]!), inPlace), values: values ?? a.values };
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
      t.day - oldKeys.day[last]! || t.first - oldKeys.first[last]! || t.second - oldKeys.second[last]! || t.created - oldKeys.created[last]! || (t.trade.id > a.id[last]! ? 1 : -1);
    if (order <= 0) return null;
  }
  // A lineage's index answers for any of its copies (a candidate row is checked against the copy's own ids).
  const shared = base.room?.ids ?? null;
  const index = shared ?? buildIdIndex(a.id, n, Math.ceil((n + added.length) * ROOM_FACTOR));
  for (const t of added) if (hasId(index, a.id, n, t.trade.id)) return null;

  return writeAppend(base, added, index, shared, base.room !== undefined && base.room.rows === n);
}

/**
 * `base` in arrays with room and its ids indexed, the same columns otherwise: what the server does once after reading
 * every trade (a few tens of milliseconds at 100,000 trades, beside seconds of reading), so that the first append after
 * it writes in place instead of copying then.
 */
export function reserveRoom(base: OrderedColumns): OrderedColumns {
  const n = base.columns.size;
  return writeAppend(base, [], buildIdIndex(base.columns.id, n, Math.ceil(n * ROOM_FACTOR)), null, false);
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
    day: extend(Float64Array, oldKeys.day, added.map((t) => t.day), inPlace),
    first: extend(Float64Array, oldKeys.first, added.map((t) => t.first), inPlace),
    second: extend(Float64Array, oldKeys.second, added.map((t) => t.second), inPlace),
    created: extend(Float64Array, oldKeys.created, added.map((t) => t.created), inPlace),
  };
  const columns: TradeColumns = {
    size,
    // Ids are texts, not numbers: copied (a pass over pointers, not rows rebuilt) so that each copy's list is its own.
    id: a.id.concat(b.id),
    days,
    dayWeekday,
    day: extend(Uint32Array, a.day, b.day.map((d) => d + dayOffset), inPlace),
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
    tagStart: extend(Uint32Array, a.tagStart, b.tagStart.subarray(1).map((t) => t + tagTotal), inPlace),
    tagCodes: extend(Uint32Array, a.tagCodes, b.tagCodes.map((code) => tagMap[code]!), inPlace),
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
  if ((ids.used + k) * 2 > ids.table.length) ids = buildIdIndex(columns.id, n, Math.ceil(size * ROOM_FACTOR));
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
