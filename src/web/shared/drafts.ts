/**
 * Unsaved words kept in the trader's browser, so that no word typed is lost. A draft exists precisely when the
 * server was not reached (the trader left, the tab closed, the connection or the session dropped), so it lives in the
 * browser, keyed by trader and record, and is dropped once the record is saved.
 *
 * A draft remembers the saved version it grew from (`base`): the record's updated_at, or the saved text itself where
 * the record carries no time (quick notes). When the draft comes back, the record as the server has it now decides:
 * the same version means the draft simply continues it; another version means someone saved the record elsewhere
 * (another tab, another device) after the draft began, and an older draft must never silently replace newer words.
 */

export interface StoredDraft<V> {
  /** What the editor held. */
  value: V;
  /** The saved version the text started from; null for a record not saved yet (a new note, an unwritten day). */
  base: string | null;
  /** When it was written, in milliseconds since 1970 (the browser's clock). */
  savedAt: number;
}

/** The record as the server holds it now. */
export interface SavedRecord<V> {
  value: V;
  /** Its version in the terms of `StoredDraft.base`; null while it has never been saved. */
  version: string | null;
}

export type DraftOutcome =
  /** No draft is kept. */
  | 'none'
  /** The draft says nothing the saved record does not (or it is too old to matter): drop it. */
  | 'discard'
  /** The draft continues the saved version: put it back in the editor. */
  | 'restore'
  /** The record was saved elsewhere after the draft began: the trader chooses which words stay. */
  | 'conflict';

/** A draft left alone this long belongs to something long finished; browsers' storage is small. */
export const DRAFT_MAX_AGE_MS = 60 * 24 * 60 * 60 * 1000;

/** What to do with a kept draft when its editor opens on the record as the server has it `now`. */
export function decideDraft<V>(draft: StoredDraft<V> | null, saved: SavedRecord<V>, now: number, same: (a: V, b: V) => boolean): DraftOutcome {
  if (!draft) return 'none';
  if (now - draft.savedAt > DRAFT_MAX_AGE_MS) return 'discard';
  if (same(draft.value, saved.value)) return 'discard';
  return draft.base === saved.version ? 'restore' : 'conflict';
}

const PREFIX = 'edgebook-draft';

/** One key per trader, editor and record: a draft never shows to another trader signing in on the same browser. */
export function draftStorageKey(userId: string, editor: string, recordId: string): string {
  return `${PREFIX}:${userId}:${editor}:${recordId}`;
}

/**
 * A stored draft read back, or null when the text is not one (another version of the app, a hand edit, a cut-off
 * write). `isValue` checks the editor's own shape.
 */
export function parseStoredDraft<V>(text: string | null, isValue: (value: unknown) => value is V): StoredDraft<V> | null {
  if (!text) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { value, base, savedAt } = parsed as Record<string, unknown>;
  if (!isValue(value)) return null;
  if (base !== null && typeof base !== 'string') return null;
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return null;
  return { value, base, savedAt };
}

export function serializeDraft<V>(draft: StoredDraft<V>): string {
  return JSON.stringify({ value: draft.value, base: draft.base, savedAt: draft.savedAt });
}
