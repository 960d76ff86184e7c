import { describe, expect, it } from 'vitest';
import { importTags } from '../fills';
import { isImportTag, ownTags } from './import-tags';

describe('isImportTag', () => {
  const imported = { symbol: 'MNQ', period: 'AM', import_source: 'tradovate-csv' };

  it("tells every tag an import adds from the trader's own on an imported trade", () => {
    const added = importTags({ netPnl: 12_000, symbol: 'MNQ', session: 'AM', side: 'Long', entryFills: 2, exitFills: 1 });
    expect(added.filter((tag) => !isImportTag(tag, imported))).toEqual([]);
    expect(ownTags([...added, 'fomo', 'A+'], imported)).toEqual(['fomo', 'A+']);
    // Compared without regard to case or spaces, as tags are.
    expect(isImportTag(' winner ', imported)).toBe(true);
    expect(isImportTag('mnq', imported)).toBe(true);
  });

  it('keeps every tag of a trade typed by hand, and an imported trade’s tag naming another instrument', () => {
    expect(ownTags(['Winner', 'Long', 'NQ'], { symbol: 'NQ', period: 'AM', import_source: null })).toEqual(['Winner', 'Long', 'NQ']);
    expect(isImportTag('ES', imported)).toBe(false);
    expect(isImportTag('PM', imported)).toBe(false);
  });
});
