import { describe, expect, it } from 'vitest';
import { addTagOnce, noteDisplayTitle, normalizeName } from './note-text';

describe('notes text rules', () => {
  it('lists a note without a title as Untitled', () => {
    expect(noteDisplayTitle('')).toBe('Untitled');
    expect(noteDisplayTitle('   ')).toBe('Untitled');
    expect(noteDisplayTitle(null)).toBe('Untitled');
    expect(noteDisplayTitle(' NQ plan ')).toBe('NQ plan');
  });

  it('a folder or tag name blank after trimming is blank (and so ignored)', () => {
    expect(normalizeName('   ')).toBe('');
    expect(normalizeName(null)).toBe('');
    expect(normalizeName('  Opening   range\tbreak ')).toBe('Opening range break');
  });

  it('adding a tag already on the note is ignored', () => {
    const tags = [{ id: 'a', name: 'FOMO' }];
    expect(addTagOnce(tags, { id: 'a', name: 'FOMO' })).toEqual(tags);
    expect(addTagOnce(tags, { id: 'b', name: 'A+' })).toEqual([...tags, { id: 'b', name: 'A+' }]);
  });
});
