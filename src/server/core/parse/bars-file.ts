import { instrumentFigures } from '../../../domain/instruments';
import { readBarFile, type BarFileSummary, type BarsFailure, type ParseBarsOptions } from '../../../domain/importers/bars';
import { periodMs, type Bar } from '../../../domain/market/bars';

/**
 * A bar file in the parse worker, in bounded memory: the upload's bytes are kept (they are the file: nothing larger is
 * made of them), read as batches of lines twice, and never held as a million objects.
 *
 * 1. scan: the whole file is read for its summary (format, resolution, each contract's span, unreadable rows, the zone
 *    check), keeping of each bar only its start, low and high (24 bytes) for the check against the trader's fills.
 * 2. checkFills: the trader's fills of each contract against the bars of their minutes.
 * 3. chunks: the file is read again, and its bars handed out as JSON text in chunks of one contract, one chunk per
 *    request, as the database stores them: the server's thread holds one chunk at a time.
 */

const SLICE = 1024 * 1024;
const LINES_PER_BATCH = 20_000;

/** The file's lines in batches, decoded a slice at a time (UTF-8, or UTF-16 after its byte-order mark). */
export function* lineBatches(bytes: Uint8Array, size = LINES_PER_BATCH): Generator<string[]> {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  // The decoder drops a byte-order mark itself.
  const decoder = new TextDecoder(encoding);
  let carry = '';
  let batch: string[] = [];
  const push = (line: string) => {
    batch.push(line.endsWith('\r') ? line.slice(0, -1) : line);
  };
  for (let offset = 0; offset < bytes.length; offset += SLICE) {
    const text = carry + decoder.decode(bytes.subarray(offset, offset + SLICE), { stream: true });
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
  const rest = carry + decoder.decode();
  if (rest !== '') push(rest);
  if (batch.length > 0) yield batch;
}

/** A contract's bars as the fills check reads them: starts, lows and highs in growable typed arrays. */
class Columns {
  starts = new Float64Array(1024);
  lows = new Float64Array(1024);
  highs = new Float64Array(1024);
  size = 0;
  sorted = true;

  add(bar: Bar) {
    if (this.size === this.starts.length) {
      for (const key of ['starts', 'lows', 'highs'] as const) {
        const next = new Float64Array(this.starts.length * 2);
        next.set(this[key]);
        this[key] = next;
      }
    }
    if (this.size > 0 && bar.start < this.starts[this.size - 1]!) this.sorted = false;
    this.starts[this.size] = bar.start;
    this.lows[this.size] = Number(bar.low);
    this.highs[this.size] = Number(bar.high);
    this.size++;
  }

  /** Sorted by start, once, before the first lookup (a file out of time order). */
  order() {
    if (this.sorted) return;
    const index = Array.from({ length: this.size }, (_, i) => i).sort((a, b) => this.starts[a]! - this.starts[b]!);
    const pick = (array: Float64Array) => Float64Array.from(index, (i) => array[i]!);
    this.starts = pick(this.starts);
    this.lows = pick(this.lows);
    this.highs = pick(this.highs);
    this.sorted = true;
  }

  /** The index of the bar starting at `start`, or -1. */
  find(start: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.size && this.starts[lo] === start ? lo : -1;
  }
}

export interface ScannedBars {
  summary: BarFileSummary | BarsFailure;
  columns: Map<string, Columns>;
}

export function scanBarFile(bytes: Uint8Array, options: ParseBarsOptions): ScannedBars {
  const columns = new Map<string, Columns>();
  const reader = readBarFile(lineBatches(bytes), options);
  for (;;) {
    const step = reader.next();
    if (step.done) {
      for (const c of columns.values()) c.order();
      return { summary: step.value, columns };
    }
    for (const { contract, bars } of step.value) {
      let c = columns.get(contract);
      if (!c) columns.set(contract, (c = new Columns()));
      for (const bar of bars) c.add(bar);
    }
  }
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
 * traded (another month, a back-adjusted continuous series).
 */
export function checkFillsAgainst(scanned: ScannedBars, resolution: 1 | 60, fills: Record<string, FillToCheck[]>): FillsCheck[] {
  const period = periodMs(resolution);
  const out: FillsCheck[] = [];
  for (const [contract, list] of Object.entries(fills)) {
    const c = scanned.columns.get(contract);
    if (!c || list.length === 0) continue;
    const tick = Number(instrumentFigures(contract).tickSize ?? 0);
    // A hair over a tick still counts as a tick: prices compared as numbers carry rounding in their last digits.
    const tolerance = tick + 1e-9;
    const check: FillsCheck = { contract, checked: 0, outside: 0, first: [] };
    for (const fill of [...list].sort((a, b) => a.time - b.time)) {
      const index = c.find(Math.floor(fill.time / period) * period);
      if (index === -1) continue;
      check.checked++;
      const price = Number(fill.price);
      const low = c.lows[index]!;
      const high = c.highs[index]!;
      if (price < low - tolerance || price > high + tolerance) {
        check.outside++;
        if (check.first.length < SHOWN) check.first.push({ ...fill, low, high });
      }
    }
    if (check.checked > 0) out.push(check);
  }
  return out;
}

export interface BarChunkText {
  contract: string;
  /** [{ s, o, h, l, c, v }] as core/market/bars.ts stores it. */
  json: string;
  count: number;
}

/** The file read again, its bars in chunks of one contract and at most `size` bars, leaving out the `skip` contracts. */
export function* barChunks(bytes: Uint8Array, options: ParseBarsOptions, size: number, skip: ReadonlySet<string>): Generator<BarChunkText> {
  const buffers = new Map<string, string[]>();
  const flush = (contract: string): BarChunkText | null => {
    const parts = buffers.get(contract);
    if (!parts || parts.length === 0) return null;
    buffers.set(contract, []);
    return { contract, json: `[${parts.join(',')}]`, count: parts.length };
  };
  const reader = readBarFile(lineBatches(bytes), options);
  for (;;) {
    const step = reader.next();
    if (step.done) break;
    for (const { contract, bars } of step.value) {
      if (skip.has(contract)) continue;
      let parts = buffers.get(contract);
      if (!parts) buffers.set(contract, (parts = []));
      for (const bar of bars) {
        parts.push(JSON.stringify({ s: new Date(bar.start).toISOString(), o: bar.open, h: bar.high, l: bar.low, c: bar.close, v: bar.volume }));
        if (parts.length >= size) {
          yield flush(contract)!;
          parts = buffers.get(contract)!;
        }
      }
    }
  }
  for (const contract of buffers.keys()) {
    const chunk = flush(contract);
    if (chunk) yield chunk;
  }
}
