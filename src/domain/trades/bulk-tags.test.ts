import { describe, expect, it } from 'vitest';
import { addTags, removeTags } from './trade-options';

describe('tags added or removed in bulk', () => {
  it('adds each tag once, whatever its case, after the trade own tags in their order', () => {
    expect(addTags(['fomo', 'A+'], ['FOMO', 'late', ' Late ', 'news'])).toEqual(['fomo', 'A+', 'late', 'news']);
    expect(addTags([], ['A+'])).toEqual(['A+']);
  });

  it('removes tags whatever their case and leaves the others as they were', () => {
    expect(removeTags(['fomo', 'A+', 'News'], ['FOMO', ' news '])).toEqual(['A+']);
    expect(removeTags(['A+'], ['B'])).toEqual(['A+']);
  });
});
