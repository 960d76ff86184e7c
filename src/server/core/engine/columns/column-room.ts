/**
 * Room past a copy's rows: a column is a view of the first `size` rows of an array half again as long, so
 * that trades added after the last one are written after the old rows instead of copying them (append-columns.ts);
 * and the index of a copy's ids by hash, which tells a new trade from an edited one and finds an edited trade's row
 * without a pass over every id.
 */

/** Room is made half again as large as what is needed: an import of a day's trades then rarely has to copy. */
export const ROOM_FACTOR = 1.5;

/** The length of an array with room for `size` rows. */
export const withRoom = (size: number) => Math.max(size, Math.ceil(size * ROOM_FACTOR));

/**
 * The room a merge leaves past its rows: an eighth more, at least 1,024 rows, enough for the import of the latest
 * trades
 * that usually follows. Not half again as much: a merge writes every column anew, and the memory it writes is collected
 * after it (in a script at 100,000 trades, the merge and the overview after it took about a third less than with half
 * again as much room). An append that outgrows it copies once into arrays with ROOM_FACTOR's room.
 */
export const withMergeRoom = (size: number) => size + Math.max(1024, Math.ceil(size / 8));

/**
 * The ids' rows by a hash of the id (open addressing; 0 is an empty slot, else row + 1): whether an added trade is a
 * new one (an edit of an old trade that moved it past the last one is not an append), and where an edited trade is,
 * are then known without a pass over every id. A slot is only a candidate: the row's id is compared, and a row at or
 * past the copy's size is not its own.
 */
export interface IdIndex {
  table: Int32Array;
  /** Slots taken, those of rows gone (GONE) included: they stay in the probe chains. */
  used: number;
}

/** A slot whose row is gone (a merge took it out): never a row of a copy, and not empty either. */
const GONE = 0x7fffffff;

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

export function insertId(index: IdIndex, id: string, row: number) {
  const mask = index.table.length - 1;
  let slot = hashId(id) & mask;
  while (index.table[slot] !== 0) slot = (slot + 1) & mask;
  index.table[slot] = row + 1;
  index.used++;
}

/** An index of the first `size` ids, its table sized for `room` ids (in a spare buffer when one fits). */
export function buildIdIndex(ids: readonly string[], size: number, room: number, spares?: Spares): IdIndex {
  let length = 16;
  while (length < room * 3) length *= 2;
  const index = { table: takeArray(Int32Array, length, length, spares).subarray(0, length).fill(0), used: 0 };
  for (let i = 0; i < size; i++) insertId(index, ids[i]!, i);
  return index;
}

/** Whether `added` more ids fit before the table is half full (then it is built again, larger). */
export const hasSlotsFor = (index: IdIndex, added: number) => (index.used + added) * 2 <= index.table.length;

/** The row of `id` among the first `size` of `ids`, or -1. */
export function findIdRow(index: IdIndex, ids: readonly string[], size: number, id: string): number {
  const mask = index.table.length - 1;
  for (let slot = hashId(id) & mask; index.table[slot] !== 0; slot = (slot + 1) & mask) {
    const row = index.table[slot]! - 1;
    if (row < size && ids[row] === id) return row;
  }
  return -1;
}

/**
 * A new index for rows that moved: each old row's new row in `moved` (-1: taken out), rows past it (another copy's)
 * taken out too. A pass over the table, not a hash of every id: the slots stay, only the rows they hold change.
 */
export function moveIdIndex(index: IdIndex, moved: Int32Array, spares?: Spares): IdIndex {
  const from = index.table;
  // Every slot written: a spare buffer holds a former copy's slots.
  const table = takeArray(Int32Array, from.length, from.length, spares).subarray(0, from.length);
  const rows = moved.length;
  for (let slot = 0; slot < from.length; slot++) {
    const held = from[slot]!;
    if (held === 0) {
      table[slot] = 0;
      continue;
    }
    const row = held - 1;
    const to = row < rows ? moved[row]! : -1;
    table[slot] = to < 0 ? GONE : to + 1;
  }
  return { table, used: index.used };
}

/**
 * What a merge writes into instead of new arrays: the buffers of a trader's former copies that no report
 * reads any more and no copy of theirs still uses (trades-cache.ts decides which). A merge at 100,000 trades otherwise
 * writes ~18 MB of new arrays and leaves as much to collect, and the collection falls into the next report.
 */
export interface Spares {
  /** A buffer of at least `bytes`, taken out of the spares (the smallest that fits), or null. */
  take(bytes: number): ArrayBuffer | null;
  /** A former copy's list of ids, to be written over, or null. */
  takeIds(): string[] | null;
}

export type NumberArray = Float64Array | Uint32Array | Uint8Array | Int8Array | Int32Array;
export interface NumberArrayType<T extends NumberArray> {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * An array of at least `size` elements, as long as its buffer: a spare one when one fits (holding a former copy's
 * values: the caller writes every element it reads), else a new one of `length` (zeros).
 */
export function takeArray<T extends NumberArray>(Type: NumberArrayType<T>, size: number, length: number, spares?: Spares): T {
  const buffer = spares?.take(size * Type.BYTES_PER_ELEMENT);
  return buffer ? new Type(buffer, 0, Math.floor(buffer.byteLength / Type.BYTES_PER_ELEMENT)) : new Type(length);
}

/**
 * A trader's spare buffers (see Spares), bounded by the caller (trim). A buffer is given once, by the copy that was the
 * last to use it, and taken once: the pool holds no buffer twice and hands none out twice.
 */
export class SparePool implements Spares {
  private buffers: ArrayBuffer[] = [];
  private ids: string[] | null = null;
  private held = 0;

  /** Bytes held (the ids' list not counted: pointers, under a tenth of the columns). */
  get bytes() {
    return this.held;
  }

  add(buffer: ArrayBuffer) {
    if (this.buffers.includes(buffer)) return;
    this.buffers.push(buffer);
    this.held += buffer.byteLength;
  }

  addIds(ids: string[]) {
    this.ids = ids;
  }

  take(bytes: number): ArrayBuffer | null {
    let best = -1;
    for (let i = 0; i < this.buffers.length; i++) {
      const length = this.buffers[i]!.byteLength;
      if (length >= bytes && (best < 0 || length < this.buffers[best]!.byteLength)) best = i;
    }
    if (best < 0) return null;
    const [buffer] = this.buffers.splice(best, 1);
    this.held -= buffer!.byteLength;
    return buffer!;
  }

  takeIds(): string[] | null {
    const ids = this.ids;
    this.ids = null;
    return ids;
  }

  /** Drops the buffers given longest ago until at most `limit` bytes are held. */
  trim(limit: number) {
    while (this.held > limit && this.buffers.length > 0) this.held -= this.buffers.shift()!.byteLength;
  }
}
