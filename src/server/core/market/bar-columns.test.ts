import { describe, expect, it } from 'vitest';
import { barColumns, BarColumnsBuilder } from './bar-columns';

describe('bar columns', () => {
  it('writes one array literal per column, a missing volume NULL', () => {
    const bars = [
      { start: Date.UTC(2025, 0, 2, 0, 1), open: '15000.25', high: '15001', low: '-0.5', close: '15000', volume: '120' },
      { start: Date.UTC(2025, 0, 2, 0, 2), open: '15000', high: '15000', low: '15000', close: '15000', volume: null },
    ];
    expect(barColumns(bars)).toEqual({
      start: '{1735776060000,1735776120000}',
      open: '{15000.25,15000}',
      high: '{15001,15000}',
      low: '{-0.5,15000}',
      close: '{15000,15000}',
      volume: '{120,NULL}',
    });
  });

  it('starts empty again once its columns are taken', () => {
    const builder = new BarColumnsBuilder();
    builder.push({ start: 60_000, open: '1', high: '2', low: '1', close: '2', volume: '3' });
    expect(builder.count).toBe(1);
    expect(builder.take().start).toBe('{60000}');
    expect(builder.count).toBe(0);
    expect(builder.take()).toEqual({ start: '{}', open: '{}', high: '{}', low: '{}', close: '{}', volume: '{}' });
  });
});
