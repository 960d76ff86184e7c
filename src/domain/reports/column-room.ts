/**
 * Room past a copy's rows (issue 26): a column is a view of the first `size` rows of an array half again as long, so
 * that trades added after the last one are written after the old rows instead of copying them (append-columns.ts);
 * and the index of a copy's ids by hash, which tells a new trade from an edited one and finds an edited trade's row
 * without a pass over every id.
 */

/** Room is made half again as large as what is needed: an import of a day's trades then rarely has to copy. */
export const ROOM_FACTOR = 1.5;

/** The length of an array with room for `size` rows. */
export const withRoom = (size: number) => Math.max(size, Math.ceil(size * ROOM_FACTOR));

/**
 * The room a merge leaves past its rows: an eighth more, at least 1,024 rows, enough for the import of the latest trades
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

/** An index of the first `size` ids, its table sized for `room` ids. */
export function buildIdIndex(ids: readonly string[], size: number, room: number): IdIndex {
  let length = 16;
  while (length < room * 3) length *= 2;
  const index = { table: new Int32Array(length), used: 0 };
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
export function moveIdIndex(index: IdIndex, moved: Int32Array): IdIndex {
  const from = index.table;
  const table = new Int32Array(from.length);
  const rows = moved.length;
  for (let slot = 0; slot < from.length; slot++) {
    const held = from[slot]!;
    if (held === 0) continue;
    const row = held - 1;
    const to = row < rows ? moved[row]! : -1;
    table[slot] = to < 0 ? GONE : to + 1;
  }
  return { table, used: index.used };
}
