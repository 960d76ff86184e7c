import { describe, expect, it } from 'vitest';
import { readTradeSide, separateSideFromSetup } from './side';

describe('the side apart from the setup', () => {
  it('reads the words brokers and the spec samples use', () => {
    expect(['LONG', 'long', ' Buy ', 'SELL', 'Short', 'A/A+', '', 'L'].map(readTradeSide)).toEqual([
      'Long',
      'Long',
      'Long',
      'Short',
      'Short',
      null,
      null,
      null,
    ]);
  });

  it('moves a side typed as the setup into the side, and leaves real setups alone', () => {
    expect(separateSideFromSetup(null, 'SHORT')).toEqual({ side: 'Short', setup: '' });
    // The side from the fills is the better witness; the setup is emptied all the same.
    expect(separateSideFromSetup('Long', 'Short')).toEqual({ side: 'Long', setup: '' });
    expect(separateSideFromSetup('Short', 'Breakout')).toEqual({ side: 'Short', setup: 'Breakout' });
    // A setup that merely contains a side word is a setup.
    expect(separateSideFromSetup(null, 'Long squeeze')).toEqual({ side: null, setup: 'Long squeeze' });
  });
});
