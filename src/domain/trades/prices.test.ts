import { describe, expect, it } from 'vitest';
import { formatPrice, priceDecimalsOf } from './prices';

/**
 * An imported average price showed '25235.78571429'. Prices show the instrument's tick precision
 * (CME contract specifications: NQ/ES/MNQ/MES 0.25, YM 1, RTY 0.1), with the exact value for hovering.
 */
describe('prices at the instrument tick precision', () => {
  it('an NQ average of seven fills, 25235.78571429, shows 25235.79 and keeps the exact value', () => {
    expect(formatPrice('25235.78571429', 'NQ')).toEqual({ text: '25235.79', exact: '25235.78571429' });
  });

  it('stored with eight decimals, an on-tick price shows its tick decimals: 21050.25000000 -> 21050.25, 21050.5 -> 21050.50', () => {
    expect(formatPrice('21050.25000000', 'MNQZ5')).toEqual({ text: '21050.25', exact: '21050.25' });
    expect(formatPrice('21050.5', 'ES')).toEqual({ text: '21050.50', exact: '21050.5' });
    expect(formatPrice('5712.125', 'MES').text).toBe('5712.13');
  });

  it('YM ticks in whole points and RTY in tenths, in any broker spelling of the contract', () => {
    expect(formatPrice('43125.66666667', 'YMZ5').text).toBe('43126');
    expect(formatPrice('43125.5', 'MYM DEC25').text).toBe('43126');
    expect(formatPrice('2301.36666667', 'RTY').text).toBe('2301.4');
    expect(formatPrice('2301.33333333', 'CME_MINI:M2K1!').text).toBe('2301.3');
    expect(formatPrice('25235.78571429', 'NQ 03-26').text).toBe('25235.79');
  });

  it('other CME contracts use their own tick: CL 0.01, 6E 0.00005, ZN 1/64 written as 0.015625', () => {
    expect(formatPrice('71.236666', 'CLX5').text).toBe('71.24');
    expect(formatPrice('1.0873333', '6EZ5').text).toBe('1.08733');
    expect(priceDecimalsOf('ZNH6', '110.5')).toBe(6);
  });

  it('spot crypto uses its coin’s quote decimals; the CME Bitcoin future its 5-point tick', () => {
    expect(formatPrice('60123.456789', 'BTC').text).toBe('60123.46');
    expect(formatPrice('60123.456789', 'BTC-USD').text).toBe('60123.46');
    expect(formatPrice('0.51234567', 'XRPUSDT').text).toBe('0.5123');
    expect(formatPrice('0.123456789', 'DOGE').text).toBe('0.12346');
    expect(formatPrice('97237.5', 'BTCZ5').text).toBe('97238');
  });

  it('stocks and unknown symbols: cents at $1 and above, four decimals below (the US equity tick)', () => {
    expect(formatPrice('187.123456', 'AAPL').text).toBe('187.12');
    expect(formatPrice('0.87654321', 'PENNY').text).toBe('0.8765');
  });

  it('rounds half away from zero, and leaves a value that is not a number as given', () => {
    expect(formatPrice('-3.125', 'NQ').text).toBe('-3.13');
    expect(formatPrice('n/a', 'NQ')).toEqual({ text: 'n/a', exact: 'n/a' });
  });
});
