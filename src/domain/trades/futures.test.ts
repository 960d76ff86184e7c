import { describe, expect, it } from 'vitest';
import { computeRoundTripPnlCents, getContractMultiplier, getFuturesRoot } from './futures';

describe('futures multipliers (spec part 1 §9)', () => {
  it('knows the spec contracts plus RTY and M2K; anything else is 1', () => {
    expect(['MNQ', 'NQ', 'MES', 'ES', 'YM', 'MYM', 'RTY', 'M2K', 'BTC', 'AAPL'].map(getContractMultiplier)).toEqual([
      2, 20, 5, 50, 5, 0.5, 50, 5, 1, 1,
    ]);
  });

  it('prices the other CME contracts from the same table as the importers (MGC 10, CL 1000, BTCZ5 future 5, spot BTC 1)', () => {
    expect(['MGCQ5', 'CL', 'BTCZ5', 'BTC', 'CME_MINI:NQ1!'].map(getContractMultiplier)).toEqual([10, 1000, 5, 1, 20]);
  });

  it('finds the root in broker spellings of a contract', () => {
    expect(getFuturesRoot('NQZ5')).toBe('NQ');
    expect(getFuturesRoot('mnqh26')).toBe('MNQ');
    expect(getFuturesRoot('ESM2026')).toBe('ES');
    expect(getFuturesRoot('/ES')).toBe('ES');
    expect(getFuturesRoot('MYMU5')).toBe('MYM');
    expect(getFuturesRoot('M2KZ25')).toBe('M2K');
    expect(getFuturesRoot('NQ 03-26')).toBe('NQ');
    expect(getFuturesRoot('CME_MINI:NQ1!')).toBe('NQ');
    expect(getFuturesRoot('MNQ')).toBe('MNQ');
  });

  it('a 2-lot NQ long from 18250.25 to 18271.50 makes 21.25 x 2 x 20 = $850.00', () => {
    expect(computeRoundTripPnlCents({ side: 'Long', entryPrice: '18250.25', exitPrice: '18271.50', quantity: 2, symbol: 'NQH6' })).toBe(85000);
  });

  it('a 3-lot MYM short from 42010 to 42023 loses 13 x 3 x 0.5 = $19.50', () => {
    expect(computeRoundTripPnlCents({ side: 'Short', entryPrice: 42010, exitPrice: 42023, quantity: 3, symbol: 'MYM' })).toBe(-1950);
  });

  it('a 0.015 BTC long from 64000.10 to 64321.77 makes $4.83 (321.67 x 0.015 = 4.82505, rounded half up)', () => {
    expect(computeRoundTripPnlCents({ side: 'Long', entryPrice: '64000.10', exitPrice: '64321.77', quantity: '0.015', symbol: 'BTC' })).toBe(483);
  });
});
