import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../domain/importers';
import { withStorableTrades } from './convert';

/** A JSON backup of one trade per price, in that order. */
function previewOf(prices: string[]) {
  const rows = prices.map((price, i) => ({
    date: `2026-01-0${i + 1}`,
    symbol: 'ES',
    pnl: 10,
    entry_price: price,
    exit_price: '5000.25',
    quantity: '1',
  }));
  const result = parseImport(JSON.stringify(rows), { timeZone: 'America/New_York' });
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('withStorableTrades', () => {
  it('keeps trades the database can hold and makes the others unreadable rows, at both ends of the range', () => {
    const preview = previewOf(['5000.25', '10000000000000000', '-10000000000000000', '9999999999999999.99', '-9999999999999999.99']);
    const checked = withStorableTrades(preview);
    expect(checked.trades.map((t) => t.entryPrice?.toFixed())).toEqual(['5000.25', '9999999999999999.99', '-9999999999999999.99']);
    expect(checked.issues.filter((i) => i.severity === 'error').map((i) => [i.row, i.message])).toEqual([
      [2, 'A price or quantity is too large to be real'],
      [3, 'A price or quantity is too large to be real'],
    ]);
  });

  it('gives back the preview itself when every trade can be stored', () => {
    const preview = previewOf(['5000.25', '4999']);
    expect(withStorableTrades(preview)).toBe(preview);
  });
});
