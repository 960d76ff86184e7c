import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/server/http/errors';
import { createParseGate, IMPORT_BUSY_MESSAGE } from '../../src/server/core/parse/parse-gate';

/**
 * Uploads are read within a memory budget, the rest wait their turn in order of arrival, each
 * trader can see their place, and a full queue is a 503 the trader is told about rather than a server out of memory.
 */
const MB = 1024 * 1024;
const settled = async <T>(promise: Promise<T>) => {
  let state: 'pending' | 'done' = 'pending';
  void promise.then(() => (state = 'done'));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('the parse gate', () => {
  it('lets uploads in while their bytes fit the budget, then one at a time in order of arrival', async () => {
    const gate = createParseGate({ readingBytes: 20 * MB, waiting: 10, waitingBytes: 100 * MB });
    const a = await gate.enter('alice', 8 * MB);
    const b = await gate.enter('bob', 8 * MB);
    const carol = gate.enter('carol', 15 * MB);
    // Small enough to fit beside the others, but it came after Carol's: no overtaking.
    const dave = gate.enter('dave', 1 * MB);
    expect(await settled(carol)).toBe('pending');
    expect(await settled(dave)).toBe('pending');
    expect(gate.status('carol')).toEqual({ waiting: 1, ahead: 2 });
    expect(gate.status('dave')).toEqual({ waiting: 1, ahead: 3 });
    expect(gate.status('alice')).toEqual({ waiting: 0, ahead: 0 });
    a.release();
    expect(await settled(carol)).toBe('pending');
    b.release();
    const c = await carol;
    // 15 + 1 MB fit the budget together.
    const d = await dave;
    expect(gate.load()).toMatchObject({ reading: 2, readingBytes: 16 * MB, waiting: 0, waitingBytes: 0 });
    // Releasing twice gives back the bytes once.
    c.release();
    c.release();
    d.release();
    expect(gate.load()).toMatchObject({ reading: 0, readingBytes: 0 });
  });

  it('lets a file larger than the budget in alone', async () => {
    const gate = createParseGate({ readingBytes: 20 * MB, waiting: 10, waitingBytes: 100 * MB });
    const big = await gate.enter('alice', 50 * MB);
    const small = gate.enter('bob', 1 * MB);
    expect(await settled(small)).toBe('pending');
    big.release();
    (await small).release();
  });

  it('answers 503 import-busy when too many uploads, or too many bytes, already wait', async () => {
    const gate = createParseGate({ readingBytes: 10 * MB, waiting: 2, waitingBytes: 30 * MB });
    const first = await gate.enter('alice', 10 * MB);
    const waiting = [gate.enter('bob', 10 * MB), gate.enter('carol', 10 * MB)];
    const refused = await gate.enter('dave', 1 * MB).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 503, message: IMPORT_BUSY_MESSAGE, details: { code: 'import-busy' } });
    first.release();
    (await waiting[0]!).release();
    const third = gate.enter('erin', 25 * MB);
    // Erin's 25 MB wait behind Carol's; 21 MB more would be more than the 30 MB the queue may hold.
    const tooMuch = await gate.enter('frank', 21 * MB).catch((error: unknown) => error);
    expect(tooMuch).toMatchObject({ status: 503 });
    (await waiting[1]!).release();
    (await third).release();
    expect(gate.load()).toEqual({ reading: 0, readingBytes: 0, waiting: 0, waitingBytes: 0 });
  });

  it('tells the upload that is let in, so that files kept for reuse make room', async () => {
    const admitted: Array<[string, number]> = [];
    const gate = createParseGate({ readingBytes: 20 * MB, waiting: 10, waitingBytes: 100 * MB }, (userId, readingBytes) =>
      admitted.push([userId, readingBytes]),
    );
    const a = await gate.enter('alice', 5 * MB);
    const b = await gate.enter('bob', 7 * MB);
    expect(admitted).toEqual([
      ['alice', 5 * MB],
      ['bob', 12 * MB],
    ]);
    a.release();
    b.release();
  });
});
