import { parentPort } from 'node:worker_threads';
import type { ImportOptions } from '../../../domain/importers';
import { parseBars, type ParseBarsOptions } from '../../../domain/market';
import { decodeText, type ParsedFile } from './convert';
import { finishImport, finishPreview, summarize, type FinishPlan } from './plan';

/**
 * The parse worker (issue 13, point 5): reads uploads and prepares what is shown or stored, off the server's event
 * loop (plan.ts). A parsed file stays here between the two halves of a request, or longer when it is kept for the
 * next request with the same file (a preview's confirmation), and is dropped when the pool says so, or after HOLD_MS
 * (parse-pool.ts) without a request.
 */
type Request =
  | { id: number; type: 'summarize'; job: number; bytes: ArrayBuffer; options: ImportOptions; hold: number }
  | { id: number; type: 'preview'; job: number; plan: FinishPlan; limit: number }
  | { id: number; type: 'import'; job: number; plan: FinishPlan; userId: string; chunk: number }
  | { id: number; type: 'drop'; job: number }
  | { id: number; type: 'bars'; bytes: ArrayBuffer; options: ParseBarsOptions };

const held = new Map<number, { parsed: Extract<ParsedFile, { ok: true }>; hold: number; timer: ReturnType<typeof setTimeout> }>();

/** The file of a job; its timer starts again, since a kept file may serve several requests (parse-pool.ts). */
function heldFile(job: number) {
  const entry = held.get(job);
  if (!entry) throw new Error('the parsed file is no longer held (the request took too long)');
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => held.delete(job), entry.hold);
  return entry.parsed;
}

function handle(request: Request): unknown {
  switch (request.type) {
    case 'summarize': {
      const { summary, parsed } = summarize(new Uint8Array(request.bytes), request.options);
      if (parsed) held.set(request.job, { parsed, hold: request.hold, timer: setTimeout(() => held.delete(request.job), request.hold) });
      return summary;
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
    case 'bars':
      return parseBars(decodeText(new Uint8Array(request.bytes)), request.options);
    case 'drop': {
      const entry = held.get(request.job);
      if (entry) clearTimeout(entry.timer);
      held.delete(request.job);
      return null;
    }
  }
}

parentPort!.on('message', (request: Request) => {
  try {
    parentPort!.postMessage({ id: request.id, result: handle(request) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
