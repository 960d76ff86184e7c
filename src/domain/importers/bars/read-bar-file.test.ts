import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Bar } from '../../market/bars';
import { parseBars } from './parse-bars';
import { linesInBatches, readBarFile, type BarFileSummary } from './read-bar-file';

/**
 * A bar file read in batches of lines must read as the same file read whole: the same bars, the same unreadable rows
 * with the file's row numbers, the same duplicates, across batch boundaries too.
 */
const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

function readAll(text: string, size: number, options = {}) {
  const generator = readBarFile(linesInBatches(text, size), options);
  const bars = new Map<string, Bar[]>();
  for (;;) {
    const step = generator.next();
    if (step.done) return { summary: step.value, bars };
    for (const { contract, bars: batch } of step.value) bars.set(contract, [...(bars.get(contract) ?? []), ...batch]);
  }
}

const ok = (summary: ReturnType<typeof readAll>['summary']): BarFileSummary => {
  if (!summary.ok) throw new Error(`${summary.code}: ${summary.message}`);
  return summary;
};

describe('readBarFile', () => {
  it('a NinjaTrader export in batches of two lines: the bars and the unreadable row of the file read whole, by file row', () => {
    const text = fixture('ninjatrader-mnq-1m.txt');
    const whole = parseBars(text, { contract: 'MNQ MAR25' });
    if (!whole.ok) throw new Error(whole.message);
    const { summary, bars } = readAll(text, 2, { contract: 'MNQ MAR25' });
    expect(bars.get('MNQH5')).toEqual(whole.series[0]!.bars);
    expect(ok(summary)).toMatchObject({ resolution: 60, rowCount: 6, errorRows: 1, issues: whole.issues, series: [{ contract: 'MNQH5', bars: 5 }] });
  });

  it('a CSV with its header once: later batches are read with it, rows counted from the header as row 1', () => {
    const lines = ['time,open,high,low,close,Volume'];
    for (let i = 0; i < 10; i++) lines.push(`${Date.UTC(2025, 2, 5, 15, i) / 1000},21000,21002,20999,21001,5`);
    lines[7] = `${Date.UTC(2025, 2, 5, 15, 6) / 1000},21000,20990,20999,21001,5`; // row 8: high below low
    const { summary, bars } = readAll(`${lines.join('\n')}\n`, 3, { contract: 'MNQH5' });
    expect(ok(summary).issues).toEqual([
      { row: 8, severity: 'error', message: 'The high and low (20990 and 20999) do not hold the open and close (21000 and 21001)' },
    ]);
    expect(bars.get('MNQH5')!.map((bar) => bar.start)).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9].map((m) => Date.UTC(2025, 2, 5, 15, m)));
  });

  it('the same bar in two batches counts once; with other prices it is an unreadable row naming the first', () => {
    const lines = ['time,open,high,low,close'];
    for (let i = 0; i < 4; i++) lines.push(`${Date.UTC(2025, 2, 5, 15, i) / 1000},1,2,1,2`);
    lines.push(`${Date.UTC(2025, 2, 5, 15, 1) / 1000},1,2,1,2`); // row 6: row 3 again
    lines.push(`${Date.UTC(2025, 2, 5, 15, 2) / 1000},1,3,1,2`); // row 7: row 4 with another high
    const { summary, bars } = readAll(lines.join('\n'), 2, { contract: 'MESH5' });
    expect(ok(summary)).toMatchObject({
      duplicates: 1,
      errorRows: 1,
      issues: [{ row: 7, severity: 'error', message: 'A bar at this time appears on row 4 with other prices' }],
    });
    expect(bars.get('MESH5')).toHaveLength(4);
  });

  it('a Databento file of two symbols, in batches: both series, each counted', () => {
    const { summary, bars } = readAll(fixture('databento-glbx-ohlcv-1m.csv'), 1);
    expect(ok(summary).series.map((s) => [s.contract, s.bars])).toEqual([
      ['MNQH5', 2],
      ['ESH5', 2],
    ]);
    expect(bars.get('ESH5')![0]).toMatchObject({ open: '5830.5', high: '5831.25' });
  });

  it('one bar repeated a hundred thousand times is one bar and the rest duplicates, in memory that does not grow with them', () => {
    const line = `${Date.UTC(2025, 2, 5, 15, 0) / 1000},1,2,1,2`;
    const text = `time,open,high,low,close\n${Array.from({ length: 100_000 }, () => line).join('\n')}`;
    // The resolution cannot be read from one bar: the trader names it.
    const { summary, bars } = readAll(text, 20_000, { contract: 'MESH5', resolution: 60 });
    expect(ok(summary)).toMatchObject({ duplicates: 99_999, errorRows: 0, series: [{ bars: 1 }] });
    expect(bars.get('MESH5')).toHaveLength(1);
    // A hundred thousand rows: about 2 s alone, more beside other test files on two cores.
  }, 30_000);

  it('keeps the first thousand unreadable rows and counts them all', () => {
    const text = `time,open,high,low,close\n${Array.from({ length: 2_500 }, (_, i) => `x${i},1,2,1,2`).join('\n')}`;
    const summary = ok(readAll(text, 700, { contract: 'MESH5', resolution: 60 }).summary);
    expect(summary.errorRows).toBe(2_500);
    expect(summary.issues).toHaveLength(1_000);
    expect(summary.issues[999]).toMatchObject({ row: 1_001 });
  });

  it('an empty file, and a layout no format reads, fail as a file read whole does', () => {
    expect(readAll('\n\n', 1).summary).toMatchObject({ ok: false, code: 'empty-file' });
    expect(readAll('a,b\n1,2\n', 1).summary).toMatchObject({ ok: false, code: 'unknown-format' });
  });
});
