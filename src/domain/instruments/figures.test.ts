import { describe, expect, it } from 'vitest';
import { Decimal } from '../money';
import {
  computeRoundTripPnlCents,
  exchangeOf,
  fullSizeRootOf,
  getContractMultiplier,
  instrumentFigures,
  instrumentOf,
  isMicroRoot,
  microRatioOf,
  pointValueOf,
  tickSizeOf,
} from './index';

describe('futures multipliers (MNQ 2, NQ 20, MES 5, ES 50, YM 5, MYM 0.5, unknown 1)', () => {
  it('knows the spec contracts plus RTY and M2K; anything else is 1', () => {
    expect(['MNQ', 'NQ', 'MES', 'ES', 'YM', 'MYM', 'RTY', 'M2K', 'BTC', 'AAPL'].map(getContractMultiplier)).toEqual([
      2, 20, 5, 50, 5, 0.5, 50, 5, 1, 1,
    ]);
  });

  it('prices the other CME contracts from the same table as the importers (MGC 10, CL 1000, BTCZ5 future 5, spot BTC 1)', () => {
    expect(['MGCQ5', 'CL', 'BTCZ5', 'BTC', 'CME_MINI:NQ1!'].map(getContractMultiplier)).toEqual([10, 1000, 5, 1, 20]);
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

describe('one record per root', () => {
  it('counts each micro toward its full-size contract at the ratio of their point values', () => {
    const micros = { MNQZ5: 'NQ', MES: 'ES', MYM: 'YM', M2K: 'RTY', MGC: 'GC', MCL: 'CL', MHG: 'HG', M6E: '6E', M6A: '6A', M6B: '6B' };
    for (const [micro, full] of Object.entries(micros)) {
      expect(fullSizeRootOf(micro)).toBe(full);
      expect(microRatioOf(micro)?.toString()).toBe('0.1');
      expect(isMicroRoot(instrumentOf(micro)!.root)).toBe(true);
    }
    // Micro silver is 1,000 ounces against 5,000; the crypto micros are a fiftieth and a five-hundredth.
    expect(microRatioOf('SIL')?.toString()).toBe('0.2');
    expect(microRatioOf('MBT')?.toString()).toBe('0.02');
    expect(microRatioOf('MET')?.toString()).toBe('0.002');
    // E-mini crude counts toward CL at a half, but it is charged as an E-mini, not a micro.
    expect([fullSizeRootOf('QM'), microRatioOf('QM')?.toString(), isMicroRoot('QM')]).toEqual(['CL', '0.5', false]);
  });

  it('a full-size contract counts as itself; a symbol we do not know has no ratio', () => {
    expect([fullSizeRootOf('NQH6'), microRatioOf('NQH6')?.toString()]).toEqual(['NQ', '1']);
    expect([fullSizeRootOf('AAPL'), microRatioOf('AAPL')]).toEqual(['AAPL', null]);
    // Known as a micro for fee schedules, but not priced here: no ratio rather than a guessed one.
    expect([isMicroRoot('10Y'), microRatioOf('10Y')]).toEqual([true, null]);
    expect(pointValueOf({ root: '10Y', isFuturesContract: true })).toEqual({ value: new Decimal(1), unknownFutures: true });
  });

  it('names the exchange that lists each contract', () => {
    expect(['NQZ5', 'MES', 'YM', 'ZN', 'CL', 'MGC', 'HG', '6E', 'MBT'].map(exchangeOf)).toEqual([
      'CME',
      'CME',
      'CBOT',
      'CBOT',
      'NYMEX',
      'COMEX',
      'COMEX',
      'CME',
      'CME',
    ]);
    expect([exchangeOf('AAPL'), exchangeOf('BTC'), exchangeOf('BTCZ5')]).toEqual([null, null, 'CME']);
  });

  it('gives a futures tick in any spelling, and none for spot crypto or stocks', () => {
    expect(['NQ', 'MNQ DEC25', 'CME_MINI:NQ1!', 'ZN', 'YMZ5', 'BTCZ5'].map(tickSizeOf)).toEqual(['0.25', '0.25', '0.25', '0.015625', '1', '5']);
    expect(['BTC', 'ETH-USD', 'AAPL'].map(tickSizeOf)).toEqual([null, null, null]);
  });

  it("gives the excursions a contract's point value, tick and hours, and spot crypto no tick", () => {
    expect(instrumentFigures('MNQH5')).toEqual({ pointValue: new Decimal(2), tickSize: new Decimal('0.25'), market: 'futures' });
    expect(instrumentFigures('BTC')).toEqual({ pointValue: new Decimal(1), tickSize: null, market: 'crypto' });
    expect(instrumentFigures('AAPL')).toEqual({ pointValue: new Decimal(1), tickSize: null, market: 'stock' });
  });
});
