import { HttpError } from '../../http/errors';

/**
 * How many uploads are read at once. Reading a file takes many times its size in memory while it
 * is parsed and held for its request (a 15 MB Tradovate Performance export: ~120 MB at the peak, ~70 MB held), and
 * three at once took a server from 600 MB to 2.4 GB. Uploads are let in to the parse workers while the bytes of those
 * being read and held stay within a budget; one file is always let in alone, whatever its size. The rest wait their
 * turn in order of arrival, and the import dialog says so (GET /api/imports/queue). When even the queue is full, the
 * answer is a 503 that tells the trader to try again shortly, rather than a server that runs out of memory.
 */

export interface GateLimits {
  /** Bytes of uploads being read or held at once (more only for a single file). */
  readingBytes: number;
  /** Uploads waiting their turn, at most. */
  waiting: number;
  /** Bytes of the uploads waiting their turn (their bodies stay in memory meanwhile), at most. */
  waitingBytes: number;
}

export const DEFAULT_GATE_LIMITS: GateLimits = { readingBytes: 20 * 1024 * 1024, waiting: 24, waitingBytes: 200 * 1024 * 1024 };

export const IMPORT_BUSY_MESSAGE = 'The server is reading many imports right now. Please try again in a minute.';

interface Waiter {
  userId: string;
  bytes: number;
  admit: () => void;
}

export interface Pass {
  /** Gives the turn to the next waiting upload; call it once the file's parse is no longer held. */
  release(): void;
}

export function createParseGate(
  limits: GateLimits = DEFAULT_GATE_LIMITS,
  /**
   * Called as an upload is let in, with the bytes being read (this one included): parses kept for a reuse that may
   * never come (parse-pool.ts) are let go to stay within the budget.
   */
  onAdmit: (userId: string, readingBytes: number, budget: number) => void = () => undefined,
) {
  let readingBytes = 0;
  let reading = 0;
  const queue: Waiter[] = [];
  let waitingBytes = 0;

  const fits = (bytes: number) => reading === 0 || readingBytes + bytes <= limits.readingBytes;

  const pass = (userId: string, bytes: number): Pass => {
    reading++;
    readingBytes += bytes;
    onAdmit(userId, readingBytes, limits.readingBytes);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        reading--;
        readingBytes -= bytes;
        // First come, first served: a large file at the head is not overtaken by smaller ones behind it.
        while (queue.length > 0 && fits(queue[0]!.bytes)) {
          const next = queue.shift()!;
          waitingBytes -= next.bytes;
          next.admit();
        }
      },
    };
  };

  return {
    /** Waits for the turn of an upload of `bytes` bytes; a 503 (code 'import-busy') when the queue is full. */
    enter(userId: string, bytes: number): Promise<Pass> {
      if (queue.length === 0 && fits(bytes)) return Promise.resolve(pass(userId, bytes));
      if (queue.length >= limits.waiting || waitingBytes + bytes > limits.waitingBytes) {
        return Promise.reject(new HttpError(503, IMPORT_BUSY_MESSAGE, { code: 'import-busy', retry_after: 30 }));
      }
      waitingBytes += bytes;
      return new Promise<Pass>((resolve) => queue.push({ userId, bytes, admit: () => resolve(pass(userId, bytes)) }));
    },
    /** The trader's place in the queue: how many of their uploads wait, and how many uploads are ahead of the first. */
    status(userId: string): { waiting: number; ahead: number } {
      const first = queue.findIndex((w) => w.userId === userId);
      if (first === -1) return { waiting: 0, ahead: 0 };
      return { waiting: queue.filter((w) => w.userId === userId).length, ahead: first + reading };
    },
    /** Uploads being read or held, and waiting (tests). */
    load: () => ({ reading, readingBytes, waiting: queue.length, waitingBytes }),
  };
}

export type ParseGate = ReturnType<typeof createParseGate>;
