import { closeSync, openSync, readSync } from 'node:fs';
import { instrumentFigures } from '../../../domain/instruments';
import { readBarFile, type BarFileSummary, type BarsFailure, type ParseBarsOptions } from '../../../domain/importers/bars';
import { periodMs } from '../../../domain/market/bars';
import { BarColumnsBuilder, type BarColumns } from '../market/bar-columns';

/**
 * A bar file in the parse worker, in bounded memory: the upload is a file on disk (the route wrote it there as it came
 * in, http/read-upload.ts), read a slice at a time as batches of lines at each step that needs its bars; neither its
 * bytes nor a million bar objects are ever held. Bytes already in memory (tests, small callers) are read the same way.
 *
 * 1. scan: the whole file is read for its summary (format, resolution, each contract's span, unreadable rows, the zone
 *    check); of its bars only the compact index that tells a bar read twice is kept meanwhile (read-bar-file.ts).
 * 2. checkFills: the file is read again when the trader has fills in its span, for the range of those fills' bars.
 * 3. chunks: the file is read once more, and its bars handed out as column texts (market/bar-columns.ts) in chunks of
 *    one contract, one chunk per request, as the database stores them: the server's thread holds one chunk at a time.
 */

const SLICE = 1024 * 1024;
const LINES_PER_BATCH = 20_000;

/** A bar file: its bytes, or the path of the file that holds them. */
export type BarSource = Uint8Array | { path: string };

/**
 * The source's bytes in slices of at most `size` (a file's through one buffer, read again for each slice: the caller
 * uses each before asking for the next). The file is closed when the slices end or the reading is abandoned.
 */
export function* slicesOf(source: BarSource, size = SLICE): Generator<Uint8Array> {
  if (source instanceof Uint8Array) {
    for (let offset = 0; offset < source.length; offset += size) yield source.subarray(offset, offset + size);
    return;
  }
  const fd = openSync(source.path, 'r');
  try {
    const buffer = new Uint8Array(size);
    for (;;) {
      const read = readSync(fd, buffer, 0, size, null);
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

/** The file's lines in batches, decoded a slice at a time (UTF-8, or UTF-16 after its byte-order mark). */
export function* lineBatches(source: BarSource, size = LINES_PER_BATCH, sliceSize = SLICE): Generator<string[]> {
  let decoder: TextDecoder | null = null;
  let carry = '';
  let batch: string[] = [];
  const push = (line: string) => {
    batch.push(line.endsWith('\r') ? line.slice(0, -1) : line);
  };
  let head: Uint8Array | null = null;
  for (let slice of slicesOf(source, sliceSize)) {
    if (!decoder) {
      // The byte-order mark is read from the file's first two bytes, whatever size its first slice has.
      if (slice.length < 2 && head === null) {
        head = slice.slice();
        continue;
      }
      if (head !== null) {
        const joined = new Uint8Array(head.length + slice.length);
        joined.set(head);
        joined.set(slice, head.length);
        slice = joined;
        head = null;
      }
      const encoding = slice[0] === 0xff && slice[1] === 0xfe ? 'utf-16le' : slice[0] === 0xfe && slice[1] === 0xff ? 'utf-16be' : 'utf-8';
      // The decoder drops a byte-order mark itself.
      decoder = new TextDecoder(encoding);
    }
    const text = carry + decoder.decode(slice, { stream: true });
    const parts = text.split('\n');
    carry = parts.pop()!;
    for (const line of parts) {
      push(line);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (head !== null) {
    decoder = new TextDecoder('utf-8');
    carry = decoder.decode(head, { stream: true });
  }
  const rest = carry + (decoder ? decoder.decode() : '');
  if (rest !== '') push(rest);
  if (batch.length > 0) yield batch;
}

/** Reads the whole file for its summary: nothing of its bars is kept (the check and the chunks read the bytes again). */
export function scanBarFile(source: BarSource, options: ParseBarsOptions, between: () => void = () => undefined): BarFileSummary | BarsFailure {
  const reader = readBarFile(lineBatches(source), options);
  try {
    for (;;) {
      const step = reader.next();
      if (step.done) return step.value;
      between();
    }
  } finally {
    close(reader);
  }
}

/** Ends a reading left before its end (a failure, a request gone): its file is closed. */
function close(reader: ReturnType<typeof readBarFile>): void {
  reader.return(null as never);
}

/** One fill as the check reads it. */
export interface FillToCheck {
  /** Epoch ms. */
  time: number;
  side: string;
  quantity: string;
  price: string;
  tradeId: string;
}

/** A fill whose price lies outside its bar's range by more than a tick. */
export interface ConflictingFill extends FillToCheck {
  low: number;
  high: number;
}

export interface FillsCheck {
  contract: string;
  /** Fills of the contract that have a bar in the file. */
  checked: number;
  /** Of those, fills outside their bar's range by more than a tick. */
  outside: number;
  /** The first of them, in time order. */
  first: ConflictingFill[];
}

const SHOWN = 5;

/**
 * Each contract's fills against the bars of the file: a fill traded at a price its bar never reached, by more than a
 * tick (feeds round and time-stamp differently by a little), says the bars are not of this contract, or not as it
 * traded (another month, a back-adjusted continuous series). The file is read again for it, keeping only the range of
 * the bars that have a fill: a million bars kept for the check held 24 to 48 MB of the worker for the whole request.
 */
export function checkFillsAgainst(
  source: BarSource,
  options: ParseBarsOptions,
  resolution: 1 | 60,
  fills: Record<string, FillToCheck[]>,
  between: () => void = () => undefined,
): FillsCheck[] {
  const period = periodMs(resolution);
  interface Wanted {
    sorted: FillToCheck[];
    /** The fills (their indexes in `sorted`) of each bar start. */
    byStart: Map<number, number[]>;
    found: Uint8Array;
    lows: Float64Array;
    highs: Float64Array;
  }
  const wanted = new Map<string, Wanted>();
  for (const [contract, list] of Object.entries(fills)) {
    if (list.length === 0) continue;
    const sorted = [...list].sort((a, b) => a.time - b.time);
    const byStart = new Map<number, number[]>();
    sorted.forEach((fill, i) => {
      const start = Math.floor(fill.time / period) * period;
      const at = byStart.get(start);
      if (at) at.push(i);
      else byStart.set(start, [i]);
    });
    const n = sorted.length;
    wanted.set(contract, { sorted, byStart, found: new Uint8Array(n), lows: new Float64Array(n), highs: new Float64Array(n) });
  }
  if (wanted.size === 0) return [];
  const reader = readBarFile(lineBatches(source), options);
  try {
    for (let step = reader.next(); !step.done; step = reader.next()) {
      for (const { contract, bars } of step.value) {
        const w = wanted.get(contract);
        if (!w) continue;
        for (const bar of bars) {
          const at = w.byStart.get(bar.start);
          if (!at) continue;
          for (const i of at) {
            w.found[i] = 1;
            w.lows[i] = Number(bar.low);
            w.highs[i] = Number(bar.high);
          }
        }
      }
      between();
    }
  } finally {
    close(reader);
  }
  const out: FillsCheck[] = [];
  for (const [contract, w] of wanted) {
    const tick = Number(instrumentFigures(contract).tickSize ?? 0);
    // A hair over a tick still counts as a tick: prices compared as numbers carry rounding in their last digits.
    const tolerance = tick + 1e-9;
    const check: FillsCheck = { contract, checked: 0, outside: 0, first: [] };
    w.sorted.forEach((fill, i) => {
      if (!w.found[i]) return;
      check.checked++;
      const price = Number(fill.price);
      const low = w.lows[i]!;
      const high = w.highs[i]!;
      if (price < low - tolerance || price > high + tolerance) {
        check.outside++;
        if (check.first.length < SHOWN) check.first.push({ ...fill, low, high });
      }
    });
    if (check.checked > 0) out.push(check);
  }
  return out;
}

export interface BarChunkText {
  contract: string;
  /** The chunk's bars as core/market/bars.ts stores them. */
  columns: BarColumns;
  count: number;
}

/** The file read again, its bars in chunks of one contract and at most `size` bars, leaving out the `skip` contracts. */
export function* barChunks(
  source: BarSource,
  options: ParseBarsOptions,
  size: number,
  skip: ReadonlySet<string>,
  between: () => void = () => undefined,
): Generator<BarChunkText> {
  const buffers = new Map<string, BarColumnsBuilder>();
  const flush = (contract: string): BarChunkText | null => {
    const builder = buffers.get(contract);
    if (!builder || builder.count === 0) return null;
    const count = builder.count;
    return { contract, columns: builder.take(), count };
  };
  const reader = readBarFile(lineBatches(source), options);
  try {
    for (;;) {
      const step = reader.next();
      if (step.done) break;
      between();
      for (const { contract, bars } of step.value) {
        if (skip.has(contract)) continue;
        let builder = buffers.get(contract);
        if (!builder) buffers.set(contract, (builder = new BarColumnsBuilder()));
        for (const bar of bars) {
          builder.push(bar);
          if (builder.count >= size) yield flush(contract)!;
        }
      }
    }
  } finally {
    close(reader);
  }
  for (const contract of buffers.keys()) {
    const chunk = flush(contract);
    if (chunk) yield chunk;
  }
}
