import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import type { Note } from '../../../shared/api';
import {
  initNoteEditor,
  noteChanges,
  reduceNoteEditor,
  savedElsewhereAt,
  toNoteRequest,
  wordsOf,
  type NoteEditorAction,
  type NoteEditorState,
} from './note-editor-state';

const NOTE: Note = {
  id: '33333333-3333-4333-8333-333333333333',
  title: 'Monday review',
  folder_id: 'f-review',
  trade_id: null,
  journal_date: null,
  net_pl: null,
  stocks_traded: null,
  tags: [{ id: 't-fomo', name: 'FOMO' }],
  created_at: '2025-03-03T21:00:00.000Z',
  updated_at: '2025-03-03T21:00:00.000Z',
  content: 'Chased the open.',
  trade: null,
  attachments: [],
};
const PLAN = { id: 't-plan', name: 'Plan' };
const apply = (state: NoteEditorState, ...actions: NoteEditorAction[]) => actions.reduce(reduceNoteEditor, state);

describe('the note editor reducer', () => {
  it('a new note can be saved at once, but nothing is lost by leaving it until something is written', () => {
    const fresh = initNoteEditor(null, 'f-plans');
    expect(fresh.words).toEqual({ title: '', content: '', folder_id: 'f-plans', tags: [] });
    expect(noteChanges(fresh, true)).toEqual({ changed: false, dirty: true, unsaved: false });
    const written = apply(fresh, { type: 'edit', patch: { content: 'Plan for tomorrow' } });
    expect(noteChanges(written, true)).toEqual({ changed: true, dirty: true, unsaved: true });
  });

  it('a new, untouched note follows the folder being looked at, until the trader picks one', () => {
    const fresh = initNoteEditor(null, null);
    const followed = apply(fresh, { type: 'follow-folder', folderId: 'f-plans' });
    expect(followed.words.folder_id).toBe('f-plans');
    // Following is not a change the trader made.
    expect(noteChanges(followed, true).unsaved).toBe(false);
    const chosen = apply(followed, { type: 'choose-folder', folderId: 'f-review' }, { type: 'follow-folder', folderId: 'f-other' });
    expect(chosen.words.folder_id).toBe('f-review');
  });

  it('a saved note is dirty only while its words differ from the saved ones', () => {
    const open = initNoteEditor(NOTE, null);
    expect(noteChanges(open, false)).toEqual({ changed: false, dirty: false, unsaved: false });
    const edited = apply(open, { type: 'edit', patch: { title: 'Monday review!' } });
    expect(noteChanges(edited, false).dirty).toBe(true);
    const reverted = apply(edited, { type: 'edit', patch: { title: 'Monday review' } });
    expect(noteChanges(reverted, false).dirty).toBe(false);
    // Tags count by id: removing and adding back the same tag is no change.
    const retagged = apply(open, { type: 'remove-tag', tagId: 't-fomo' }, { type: 'add-tag', tag: { id: 't-fomo', name: 'FOMO' } });
    expect(noteChanges(retagged, false).dirty).toBe(false);
  });

  it('a tag is added once however often it is chosen', () => {
    const state = apply(initNoteEditor(NOTE, null), { type: 'add-tag', tag: PLAN }, { type: 'add-tag', tag: PLAN });
    expect(state.words.tags.map((t) => t.id)).toEqual(['t-fomo', 't-plan']);
    expect(toNoteRequest(state.words)).toEqual({
      title: 'Monday review',
      content: 'Chased the open.',
      folder_id: 'f-review',
      tag_ids: ['t-fomo', 't-plan'],
    });
  });

  it('once saved, the words sent are the saved ones and the new version is the base of the next save', () => {
    const edited = apply(initNoteEditor(NOTE, null), { type: 'edit', patch: { content: 'Chased the open. Stopped after two.' } });
    const saved = apply(
      edited,
      { type: 'refused-saved-elsewhere', updatedAt: '2025-03-04T08:00:00.000Z' },
      { type: 'saved', sent: edited.words, updatedAt: '2025-03-04T09:00:00.000Z' },
    );
    expect(saved).toMatchObject({ base: '2025-03-04T09:00:00.000Z', savedElsewhere: null });
    expect(noteChanges(saved, false).dirty).toBe(false);
  });

  it('a version saved elsewhere replaces untouched words, never unsaved ones', () => {
    const elsewhere = { ...NOTE, content: 'Written on the phone.', updated_at: '2025-03-04T07:00:00.000Z' };
    const untouched = apply(initNoteEditor(NOTE, null), { type: 'refetched', words: wordsOf(elsewhere, null), updatedAt: elsewhere.updated_at });
    expect(untouched.words.content).toBe('Written on the phone.');
    expect(untouched.base).toBe(elsewhere.updated_at);
    expect(noteChanges(untouched, false).dirty).toBe(false);

    const typing = apply(initNoteEditor(NOTE, null), { type: 'edit', patch: { content: 'Mine.' } });
    const kept = apply(typing, { type: 'refetched', words: wordsOf(elsewhere, null), updatedAt: elsewhere.updated_at });
    expect(kept).toBe(typing);
  });

  it('a draft kept in the browser comes back over the saved words, from the version it grew from', () => {
    const kept = { title: 'Monday review', content: 'Typed before the tab closed.', folder_id: null, tags: [] };
    const state = apply(initNoteEditor(NOTE, null), { type: 'restore-draft', kept, base: '2025-03-02T10:00:00.000Z', saved: wordsOf(NOTE, null) });
    expect(state).toMatchObject({ words: kept, base: '2025-03-02T10:00:00.000Z', folderTouched: true });
    expect(noteChanges(state, false).unsaved).toBe(true);
  });

  it('opens one dialog at a time and marks Write with AI running', () => {
    const state = apply(initNoteEditor(NOTE, null), { type: 'open', dialog: 'new-tag' }, { type: 'draft-start' });
    expect(state).toMatchObject({ dialog: 'new-tag', drafting: true });
    expect(apply(state, { type: 'open', dialog: null }, { type: 'draft-end' })).toMatchObject({ dialog: null, drafting: false });
  });
});

describe('a save refused because the note was saved elsewhere', () => {
  it("is the server's 409 note-changed, with the newer version's time", () => {
    expect(savedElsewhereAt(new ApiError(409, 'changed', { code: 'note-changed', updated_at: '2025-03-04T07:00:00.000Z' }))).toBe(
      '2025-03-04T07:00:00.000Z',
    );
    expect(savedElsewhereAt(new ApiError(409, 'other', { code: 'something-else', updated_at: 'x' }))).toBeNull();
    expect(savedElsewhereAt(new ApiError(500, 'boom', { code: 'note-changed', updated_at: 'x' }))).toBeNull();
    expect(savedElsewhereAt(new Error('offline'))).toBeNull();
  });
});
