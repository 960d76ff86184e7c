import { describe, expect, it } from 'vitest';
import { getFuturesRoot, isFuturesInstrument, marketKindOf, parseInstrument, spotCryptoOf } from './symbols';

describe('reading traded symbols', () => {
  it.each([
    ['MNQZ5', 'MNQZ5', 'MNQ'],
    ['MNQ DEC25', 'MNQZ5', 'MNQ'],
    ['MNQ 12-25', 'MNQZ5', 'MNQ'],
    ['/MNQZ25', 'MNQZ5', 'MNQ'],
    ['CON.F.US.MNQ.Z25', 'MNQZ5', 'MNQ'],
    ['M2KH6', 'M2KH6', 'M2K'],
    ['6EZ5', '6EZ5', '6E'],
    ['mesh5', 'MESH5', 'MES'],
    ['NQ', 'NQ', 'NQ'],
    ['AAPL', 'AAPL', 'AAPL'],
  ])('contract %s -> %s (root %s)', (text, contract, root) => {
    expect(parseInstrument(text)).toMatchObject({ contract, root });
  });

  it('remembers a contract it has read (a file names a handful of contracts on 100,000 rows)', () => {
    expect(parseInstrument('MNQ DEC25')).toBe(parseInstrument('MNQ DEC25'));
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

  it('tells futures from spot crypto and stocks: a bare BTC is the coin, BTCZ5 the CME future', () => {
    expect(['NQ', 'MNQZ5', 'BTCZ5', 'BTC', 'BTCUSDT', 'AAPL'].map(isFuturesInstrument)).toEqual([true, true, true, false, false, false]);
    expect(['BTC', 'ETH-USD', 'SOLUSDT', 'BTCZ5', 'AAPL'].map((text) => spotCryptoOf(parseInstrument(text)))).toEqual([
      'BTC',
      'ETH',
      'SOL',
      null,
      null,
    ]);
    expect(['ESH6', 'ETH-USD', 'TSLA'].map(marketKindOf)).toEqual(['futures', 'crypto', 'stock']);
  });
});
