import { addTagOnce } from '../../../../domain/notes';
import { ApiError } from '../../../lib/api';
import type { Note, TagRef } from '../../../shared/api';
import type { NoteDraft } from '../api';

/** What the trader writes in a note, as the editor holds it and as its draft is kept in the browser. */
export interface NoteWords {
  title: string;
  content: string;
  folder_id: string | null;
  tags: TagRef[];
}

export const wordsOf = (note: Note | null, folderId: string | null): NoteWords => ({
  title: note?.title ?? '',
  content: note?.content ?? '',
  folder_id: note ? note.folder_id : folderId,
  tags: note?.tags ?? [],
});

export const sameWords = (a: NoteWords, b: NoteWords) =>
  a.title === b.title && a.content === b.content && a.folder_id === b.folder_id && a.tags.map((t) => t.id).join() === b.tags.map((t) => t.id).join();

const isTagRef = (value: unknown): value is TagRef =>
  typeof value === 'object' && value !== null && typeof (value as TagRef).id === 'string' && typeof (value as TagRef).name === 'string';

/** A kept draft read back from the browser's storage, which anything may have written. */
export const isNoteWords = (value: unknown): value is NoteWords => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.title === 'string' &&
    typeof v.content === 'string' &&
    (v.folder_id === null || typeof v.folder_id === 'string') &&
    Array.isArray(v.tags) &&
    v.tags.every(isTagRef)
  );
};

export const toNoteRequest = (words: NoteWords): NoteDraft => ({
  title: words.title,
  content: words.content,
  folder_id: words.folder_id,
  tag_ids: words.tags.map((t) => t.id),
});

/** The 409 of a save whose text grew from an older version than the one saved now (another tab, another device). */
export function savedElsewhereAt(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { code?: unknown; updated_at?: unknown } | null;
  return body?.code === 'note-changed' && typeof body.updated_at === 'string' ? body.updated_at : null;
}

export interface NoteEditorState {
  /** What the editor holds now. */
  words: NoteWords;
  /** What was saved last (for a new note, what it opened with): the words differ from it when there is work to save. */
  baseline: NoteWords;
  /** The saved version these words grew from: sent with each Save, so a newer save elsewhere is never overwritten. */
  base: string | null;
  /** The updated_at of a version saved elsewhere that refused this editor's save, until the trader chooses. */
  savedElsewhere: string | null;
  /** The trader chose the folder (or a kept draft did): a new note no longer follows the folder being looked at. */
  folderTouched: boolean;
  /** 'Write with AI' is writing into the body, which is read-only meanwhile. */
  drafting: boolean;
  dialog: 'new-tag' | 'confirm-delete' | null;
}

export type NoteEditorAction =
  | { type: 'edit'; patch: Partial<Pick<NoteWords, 'title' | 'content'>> }
  | { type: 'choose-folder'; folderId: string | null }
  /** The trader opened another folder: a new, untouched note goes in it. */
  | { type: 'follow-folder'; folderId: string | null }
  | { type: 'add-tag'; tag: TagRef }
  | { type: 'remove-tag'; tagId: string }
  /** A draft kept in the browser came back: its words over the saved ones, from the version it grew from. */
  | { type: 'restore-draft'; kept: NoteWords; base: string | null; saved: NoteWords }
  /** The note was read again (saved elsewhere); it replaces the words only when there is nothing unsaved. */
  | { type: 'refetched'; words: NoteWords; updatedAt: string }
  | { type: 'saved'; sent: NoteWords; updatedAt: string }
  | { type: 'refused-saved-elsewhere'; updatedAt: string }
  | { type: 'load-saved' }
  | { type: 'draft-start' }
  | { type: 'draft-end' }
  | { type: 'open'; dialog: NoteEditorState['dialog'] };

export function initNoteEditor(note: Note | null, defaultFolderId: string | null): NoteEditorState {
  const words = wordsOf(note, defaultFolderId);
  return { words, baseline: words, base: note?.updated_at ?? null, savedElsewhere: null, folderTouched: false, drafting: false, dialog: null };
}

/**
 * What the editor's words are worth saving: `changed` from the saved ones; `dirty` enables Save (a new note can always
 * be saved); `unsaved` is what a leaving trader would lose (a new note nobody wrote in loses nothing), which guards
 * the page and keeps a draft.
 */
export function noteChanges(state: NoteEditorState, isNew: boolean) {
  const { words } = state;
  const changed = !sameWords(words, state.baseline);
  return {
    changed,
    dirty: changed || isNew,
    unsaved: changed && (!isNew || words.title !== '' || words.content !== '' || words.tags.length > 0),
  };
}

export function reduceNoteEditor(state: NoteEditorState, action: NoteEditorAction): NoteEditorState {
  switch (action.type) {
    case 'edit':
      return { ...state, words: { ...state.words, ...action.patch } };
    case 'choose-folder':
      return { ...state, folderTouched: true, words: { ...state.words, folder_id: action.folderId } };
    case 'follow-folder':
      if (state.folderTouched) return state;
      return { ...state, words: { ...state.words, folder_id: action.folderId }, baseline: { ...state.baseline, folder_id: action.folderId } };
    case 'add-tag':
      return { ...state, words: { ...state.words, tags: addTagOnce(state.words.tags, action.tag) } };
    case 'remove-tag':
      return { ...state, words: { ...state.words, tags: state.words.tags.filter((t) => t.id !== action.tagId) } };
    case 'restore-draft':
      return { ...state, words: action.kept, folderTouched: true, base: action.base, baseline: action.saved };
    case 'refetched':
      // Only a note that sat untouched follows the version saved elsewhere; unsaved words wait for the trader.
      if (noteChanges(state, false).unsaved || action.updatedAt === state.base || state.savedElsewhere) return state;
      return { ...state, words: action.words, baseline: action.words, base: action.updatedAt };
    case 'saved':
      return { ...state, baseline: action.sent, base: action.updatedAt, savedElsewhere: null };
    case 'refused-saved-elsewhere':
      return { ...state, savedElsewhere: action.updatedAt };
    case 'load-saved':
      return { ...state, savedElsewhere: null };
    case 'draft-start':
      return { ...state, drafting: true };
    case 'draft-end':
      return { ...state, drafting: false };
    case 'open':
      return { ...state, dialog: action.dialog };
  }
}
