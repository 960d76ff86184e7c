import { readFileSync } from 'node:fs';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import type { ImportOptions } from '../../../domain/importers';
import type { BarFileSummary, BarsFailure, ParseBarsOptions } from '../../../domain/importers/bars';
import { readBackup } from './backup-file';
import { barChunks, checkFillsAgainst, scanBarFile, type BarChunkText, type BarSource, type FillToCheck } from './bars-file';
import type { ParsedFile } from './convert';
import { finishImport, finishPreview, summarize, type FinishPlan } from './plan';
import { readUploadText } from './upload-text';

/**
 * The parse worker: reads uploads and prepares what is shown or stored, off the server's event
 * loop (plan.ts). A parsed file stays here between the two halves of a request, or longer when it is kept for the
 * next request with the same file (a preview's confirmation), and is dropped when the pool says so, or after HOLD_MS
 * (parse-pool.ts) without a request.
 */
type Request =
  | { id: number; type: 'summarize'; job: number; path: string; options: ImportOptions; hold: number }
  | { id: number; type: 'preview'; job: number; plan: FinishPlan; limit: number }
  | { id: number; type: 'import'; job: number; plan: FinishPlan; userId: string; chunk: number }
  | { id: number; type: 'backup'; job: number; path: string; userId: string; timeZone: string; chunk: number; hold: number }
  | { id: number; type: 'backup-chunk'; job: number; index: number }
  | { id: number; type: 'drop'; job: number }
  | { id: number; type: 'bars-scan'; job: number; path: string; options: ParseBarsOptions; hold: number }
  | { id: number; type: 'bars-check'; job: number; fills: Record<string, FillToCheck[]> }
  | { id: number; type: 'bars-chunk'; job: number; size: number; skip: string[] };

/**
 * A full collection once a parsed file is let go: left to itself, V8 let the dead file of the last
 * request and the next one's parse pile up to twice the memory either needed before it collected, and the server's
 * memory grew by as much. The collection runs here, on the worker's thread, not the server's.
 */
setFlagsFromString('--expose-gc');
const collect = ((): (() => void) => {
  try {
    return runInNewContext('gc') as () => void;
  } catch {
    // A Node that does not expose it so: V8 collects in its own time.
    return () => undefined;
  }
})();
/**
 * Between two batches of a bar file's lines, and every few thousand rows and trades of a trade file's parse
 * (parseImport): a collection once the heap holds TIDY_BYTES more than the last collection left. Reading a million
 * bars, V8 let what the batches left behind grow the worker's heap past 200 MB before it collected, for a file whose
 * live state (its bytes aside, which are not on the heap) is a few MB; a 15 MB Tradovate Performance export peaked
 * 120 MB higher without collections during its parse. Collected here, the heap stays near what is live, at a few
 * milliseconds of the worker's time each, and a parse whose live data grows is not collected at every call.
 */
const TIDY_BYTES = 24 * 1024 * 1024;
let leftByCollection = 0;
const heapUsed = () => getHeapStatistics().used_heap_size;
function collectNow() {
  collect();
  leftByCollection = heapUsed();
}
function tidy() {
  if (heapUsed() - leftByCollection > TIDY_BYTES) collectNow();
}
let collecting: ReturnType<typeof setImmediate> | null = null;
function collectSoon() {
  collecting ??= setImmediate(() => {
    collecting = null;
    collectNow();
  });
}

/**
 * A parsed broker file, a checked JSON backup (POST /api/trades/import) as its INSERT parameters, or a bar file: its
 * bytes, what its scan found, and where its chunks have got to.
 */
type Held =
  | { parsed: Extract<ParsedFile, { ok: true }> }
  | { chunks: string[] }
  | { bars: { source: BarSource; options: ParseBarsOptions; summary: BarFileSummary | BarsFailure; reading: Generator<BarChunkText> | null } };

const held = new Map<number, { value: Held; hold: number; timer: ReturnType<typeof setTimeout> }>();

function hold(job: number, value: Held, ms: number) {
  held.set(job, { value, hold: ms, timer: setTimeout(() => letGo(job), ms) });
}

/** Drops what a job holds: a bar file's reading left half way closes its file. */
function letGo(job: number): void {
  const entry = held.get(job);
  if (!entry) return;
  clearTimeout(entry.timer);
  held.delete(job);
  if ('bars' in entry.value) entry.value.bars.reading?.return(undefined);
  collectSoon();
}

/** What a job holds; its timer starts again, since a kept file may serve several requests (parse-pool.ts). */
function heldValue(job: number): Held {
  const entry = held.get(job);
  if (!entry) throw new Error('the parsed file is no longer held (the request took too long)');
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => letGo(job), entry.hold);
  return entry.value;
}

function heldFile(job: number) {
  const value = heldValue(job);
  if (!('parsed' in value)) throw new Error('the job holds no parsed file');
  return value.parsed;
}

function heldBars(job: number) {
  const value = heldValue(job);
  if (!('bars' in value)) throw new Error('the job holds no bar file');
  return value;
}

function handle(request: Request): unknown {
  switch (request.type) {
    case 'summarize': {
      // A kept file given up for this one (parse-pool.ts) is collected first: its memory serves this parse.
      if (heapUsed() > TIDY_BYTES) collectNow();
      // The upload is read from its file now, its turn come, a piece of its text at a time (readUploadText): the
      // holder is the only thing here that keeps the pieces, and the parse empties it.
      const { summary, parsed } = summarize(readUploadText(request.path), request.options, tidy);
      if (parsed) hold(request.job, { parsed }, request.hold);
      return summary;
    }
    case 'backup': {
      const { summary, chunks } = readBackup(readFileSync(request.path), request);
      if (summary.ok) hold(request.job, { chunks }, request.hold);
      return summary;
    }
    case 'backup-chunk': {
      const value = heldValue(request.job);
      if (!('chunks' in value)) throw new Error('the job holds no backup');
      // Handed over once: the request inserts each chunk once, in order.
      const chunk = value.chunks[request.index] ?? null;
      if (chunk !== null) value.chunks[request.index] = '';
      return chunk;
    }
    case 'preview':
      return finishPreview(heldFile(request.job), request.plan, request.limit);
    case 'import': {
      // Each chunk goes to the request thread as soon as it is built; the last message is the outcome.
      const chunks = finishImport(heldFile(request.job), request.plan, request.userId, request.chunk);
      for (let step = chunks.next(); ; step = chunks.next()) {
        if (step.done) return step.value;
        parentPort!.postMessage({ id: request.id, part: step.value });
      }
    }
    case 'bars-scan': {
      // The file is read from disk at each step, a slice at a time.
      const source = { path: request.path };
      const summary = scanBarFile(source, request.options, tidy);
      if (summary.ok) hold(request.job, { bars: { source, options: request.options, summary, reading: null } }, request.hold);
      // What the scan read is garbage now: collected before the request's next step reads the file again.
      collectSoon();
      return summary;
    }
    case 'bars-check': {
      const { bars } = heldBars(request.job);
      if (!bars.summary.ok) return [];
      const checks = checkFillsAgainst(bars.source, bars.options, bars.summary.resolution, request.fills, tidy);
      collectSoon();
      return checks;
    }
    case 'bars-chunk': {
      const { bars } = heldBars(request.job);
      bars.reading ??= barChunks(bars.source, bars.options, request.size, new Set(request.skip), tidy);
      const step = bars.reading.next();
      return step.done ? null : step.value;
    }
    case 'drop':
      letGo(request.job);
      return null;
  }
}

parentPort!.on('message', (request: Request) => {
  try {
    parentPort!.postMessage({ id: request.id, result: handle(request) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
