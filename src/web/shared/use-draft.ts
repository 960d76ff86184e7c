import { useCallback, useEffect, useRef, useState } from 'react';
import { decideDraft, draftStorageKey, parseStoredDraft, serializeDraft, type SavedRecord } from './drafts';
import { useSession } from '../lib/session';
import { readStorage, removeStorage, writeStorage } from '../lib/storage-keys';

/** A pause in typing this long writes the draft; leaving the page or the editor writes it at once. */
const WRITE_DELAY_MS = 400;

export interface DraftOptions<V> {
  /** Which editor: 'note', 'journal', 'quick-note', 'trade-notes', 'linked-note'. */
  editor: string;
  /** The record ('new' for one not saved yet); null while the saved record is loading: nothing is read or kept. */
  recordId: string | null;
  /** What the editor holds now. */
  value: V;
  /** Whether that differs from the saved record: only then is there a draft to keep. */
  dirty: boolean;
  /** The saved version the editor's text grew from (an updated_at; the saved text where there is none). */
  base: string | null;
  /** The record as the server holds it now. */
  saved: SavedRecord<V>;
  isValue: (value: unknown) => value is V;
  same: (a: V, b: V) => boolean;
  /** Puts words into the editor, growing from the version `base`. */
  restore: (value: V, base: string | null) => void;
}

export type DraftStatus =
  /** No draft is kept. */
  | 'none'
  /** The unsaved words are kept in this browser. */
  | 'kept'
  /** A kept draft was put back when the editor opened. */
  | 'restored'
  /** A kept draft grew from an older version than the one saved now: the trader chooses. */
  | 'conflict';

export interface Draft<V> {
  status: DraftStatus;
  /** When the kept draft was written (ms). */
  keptAt: number | null;
  /** Conflict: put the kept draft in the editor over the newer saved version. */
  useKept(): void;
  /** Drop the kept draft and show the saved version. */
  discard(): void;
  /** Drop the kept draft and keep nothing more while this editor stays open (it is about to show another version). */
  forget(): void;
  /** The record was saved with these words: the draft has done its work (unless the trader typed on meanwhile). */
  markSaved(saved: V): void;
}

/**
 * No word lost, the same way in every editor: the unsaved words are kept in this browser,
 * keyed by trader and record, after a pause in typing and whenever the trader leaves (another page, another note, a
 * closed tab, a reload), and come back when the editor opens the record again, unless the record was saved elsewhere
 * after they were written (domain/drafts decides), which the editor shows as a choice. Saved, they are dropped.
 */
export function useDraft<V>(options: DraftOptions<V>): Draft<V> {
  const userId = useSession().data?.user.id;
  const key = userId && options.recordId !== null ? draftStorageKey(userId, options.editor, options.recordId) : null;
  const [status, setStatus] = useState<DraftStatus>('none');
  const [keptAt, setKeptAt] = useState<number | null>(null);
  const [conflict, setConflict] = useState<V | null>(null);

  // The latest options, for the callbacks and the writes on leaving, which outlive the render that made them.
  const latest = useRef(options);
  latest.current = options;
  /** The key whose kept draft has been looked at: nothing is written or removed before that. */
  const decided = useRef<string | null>(null);
  /** The editor held unsaved words since the decision (so words reverted to the saved ones drop the draft). */
  const touched = useRef(false);
  const holding = useRef(false);
  const forgotten = useRef(false);
  holding.current = status === 'conflict' || forgotten.current;
  /** The words last saved: an editor leaving with them (say, a new note becoming the saved one) keeps nothing. */
  const savedWords = useRef<{ value: V } | null>(null);

  const write = useCallback(() => {
    const { value, base, dirty, same } = latest.current;
    if (!key || decided.current !== key || holding.current || !dirty) return;
    if (savedWords.current && same(value, savedWords.current.value)) return;
    const at = Date.now();
    writeStorage(key, serializeDraft({ value, base, savedAt: at }));
    setKeptAt(at);
    setStatus((s) => (s === 'none' ? 'kept' : s));
  }, [key]);

  // Opening a record: look at what is kept for it, before anything is written.
  useEffect(() => {
    if (!key) return;
    const { saved, isValue, same, restore } = latest.current;
    const kept = parseStoredDraft(readStorage(key), isValue);
    const outcome = decideDraft(kept, saved, Date.now(), same);
    decided.current = key;
    touched.current = false;
    forgotten.current = false;
    setConflict(null);
    setKeptAt(kept?.savedAt ?? null);
    if (outcome === 'restore' && kept) {
      restore(kept.value, kept.base);
      setStatus('restored');
    } else if (outcome === 'conflict' && kept) {
      setConflict(kept.value);
      setStatus('conflict');
    } else {
      if (outcome === 'discard') removeStorage(key);
      setStatus('none');
    }
  }, [key]);

  // Typing: keep the words after a pause; back to the saved words: nothing to keep.
  const { value, dirty, base } = options;
  useEffect(() => {
    if (!key || decided.current !== key || holding.current) return;
    if (!dirty) {
      if (touched.current) {
        removeStorage(key);
        touched.current = false;
        setStatus('none');
      }
      return;
    }
    touched.current = true;
    const timer = window.setTimeout(write, WRITE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [key, value, dirty, base, write]);

  // Leaving: the page hidden or closed, or the editor gone (another page, another note): keep the words now.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') write();
    };
    window.addEventListener('pagehide', write);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', write);
      document.removeEventListener('visibilitychange', onHide);
      write();
    };
  }, [write]);

  const useKept = useCallback(() => {
    if (conflict === null) return;
    // The trader chose these words over the version saved now: they grow from it.
    latest.current.restore(conflict, latest.current.saved.version);
    setConflict(null);
    setStatus('restored');
  }, [conflict]);

  const discard = useCallback(() => {
    if (key) removeStorage(key);
    touched.current = false;
    setConflict(null);
    setStatus('none');
    latest.current.restore(latest.current.saved.value, latest.current.saved.version);
  }, [key]);

  const forget = useCallback(() => {
    if (key) removeStorage(key);
    forgotten.current = true;
    holding.current = true;
    setConflict(null);
    setStatus('none');
  }, [key]);

  const markSaved = useCallback(
    (saved: V) => {
      const { value, same } = latest.current;
      savedWords.current = { value: saved };
      setConflict(null);
      if (!same(value, saved)) return;
      if (key) removeStorage(key);
      touched.current = false;
      setStatus('none');
    },
    [key],
  );

  return { status, keptAt, useKept, discard, forget, markSaved };
}
