import { describe, expect, it } from 'vitest';
import { DRAFT_MAX_AGE_MS, decideDraft, draftStorageKey, parseStoredDraft, serializeDraft, type StoredDraft } from './drafts';

const isText = (value: unknown): value is string => typeof value === 'string';
const same = (a: string, b: string) => a === b;
const NOW = Date.parse('2026-11-26T15:00:00Z');
const T1 = '2026-11-26T14:00:00.000Z';
const T2 = '2026-11-26T14:30:00.000Z';

const draft = (value: string, base: string | null, savedAt = NOW - 60_000): StoredDraft<string> => ({ value, base, savedAt });

describe('a kept draft when its editor opens again', () => {
  it('puts back a draft written on top of the version the server still holds (a reload, a lost connection)', () => {
    expect(decideDraft(draft('plan: wait for the break', T1), { value: 'plan:', version: T1 }, NOW, same)).toBe('restore');
    // A note never saved: the draft is all there is.
    expect(decideDraft(draft('first words', null), { value: '', version: null }, NOW, same)).toBe('restore');
  });

  it('asks when the note was saved elsewhere after the draft began: two tabs, the other saved later', () => {
    expect(decideDraft(draft('my older words', T1), { value: 'newer words from the other tab', version: T2 }, NOW, same)).toBe('conflict');
    // A day written in another tab while this one still thought it empty.
    expect(decideDraft(draft('my day', null), { value: 'their day', version: T2 }, NOW, same)).toBe('conflict');
    // The record was deleted elsewhere: the trader still decides what happens to the words.
    expect(decideDraft(draft('kept words', T1), { value: '', version: null }, NOW, same)).toBe('conflict');
  });

  it('drops a draft that says what is saved already, whatever its base', () => {
    expect(decideDraft(draft('same text', T1), { value: 'same text', version: T2 }, NOW, same)).toBe('discard');
    expect(decideDraft(draft('same text', T1), { value: 'same text', version: T1 }, NOW, same)).toBe('discard');
  });

  it('drops a draft left untouched for longer than the age limit, and keeps one just inside it', () => {
    expect(decideDraft(draft('old', T1, NOW - DRAFT_MAX_AGE_MS - 1), { value: '', version: T1 }, NOW, same)).toBe('discard');
    expect(decideDraft(draft('old', T1, NOW - DRAFT_MAX_AGE_MS), { value: '', version: T1 }, NOW, same)).toBe('restore');
  });

  it('has nothing to do without a draft', () => {
    expect(decideDraft<string>(null, { value: 'x', version: T1 }, NOW, same)).toBe('none');
  });

  it('compares drafts of several fields with the editor’s own sameness', () => {
    type Note = { title: string; content: string };
    const sameNote = (a: Note, b: Note) => a.title === b.title && a.content === b.content;
    const kept: StoredDraft<Note> = { value: { title: 'ORB', content: 'x' }, base: T1, savedAt: NOW };
    expect(decideDraft(kept, { value: { title: 'ORB', content: 'x' }, version: T1 }, NOW, sameNote)).toBe('discard');
    expect(decideDraft(kept, { value: { title: 'ORB', content: '' }, version: T1 }, NOW, sameNote)).toBe('restore');
  });
});

describe('drafts in browser storage', () => {
  it('keys drafts by trader, editor and record', () => {
    expect(draftStorageKey('u1', 'note', 'n1')).toBe('edgebook-draft:u1:note:n1');
    expect(draftStorageKey('u2', 'note', 'n1')).not.toBe(draftStorageKey('u1', 'note', 'n1'));
  });

  it('reads back what it wrote', () => {
    const written = draft('text', T1, NOW);
    expect(parseStoredDraft(serializeDraft(written), isText)).toEqual(written);
    expect(parseStoredDraft(serializeDraft(draft('text', null, NOW)), isText)).toEqual({ value: 'text', base: null, savedAt: NOW });
  });

  it('ignores anything that is not a draft of this editor rather than restoring garbage', () => {
    for (const text of [
      null,
      '',
      'not json',
      '42',
      'null',
      '[]',
      '{"value":1,"base":null,"savedAt":1}',
      '{"value":"x","base":5,"savedAt":1}',
      '{"value":"x","base":null}',
      '{"value":"x","base":null,"savedAt":"soon"}',
    ]) {
      expect(parseStoredDraft(text, isText), String(text)).toBeNull();
    }
  });
});
