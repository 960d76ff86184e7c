/**
 * Trades whose delete waits for Undo: removed from the lists at once, but the DELETE is sent only when the
 * toast leaves. Until then the statistics are asked to leave them out, so the figures agree with the list.
 */
const awaiting = new Set<string>();

export function markAwaitingDelete(id: string) {
  awaiting.add(id);
}

export function unmarkAwaitingDelete(id: string) {
  awaiting.delete(id);
}

/** The ids as the statistics endpoint's `exclude` takes them, or undefined when none waits. */
export function awaitingDeleteParam(): string | undefined {
  return awaiting.size > 0 ? [...awaiting].sort().join(',') : undefined;
}
