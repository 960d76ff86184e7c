import type { Streaks } from './streaks';

type Run = 'Win' | 'Loss';

/**
 * A summary of a stretch of results in time order that combines with the next stretch's, so the streaks of all time
 * come from per-day summaries without reading every trade again (the server keeps one per trader, account and day).
 * `head` is the leading run of Wins or Losses and `tail` the trailing one ({ result: null, length: 0 } when the
 * stretch starts or ends with a break-even); when the whole stretch is one run, head and tail are that run.
 * `combineResultRuns(summarizeResultRuns(a), summarizeResultRuns(b))` equals `summarizeResultRuns([...a, ...b])`.
 */
export interface ResultRuns {
  count: number;
  head: { result: Run | null; length: number };
  tail: { result: Run | null; length: number };
  maxWinStreak: number;
  maxLossStreak: number;
}

export const EMPTY_RESULT_RUNS: ResultRuns = Object.freeze({
  count: 0,
  head: { result: null, length: 0 },
  tail: { result: null, length: 0 },
  maxWinStreak: 0,
  maxLossStreak: 0,
}) as ResultRuns;

const asRun = (result: string): Run | null => (result === 'Win' || result === 'Loss' ? result : null);

/** The summary of results oldest first; anything but Win or Loss is a break-even, which ends both runs. */
export function summarizeResultRuns(results: Iterable<string>): ResultRuns {
  const list = [...results].map(asRun);
  if (list.length === 0) return EMPTY_RESULT_RUNS;
  const runAt = (from: number, step: 1 | -1) => {
    const result = list[from] ?? null;
    if (!result) return { result: null, length: 0 };
    let length = 0;
    for (let i = from; i >= 0 && i < list.length && list[i] === result; i += step) length++;
    return { result, length };
  };
  let maxWinStreak = 0;
  let maxLossStreak = 0;
  let current: Run | null = null;
  let length = 0;
  for (const result of list) {
    length = result && result === current ? length + 1 : result ? 1 : 0;
    current = result;
    if (result === 'Win') maxWinStreak = Math.max(maxWinStreak, length);
    if (result === 'Loss') maxLossStreak = Math.max(maxLossStreak, length);
  }
  return { count: list.length, head: runAt(0, 1), tail: runAt(list.length - 1, -1), maxWinStreak, maxLossStreak };
}

/** `earlier` followed by `later`: a run that spans the seam counts as one. */
export function combineResultRuns(earlier: ResultRuns, later: ResultRuns): ResultRuns {
  if (earlier.count === 0) return later;
  if (later.count === 0) return earlier;
  const joins = earlier.tail.result !== null && earlier.tail.result === later.head.result;
  const seam = joins ? earlier.tail.length + later.head.length : 0;
  const earlierIsOneRun = earlier.head.result !== null && earlier.head.length === earlier.count;
  const laterIsOneRun = later.tail.result !== null && later.tail.length === later.count;
  return {
    count: earlier.count + later.count,
    head: earlierIsOneRun && joins ? { result: earlier.head.result, length: seam } : earlier.head,
    tail: laterIsOneRun && joins ? { result: later.tail.result, length: seam } : later.tail,
    maxWinStreak: Math.max(earlier.maxWinStreak, later.maxWinStreak, joins && earlier.tail.result === 'Win' ? seam : 0),
    maxLossStreak: Math.max(earlier.maxLossStreak, later.maxLossStreak, joins && earlier.tail.result === 'Loss' ? seam : 0),
  };
}

/** The streaks of a summary: the longest runs, and the run the trader is on now. */
export function streaksFromResultRuns(runs: ResultRuns): Streaks {
  return {
    maxWinStreak: runs.maxWinStreak,
    maxLossStreak: runs.maxLossStreak,
    current: { result: runs.tail.result, length: runs.tail.length },
  };
}
