import { describe, expect, it } from 'vitest';
import { FOLDER_COLORS, getFolderColor } from './folder-color';

describe('folder colour (derived from id or name, 16 colours)', () => {
  it('has 16 distinct colours', () => {
    expect(FOLDER_COLORS).toHaveLength(16);
    expect(new Set(FOLDER_COLORS).size).toBe(16);
  });

  it('gives the same folder the same colour every time, from its id before its name', () => {
    const folder = { id: '3f1e0a52-8a57-4c1e-9d5e-0b8b3c1d2e4f', name: 'Setups' };
    expect(getFolderColor(folder)).toBe(getFolderColor({ ...folder }));
    expect(getFolderColor(folder)).toBe(getFolderColor({ id: folder.id, name: 'Renamed' }));
    expect(getFolderColor({ name: 'Setups' })).toBe(getFolderColor({ id: null, name: 'Setups' }));
  });

  it('spreads 200 folders over all 16 colours, none taking more than a fifth', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 200; i += 1) {
      const color = getFolderColor({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` });
      counts.set(color, (counts.get(color) ?? 0) + 1);
    }
    expect(counts.size).toBe(16);
    expect(Math.max(...counts.values())).toBeLessThan(40);
  });

  it('still answers for a folder with neither id nor name', () => {
    expect(FOLDER_COLORS).toContain(getFolderColor({}));
  });
});
