import { describe, expect, it } from 'vitest';
import { deriveResult, deriveResultFromNet, parseTradeResult } from './trade-result';

describe('trade result from net pnl', () => {
  it('a $150.00 winner with $4.50 commission is a Win', () => {
    expect(deriveResult(15000, 450)).toBe('Win');
  });

  it('a $2.00 winner eaten by $4.50 commission is a Loss', () => {
    expect(deriveResult(200, 450)).toBe('Loss');
  });

  it('a $4.50 gross with $4.50 commission nets 0 and is BE', () => {
    expect(deriveResult(450, 450)).toBe('BE');
  });

  it('treats a commission typed as negative the same as positive (stored absolute)', () => {
    expect(deriveResult(450, -450)).toBe('BE');
    expect(deriveResult(200, -450)).toBe('Loss');
  });

  it('a scratch at 0 with no commission is BE; one cent either side is Win or Loss', () => {
    expect(deriveResultFromNet(0)).toBe('BE');
    expect(deriveResultFromNet(1)).toBe('Win');
    expect(deriveResultFromNet(-1)).toBe('Loss');
  });

  it('reads the result spellings found in imports and forms', () => {
    expect(parseTradeResult(' win ')).toBe('Win');
    expect(parseTradeResult('LOSS')).toBe('Loss');
    expect(parseTradeResult('Break Even')).toBe('BE');
    expect(parseTradeResult('breakeven')).toBe('BE');
    expect(parseTradeResult('closed')).toBeNull();
    expect(parseTradeResult(1)).toBeNull();
  });
});
