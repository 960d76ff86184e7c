import { describe, expect, it } from 'vitest';
import { Decimal } from '../money';
import type { ImportIssue } from '../fills/types';
import { pairsToFills, type FillPair } from './pairs';

const t0 = Date.UTC(2026, 0, 5, 14, 30);
function pair(row: number, account: string, buyId: string, sellId: string, options: { buyPrice?: string; contract?: string } = {}): FillPair {
  return {
    row,
    account,
    contract: options.contract ?? 'MNQH6',
    quantity: new Decimal(1),
    idNamespace: 'tradovate-fill',
    buy: { id: buyId, price: new Decimal(options.buyPrice ?? '21000.25'), time: t0 },
    sell: { id: sellId, price: new Decimal('21001'), time: t0 + 60_000 },
  };
}

describe('pairsToFills', () => {
  it('merges the legs that share a fill id, per account, contract and side, and keeps the rest apart', () => {
    const issues: ImportIssue[] = [];
    const pairs = [
      pair(2, 'A', '100', '200'),
      pair(3, 'A', '100', '201'),
      // The same ids in another account, and on another contract: other fills.
      pair(4, 'B', '100', '200'),
      pair(5, 'A', '100', '202', { contract: 'MESH6' }),
      // A sell whose id is a buy's id of the same account: another side, another fill.
      pair(6, 'A', '300', '100'),
    ];
    const fills = pairsToFills(pairs.values(), issues);
    const of = (account: string, contract: string, side: string, id: string) =>
      fills.filter((f) => f.account === account && f.contract === contract && f.side === side && f.id === `tradovate-fill:${id}`);
    const merged = of('A', 'MNQH6', 'Buy', '100');
    expect(merged).toHaveLength(1);
    expect(merged[0]!.quantity.toString()).toBe('2');
    expect(merged[0]!.rows).toEqual([2, 3]);
    expect(of('B', 'MNQH6', 'Buy', '100')[0]!.rows).toEqual([4]);
    expect(of('A', 'MESH6', 'Buy', '100')[0]!.rows).toEqual([5]);
    expect(of('A', 'MNQH6', 'Sell', '100')[0]!.rows).toEqual([6]);
    // 5 pairs, 10 legs, one leg merged into another.
    expect(fills).toHaveLength(9);
    expect(issues).toEqual([]);
  });

  it('finds a fill again under its id after another account used the same id, and warns when its price differs', () => {
    const issues: ImportIssue[] = [];
    const pairs = [
      pair(2, 'B', '100', '200'),
      pair(3, 'A', '100', '201'),
      pair(4, 'A', '100', '202', { buyPrice: '21000.5' }),
      pair(5, 'B', '100', '203'),
    ];
    const fills = pairsToFills(pairs, issues);
    const buys = fills.filter((f) => f.side === 'Buy');
    expect(buys.map((f) => [f.account, f.rows])).toEqual([
      ['B', [2, 5]],
      ['A', [3, 4]],
    ]);
    expect(issues).toEqual([{ row: 4, severity: 'warning', message: 'Fill 100 appears with a different price or time than on row 3' }]);
  });
});
