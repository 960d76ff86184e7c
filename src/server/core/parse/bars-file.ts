import { instrumentFigures } from '../../../domain/instruments';
import { readBarFile, type BarFileSummary, type BarsFailure, type ParseBarsOptions } from '../../../domain/importers/bars';
import { periodMs } from '../../../domain/market/bars';

/**
 * A bar file in the parse worker, in bounded memory: the upload's bytes are kept (they are the file: nothing larger is
 * made of them), read as batches of lines at each step that needs its bars, and never held as a million objects.
 *
 * 1. scan: the whole file is read for its summary (format, resolution, each contract's span, unreadable rows, the zone
 *    check); of its bars only the compact index that tells a bar read twice is kept meanwhile (read-bar-file.ts).
 * 2. checkFills: the file is read again when the trader has fills in its span, for the range of those fills' bars.
 * 3. chunks: the file is read once more, and its bars handed out as JSON text in chunks of one contract, one chunk per
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

/** Reads the whole file for its summary: nothing of its bars is kept (the check and the chunks read the bytes again). */
export function scanBarFile(bytes: Uint8Array, options: ParseBarsOptions, between: () => void = () => undefined): BarFileSummary | BarsFailure {
  const reader = readBarFile(lineBatches(bytes), options);
  for (;;) {
    const step = reader.next();
    if (step.done) return step.value;
    between();
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
 * traded (another month, a back-adjusted continuous series). The file is read again for it, keeping only the range of
 * the bars that have a fill: a million bars kept for the check held 24 to 48 MB of the worker for the whole request.
 */
export function checkFillsAgainst(
  bytes: Uint8Array,
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
  const reader = readBarFile(lineBatches(bytes), options);
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
  /** [{ s, o, h, l, c, v }] as core/market/bars.ts stores it. */
  json: string;
  count: number;
}

/** The file read again, its bars in chunks of one contract and at most `size` bars, leaving out the `skip` contracts. */
export function* barChunks(
  bytes: Uint8Array,
  options: ParseBarsOptions,
  size: number,
  skip: ReadonlySet<string>,
  between: () => void = () => undefined,
): Generator<BarChunkText> {
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
    between();
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
