import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportOptions } from '../../../domain/importers';
import type { finishImport, finishPreview, FinishPlan, Summary } from './plan';

/**
 * Import files are parsed in worker threads (issue 13, point 5): a 25 MB export takes seconds of CPU, and on the
 * server's own thread every other request, /api/health included, waited for it. One worker per spare core (at most
 * two), started on the first import and stopped after a minute without work. A parsed file stays in its worker while
 * the request reads the database, then the same worker finishes it (plan.ts). Workers are unref'd, so they never
 * keep a stopping server alive.
 */
const IDLE_MS = 60_000;
const SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
  /** Parsed files held in this worker. */
  jobs: Set<number>;
  idle: ReturnType<typeof setTimeout> | null;
}

const slots: Slot[] = [];
let nextId = 1;

function call<T>(slot: Slot, message: Record<string, unknown> & { type: string }, transfer: ArrayBuffer[] = []): Promise<T> {
  const id = nextId++;
  if (slot.idle) clearTimeout(slot.idle);
  slot.idle = null;
  slot.worker.ref();
  return new Promise<T>((resolve, reject) => {
    slot.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    slot.worker.postMessage({ ...message, id }, transfer);
  });
}

function settle(slot: Slot) {
  if (slot.pending.size > 0) return;
  slot.worker.unref();
  if (slot.jobs.size === 0 && !slot.idle) {
    slot.idle = setTimeout(() => stopSlot(slot), IDLE_MS);
    slot.idle.unref();
  }
}

export interface ParseJob {
  summary: Summary;
  preview(plan: FinishPlan, limit: number): Promise<ReturnType<typeof finishPreview>>;
  import(plan: FinishPlan, userId: string, chunk: number): Promise<ReturnType<typeof finishImport>>;
  /** Frees the parsed file in its worker; call it when the request is done, whatever happened. */
  release(): void;
}

/** Parses an upload in a worker (the bytes are transferred: the caller must not use them afterwards). */
export async function parseInWorker(bytes: ArrayBuffer, options: ImportOptions): Promise<ParseJob> {
  const slot = pickSlot();
  const job = nextId++;
  slot.jobs.add(job);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    slot.jobs.delete(job);
    if (slots.includes(slot)) void call(slot, { type: 'drop', job }).catch(() => undefined);
    settle(slot);
  };
  try {
    const summary = await call<Summary>(slot, { type: 'summarize', job, bytes, options }, [bytes]);
    if (!summary.ok) release();
    return {
      summary,
      preview: (plan, limit) => call(slot, { type: 'preview', job, plan, limit }),
      import: (plan, userId, chunk) => call(slot, { type: 'import', job, plan, userId, chunk }),
      release,
    };
  } catch (error) {
    release();
    throw error;
  }
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
  slot.worker.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const waiting = slot.pending.get(message.id);
    if (!waiting) return;
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
  if (slot.idle) clearTimeout(slot.idle);
  slot.worker.removeAllListeners('exit');
  void slot.worker.terminate();
}

/**
 * The worker module: under `npm start` this code is inside the server bundle (dist/server/main.mjs) and the worker is
 * the bundle's second entry beside it (scripts/build-if-needed.mjs); from source it is the TypeScript module beside
 * this one, which a worker loads through tsx's API (a worker does not inherit the loader the main thread was started
 * with).
 */
function spawn(): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(typescript ? './parse-worker.ts' : './parse-worker.mjs', import.meta.url);
  if (!typescript) return new Worker(entry);
  // tsx's ES module API (its package maps the same path to .cjs for require and .mjs for import).
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return new Worker(
    `const { workerData } = require('node:worker_threads');
     import(workerData.tsxApi).then((api) => api.tsImport(workerData.entry, workerData.entry));`,
    { eval: true, workerData: { entry: entry.href, tsxApi } },
  );
}

/** Stops every worker (tests, shutdown). Requests in progress fail. */
export async function stopParseWorkers(): Promise<void> {
  await Promise.all(
    slots.splice(0).map(async (slot) => {
      for (const waiting of slot.pending.values()) waiting.reject(new Error('The server is stopping'));
      slot.pending.clear();
      slot.worker.removeAllListeners('exit');
      await slot.worker.terminate();
    }),
  );
}
