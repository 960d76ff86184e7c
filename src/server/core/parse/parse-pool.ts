import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportOptions } from '../../../domain/importers';
import type { BarFileSummary, BarsFailure, ParseBarsOptions } from '../../../domain/importers/bars';
import { MAX_IMPORT_BYTES } from '../../../domain/importers';
import { HttpError } from '../../http/errors';
import { giveBackMemory } from '../../memory';
import type { BackupSummary } from './backup-file';
import type { BarChunkText, FillsCheck, FillToCheck } from './bars-file';
import { createParseGate, DEFAULT_GATE_LIMITS } from './parse-gate';
import type { finishPreview, FinishPlan, ImportChunk, ImportDone, Summary } from './plan';

/**
 * Import files are parsed in worker threads: a 25 MB export takes seconds of CPU, and on the
 * server's own thread every other request, /api/health included, waited for it. One worker per spare core (at most
 * two), started on the first import and stopped after 10 s without work (an idle worker's isolate and
 * the heap its last file grew stayed resident for a minute). A parsed file stays in its worker while
 * the request reads the database, then the same worker finishes it (plan.ts). Workers are unref'd, so they never
 * keep a stopping server alive.
 */
const IDLE_MS = 10_000;
const SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
/**
 * A previewed file stays parsed in its worker this long (the import's speed): confirming the preview sends
 * the same bytes with the same options, so the import reuses the parse instead of reading 100,000 fills again. One
 * file per trader at most (a newer upload replaces it) and MAX_KEPT in all.
 */
const REUSE_MS = 5 * 60_000;
/** Files kept for reuse across all traders at most, and their uploads' bytes at most. */
const MAX_KEPT = 2;
const MAX_KEPT_BYTES = MAX_IMPORT_BYTES;
/** The worker drops a file left this long without a request: a net under a request that never came back. */
const HOLD_MS = 2 * REUSE_MS;

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; onPart?: (part: unknown) => void }>;
  /** Parsed files held in this worker (in use by a request, or kept for reuse). */
  jobs: Set<number>;
  idle: ReturnType<typeof setTimeout> | null;
}

const slots: Slot[] = [];
let nextId = 1;

/** A parsed file kept for the next request with the same bytes, options and trader. */
interface Kept {
  key: string;
  /** The trader whose upload it is: each keeps one file at most. */
  userId: string;
  slot: Slot;
  job: number;
  summary: Summary;
  bytes: number;
  /** Requests using it now: it is dropped only once none is. */
  users: number;
  expiry: ReturnType<typeof setTimeout> | null;
}
const kept = new Map<string, Kept>();
/** How many files the workers have parsed (the tests check that a confirmed preview is not parsed again). */
let parses = 0;
export const parseCount = () => parses;

/**
 * Uploads read at once, within a memory budget; the rest wait their turn (parse-gate.ts). A file kept for reuse
 * counts against that budget once nobody uses it: the trader's own kept files go first when their next upload is let
 * in (it replaces them), then the oldest, as far as the budget needs.
 */
const gate = createParseGate(DEFAULT_GATE_LIMITS, (userId, readingBytes, budget) => {
  for (const entry of [...kept.values()]) if (entry.userId === userId && entry.users === 0) forget(entry);
  let keptBytes = [...kept.values()].reduce((sum, entry) => sum + (entry.users === 0 ? entry.bytes : 0), 0);
  for (const entry of [...kept.values()]) {
    if (readingBytes + keptBytes <= budget) break;
    if (entry.users > 0) continue;
    keptBytes -= entry.bytes;
    forget(entry);
  }
});
/** The trader's uploads waiting their turn, and how many are ahead (GET /api/imports/queue). */
export const importQueueStatus = (userId: string) => gate.status(userId);

/** A request to a worker; `onPart` receives what the worker sends before its answer (an import's chunks). */
function call<T>(slot: Slot, message: Record<string, unknown> & { type: string }, onPart?: (part: never) => void): Promise<T> {
  const id = nextId++;
  if (slot.idle) clearTimeout(slot.idle);
  slot.idle = null;
  slot.worker.ref();
  return new Promise<T>((resolve, reject) => {
    slot.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, ...(onPart && { onPart: onPart as (part: unknown) => void }) });
    slot.worker.postMessage({ ...message, id });
  });
}

function settle(slot: Slot) {
  if (slot.pending.size > 0) return;
  slot.worker.unref();
  if (slot.jobs.size === 0 && !slot.idle) {
    slot.idle = setTimeout(() => {
      stopSlot(slot);
      // The last worker gone: the imports are over for now, and what they left on the main heap can go back too.
      if (slots.length === 0) giveBackMemory();
    }, IDLE_MS);
    slot.idle.unref();
  }
}

export interface ParseJob {
  summary: Summary;
  preview(plan: FinishPlan, limit: number): Promise<ReturnType<typeof finishPreview>>;
  /** Builds the INSERT parameters: each chunk goes to `onChunk` as it arrives, before the promise settles. */
  import(plan: FinishPlan, userId: string, chunk: number, onChunk: (chunk: ImportChunk) => void): Promise<ImportDone>;
  /** Frees the parsed file in its worker; call it when the request is done, whatever happened. */
  release(): void;
  /**
   * Frees it and keeps it no longer for a request to come: an import that committed has no confirmation to follow, and
   * a file kept five minutes held its worker's memory that long (~100 MB after 10,000 trades).
   */
  finish(): void;
}

/**
 * The key a parse is kept under: the trader, the SHA-256 of the bytes (hex, taken as the upload arrived) and every
 * option the parse reads. The parse is pure, so the same key gives the same result; the trader is part of it so nobody
 * learns from the timing what another uploaded.
 */
export function reuseKey(userId: string, digest: string, options: ImportOptions): string {
  return `${userId}\n${digest}\n${JSON.stringify(options)}`;
}

/**
 * An upload as the parse worker reads it: the file the route wrote it to (http/read-upload.ts), which the worker reads
 * when the file's turn at the gate comes, so no thread holds it while it waits.
 */
export interface Upload {
  path: string;
  size: number;
}

/**
 * Parses an upload in a worker when its turn comes (parse-gate.ts). With `reuse` (reuseKey()), a file parsed for the same key a moment ago is used as it is,
 * and this one is kept in turn.
 */
export async function parseInWorker(upload: Upload, options: ImportOptions, reuse?: { key: string; userId: string }): Promise<ParseJob> {
  const found = reuse && kept.get(reuse.key);
  if (found && slots.includes(found.slot)) {
    found.users++;
    if (found.expiry) clearTimeout(found.expiry);
    found.expiry = null;
    return jobOf(
      found.slot,
      found.job,
      found.summary,
      () => keep(found),
      () => forget(found),
    );
  }
  const size = upload.size;
  const pass = await gate.enter(reuse?.userId ?? '', size);
  const slot = pickSlot();
  const job = nextId++;
  slot.jobs.add(job);
  const drop = () => {
    dropJob(slot, job);
    pass.release();
  };
  try {
    parses++;
    const summary = await call<Summary>(slot, { type: 'summarize', job, path: upload.path, options, hold: HOLD_MS });
    if (!summary.ok) {
      drop();
      return jobOf(slot, job, summary, drop);
    }
    if (!reuse || size > MAX_KEPT_BYTES) return jobOf(slot, job, summary, drop);
    // This trader's previous file, if no request is using it, makes room for this one.
    for (const other of kept.values()) if (other.userId === reuse.userId && other.users === 0) forget(other);
    const entry: Kept = { key: reuse.key, userId: reuse.userId, slot, job, summary, bytes: size, users: 1, expiry: null };
    kept.set(reuse.key, entry);
    // The oldest unused files make room, by count and by bytes (kept files do not count against the gate's budget).
    const keptBytes = () => [...kept.values()].reduce((sum, k) => sum + k.bytes, 0);
    for (const other of [...kept.values()]) if ((kept.size > MAX_KEPT || keptBytes() > MAX_KEPT_BYTES) && other.users === 0) forget(other);
    // The request's turn ends when it is done with the file, kept or not.
    return jobOf(
      slot,
      job,
      summary,
      () => {
        keep(entry);
        pass.release();
      },
      () => forget(entry),
    );
  } catch (error) {
    drop();
    throw failureOf(error);
  }
}

/** A JSON backup (POST /api/trades/import) read and checked in a worker, held there as its INSERT parameters. */
export interface BackupJob {
  summary: BackupSummary;
  /** The `index`th chunk of rows (each handed over once), or null after the last. */
  chunk(index: number): Promise<string | null>;
  /** Frees the backup in its worker; call it when the request is done, whatever happened. */
  release(): void;
}

/** Reads a JSON backup in a worker when its turn comes, in chunks of `chunk` rows. */
export async function readBackupInWorker(upload: Upload, options: { userId: string; timeZone: string; chunk: number }): Promise<BackupJob> {
  const pass = await gate.enter(options.userId, upload.size);
  const slot = pickSlot();
  const job = nextId++;
  slot.jobs.add(job);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    dropJob(slot, job);
    pass.release();
  };
  try {
    parses++;
    const summary = await call<BackupSummary>(slot, { type: 'backup', job, path: upload.path, ...options, hold: HOLD_MS });
    if (!summary.ok) release();
    return { summary, chunk: (index) => call<string | null>(slot, { type: 'backup-chunk', job, index }), release };
  } catch (error) {
    release();
    throw failureOf(error);
  }
}

/** A worker that ran out of memory took its requests with it: the trader is told, the server goes on. */
function failureOf(error: unknown): unknown {
  if (error instanceof Error && (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new HttpError(503, OUT_OF_MEMORY_MESSAGE, { code: 'import-too-large-now' });
  }
  return error;
}

export const OUT_OF_MEMORY_MESSAGE = 'The server does not have the memory to read this file right now. Please try again in a few minutes.';

function jobOf(slot: Slot, job: number, summary: Summary, release: () => void, unkeep: () => void = () => undefined): ParseJob {
  let released = false;
  const done = () => {
    if (released) return;
    released = true;
    release();
  };
  return {
    summary,
    preview: (plan, limit) => call(slot, { type: 'preview', job, plan, limit }),
    import: (plan, userId, chunk, onChunk) => call(slot, { type: 'import', job, plan, userId, chunk }, onChunk),
    release: done,
    finish: () => {
      if (!released) unkeep();
      done();
    },
  };
}

/** A request is done with a kept file: once none uses it, it waits REUSE_MS for the next one. */
function keep(entry: Kept): void {
  entry.users--;
  if (entry.users > 0 || kept.get(entry.key) !== entry) {
    if (entry.users === 0) dropJob(entry.slot, entry.job);
    return;
  }
  entry.expiry = setTimeout(() => forget(entry), REUSE_MS);
  entry.expiry.unref();
}

/** No longer kept: dropped in its worker now, or by the last request using it. */
function forget(entry: Kept): void {
  if (kept.get(entry.key) === entry) kept.delete(entry.key);
  if (entry.expiry) clearTimeout(entry.expiry);
  entry.expiry = null;
  if (entry.users === 0) dropJob(entry.slot, entry.job);
}

function dropJob(slot: Slot, job: number): void {
  if (!slot.jobs.delete(job)) return;
  if (slots.includes(slot)) void call(slot, { type: 'drop', job }).catch(() => undefined);
  settle(slot);
}

/** The worker with the least work, or a new one while there are fewer than SIZE. */
function pickSlot(): Slot {
  const free = slots.find((s) => s.pending.size === 0 && s.jobs.size === 0);
  if (free) return free;
  if (slots.length < SIZE) return startSlot();
  return slots.reduce((a, b) => (a.pending.size + a.jobs.size <= b.pending.size + b.jobs.size ? a : b));
}

function startSlot(): Slot {
  const slot: Slot = { worker: spawn(), pending: new Map(), jobs: new Set(), idle: null };
  slot.worker.unref();
  slot.worker.on('message', (message: { id: number; part?: unknown; result?: unknown; error?: string }) => {
    const waiting = slot.pending.get(message.id);
    if (!waiting) return;
    if (message.part !== undefined) {
      waiting.onPart?.(message.part);
      return;
    }
    slot.pending.delete(message.id);
    if (message.error !== undefined) waiting.reject(new Error(`The import could not be read: ${message.error}`));
    else waiting.resolve(message.result);
    settle(slot);
  });
  const fail = (error: Error) => {
    stopSlot(slot);
    for (const waiting of slot.pending.values()) waiting.reject(error);
    slot.pending.clear();
  };
  slot.worker.on('error', fail);
  slot.worker.on('exit', (code) => fail(new Error(`The import worker stopped (exit code ${code})`)));
  slots.push(slot);
  return slot;
}

function stopSlot(slot: Slot): void {
  const index = slots.indexOf(slot);
  if (index !== -1) slots.splice(index, 1);
  for (const entry of kept.values()) if (entry.slot === slot) forget(entry);
  if (slot.idle) clearTimeout(slot.idle);
  slot.worker.removeAllListeners('exit');
  void slot.worker.terminate();
}

/**
 * A worker's heap, at most: the largest file (50 MB of Tradovate Performance rows, 250,000 trades)
 * needs about 900 MB while it is read. A file beyond that fails its request (503, try again) and ends its worker,
 * rather than taking the server's memory with it. The young generation is kept small: what a parse makes and keeps
 * moves on to the old one soon anyway, and V8's default size held 20 MB more of the server's memory through a 15 MB
 * export's parse, for 5% of its time.
 */
const resourceLimits = { maxOldGenerationSizeMb: 1536, maxYoungGenerationSizeMb: 8 };

/**
 * The worker module: under `npm start` this code is inside the server bundle (dist/server/main.mjs) and the worker is
 * the bundle's second entry beside it (scripts/build-if-needed.mjs); from source it is the TypeScript module beside
 * this one, which a worker loads through tsx's API (a worker does not inherit the loader the main thread was started
 * with).
 */
function spawn(): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(typescript ? './parse-worker.ts' : './parse-worker.mjs', import.meta.url);
  if (!typescript) return new Worker(entry, { resourceLimits });
  // tsx's ES module API (its package maps the same path to .cjs for require and .mjs for import).
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return new Worker(
    `const { workerData } = require('node:worker_threads');
     import(workerData.tsxApi).then((api) => api.tsImport(workerData.entry, workerData.entry));`,
    { eval: true, workerData: { entry: entry.href, tsxApi }, resourceLimits },
  );
}

/** A bar file read in a worker (bars-file.ts): its turn at the gate is the caller's until release(). */
export interface BarsJob {
  summary: BarFileSummary | BarsFailure;
  /** The trader's fills of each contract against the file's bars. */
  checkFills(fills: Record<string, FillToCheck[]>): Promise<FillsCheck[]>;
  /** The file's bars as JSON chunks of one contract and at most `size` bars, one at a time, leaving out `skip`. */
  chunks(options: { size: number; skip?: readonly string[] }): AsyncGenerator<BarChunkText>;
  release(): void;
}

/**
 * Reads a price-bar file in a worker: a year of 1-minute bars is 350,000 rows, and a 50 MB file a million, which on the
 * server's own thread would hold every other request, and handed over whole took gigabytes. The worker reads the file
 * from disk a slice at a time at each step (bars-file.ts), so no thread holds its bytes. It waits its turn at the gate
 * as a trade file does, counting the file's size, and keeps it until the caller has stored what it needs and calls
 * release(), whatever happened.
 */
export async function parseBarsInWorker(upload: Upload, options: ParseBarsOptions, userId: string): Promise<BarsJob> {
  const pass = await gate.enter(userId, upload.size);
  const slot = pickSlot();
  const job = nextId++;
  slot.jobs.add(job);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    dropJob(slot, job);
    pass.release();
  };
  try {
    parses++;
    const summary = await call<BarFileSummary | BarsFailure>(slot, { type: 'bars-scan', job, path: upload.path, options, hold: HOLD_MS });
    return {
      summary,
      checkFills: (fills) => call<FillsCheck[]>(slot, { type: 'bars-check', job, fills }),
      async *chunks({ size, skip = [] }) {
        for (;;) {
          const chunk = await call<BarChunkText | null>(slot, { type: 'bars-chunk', job, size, skip: [...skip] }).catch((error: unknown) => {
            throw failureOf(error);
          });
          if (chunk === null) return;
          yield chunk;
        }
      },
      release,
    };
  } catch (error) {
    release();
    throw failureOf(error);
  }
}

/** A turn at the gate taken by hand: the tests hold the budget with it to see an upload wait. */
export const enterParseGate = (userId: string, bytes: number) => gate.enter(userId, bytes);

/** Stops every worker (tests, shutdown). Requests in progress fail. */
export async function stopParseWorkers(): Promise<void> {
  for (const entry of kept.values()) if (entry.expiry) clearTimeout(entry.expiry);
  kept.clear();
  await Promise.all(
    slots.splice(0).map(async (slot) => {
      for (const waiting of slot.pending.values()) waiting.reject(new Error('The server is stopping'));
      slot.pending.clear();
      slot.worker.removeAllListeners('exit');
      await slot.worker.terminate();
    }),
  );
}
