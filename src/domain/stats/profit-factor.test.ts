import { describe, expect, it } from 'vitest';
import { calculateProfitFactor, formatProfitFactor } from './profit-factor';

describe('profit factor = gross profit / |gross loss|', () => {
  it('$1,500.00 won against $750.00 lost is 2.00', () => {
    expect(calculateProfitFactor({ grossProfitCents: 150000, grossLossCents: -75000 })).toBe(2);
  });

  it('$1,565.90 won against $282.75 lost is 5.54', () => {
    expect(formatProfitFactor(calculateProfitFactor({ grossProfitCents: 156590, grossLossCents: -28275 }), 7)).toBe('5.54');
  });

  it('profit and no loss is Infinity, printed ∞', () => {
    const pf = calculateProfitFactor({ grossProfitCents: 100, grossLossCents: 0 });
    expect(pf).toBe(Number.POSITIVE_INFINITY);
    expect(formatProfitFactor(pf, 1)).toBe('∞');
  });

  it('only losses is 0; no trades (or only scratches) is 0', () => {
    expect(calculateProfitFactor({ grossProfitCents: 0, grossLossCents: -5000 })).toBe(0);
    expect(calculateProfitFactor({ grossProfitCents: 0, grossLossCents: 0 })).toBe(0);
    // Printed: only losses or only scratches are 0.00; no trade at all is no figure.
    expect(formatProfitFactor(0, 2)).toBe('0.00');
    expect(formatProfitFactor(0, 0)).toBe('—');
  });
});
