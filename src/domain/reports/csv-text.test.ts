import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { centsForCsv } from './csv-cells';
import { csvText } from './csv-text';

describe('csvText', () => {
  it('writes money and numbers as plain numbers, a negative amount too', () => {
    const text = csvText(
      ['Day', 'Trades', 'Net P&L', 'Win rate'],
      [
        ['2025-05-09', 3, centsForCsv(-21152), 0.25],
        ['2025-05-12', 1, centsForCsv(5), -1.5],
        ['2025-05-13', 0, centsForCsv(0), null],
      ],
    );
    expect(text.split('\r\n')).toEqual(['Day,Trades,Net P&L,Win rate', '2025-05-09,3,-211.52,0.25', '2025-05-12,1,0.05,-1.5', '2025-05-13,0,0.00,']);
  });

  it('escapes text a spreadsheet would run as a formula, and only text', () => {
    const text = csvText(
      ['Tag', 'Net P&L'],
      [
        ['=HYPERLINK("http://x","y")', centsForCsv(-100)],
        ['+1', centsForCsv(100)],
        ['-5 ticks', -2],
        ['@sum', 2],
        ['\tlead', 3],
        ['A+, FOMO', 4],
      ],
    );
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(parsed.slice(1)).toEqual([
      [`'=HYPERLINK("http://x","y")`, '-1.00'],
      ["'+1", '1.00'],
      ["'-5 ticks", '-2'],
      ["'@sum", '2'],
      ["'\tlead", '3'],
      ['A+, FOMO', '4'],
    ]);
    // Escaped text is quoted, as a spreadsheet expects; the numbers beside it are not.
    expect(text.split('\r\n')[3]).toBe(`"'-5 ticks",-2`);
  });

  it('writes cents exactly, however large, with no float on the way', () => {
    expect(centsForCsv(-900719925474099)?.csvNumber).toBe('-9007199254740.99');
    expect(centsForCsv(-7)?.csvNumber).toBe('-0.07');
    expect(centsForCsv(null)).toBeNull();
  });

  it('leaves a number that is not finite empty rather than writing Infinity', () => {
    expect(csvText(['Profit factor'], [[Number.POSITIVE_INFINITY], [Number.NaN]]).split('\r\n')).toEqual(['Profit factor', '', '']);
  });
});
