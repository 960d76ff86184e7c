import { describe, expect, it } from 'vitest';
import { formatMoney } from './cents';

describe('money in its account currency', () => {
  it('writes dollars with a $, and USDT or USDC with their code and never a $', () => {
    expect(formatMoney(123456)).toBe('$1,234.56');
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(512346, 'USDT')).toBe('5,123.46 USDT');
    expect(formatMoney(-1250, 'USDC')).toBe('-12.50 USDC');
    expect(formatMoney(5, 'USDT')).toBe('0.05 USDT');
  });
});
