import { describe, expect, it } from 'vitest';
import { describeLeftOut, narrowToOneCurrency, type AccountCurrency } from './currency';
import { createReportFilter, UNASSIGNED } from './filter';

const combine: AccountCurrency = { id: 'a-combine', name: 'Combine 50K', currency: 'USD', isDefault: true };
const personal: AccountCurrency = { id: 'a-personal', name: 'Personal', currency: 'USD', isDefault: false };
const binance: AccountCurrency = { id: 'a-binance', name: 'Binance USDT', currency: 'USDT', isDefault: false };
const hyper: AccountCurrency = { id: 'a-hyper', name: 'Hyperliquid', currency: 'USDC', isDefault: false };
const accounts = [combine, personal, binance, hyper];

describe('figures in one currency', () => {
  it('a filter of one currency is left as it is', () => {
    const filter = createReportFilter({ account: [binance.id] });
    expect(narrowToOneCurrency(filter, accounts)).toEqual({ filter, currency: 'USDT', leftOut: [] });
    const futuresOnly = createReportFilter({});
    expect(narrowToOneCurrency(futuresOnly, [combine, personal])).toEqual({ filter: futuresOnly, currency: 'USD', leftOut: [] });
  });

  it("every account, spanning USD, USDT and USDC: the default account's USD accounts (and trades without one), the others named as left out", () => {
    const scope = narrowToOneCurrency(createReportFilter({}), accounts);
    expect(scope.currency).toBe('USD');
    expect(scope.filter.account).toEqual([combine.id, personal.id, UNASSIGNED]);
    expect(scope.leftOut.map((a) => a.name)).toEqual(['Binance USDT', 'Hyperliquid']);
    expect(describeLeftOut(scope)).toBe(
      'In USD only: Binance USDT (USDT); Hyperliquid (USDC) are left out, as amounts in different currencies are never added together. Choose those accounts in the filter to see their figures.',
    );
  });

  it("named accounts without the default: the first named account's currency", () => {
    const scope = narrowToOneCurrency(createReportFilter({ account: [hyper.id, binance.id, 'not-mine'] }), accounts);
    expect([scope.currency, scope.filter.account, scope.leftOut.map((a) => a.id)]).toEqual(['USDC', [hyper.id, 'not-mine'], [binance.id]]);
    expect(describeLeftOut(scope)).toContain('Binance USDT (USDT) is left out');
  });

  it('a default account of USDT makes USDT the main currency of an all-accounts filter', () => {
    const scope = narrowToOneCurrency(createReportFilter({}), [
      { ...binance, isDefault: true },
      { ...combine, isDefault: false },
    ]);
    expect([scope.currency, scope.filter.account]).toEqual(['USDT', [binance.id]]);
  });
});
