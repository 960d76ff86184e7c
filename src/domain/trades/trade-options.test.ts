import { describe, expect, it } from 'vitest';
import {
  formatTradeType,
  DEFAULT_SESSIONS,
  DEFAULT_TAGS,
  DEFAULT_TRADE_TYPES,
  addTradeOption,
  checkTradeOptionRemoval,
  parseTags,
  tradeTypeChoices,
} from './trade-options';

describe('trade types, sessions and tags', () => {
  it('offers the spec defaults in order', () => {
    expect(DEFAULT_TRADE_TYPES).toEqual(['A/A+', 'Reversal', 'Momentum', 'IFVG', 'Support/Resistance', 'Breakout', 'Pullback', 'Trend Continuation']);
    expect(DEFAULT_SESSIONS).toEqual(['AM', 'PM', 'Lunch', 'Power Hour', 'Pre-Market', 'After Hours', 'Overnight']);
    expect(DEFAULT_TAGS).toEqual(['Winner', 'Loser', 'Breakeven', 'Scalp', 'Swing', 'Day Trade', 'NQ', 'ES', 'YM', 'RTY']);
  });

  it('refuses an existing trade type or session and ignores blank names', () => {
    expect(addTradeOption('trade_type', DEFAULT_TRADE_TYPES, ' breakout ')).toEqual({
      ok: false,
      ignored: false,
      error: 'This trade type already exists',
    });
    expect(addTradeOption('session', DEFAULT_SESSIONS, 'AM')).toEqual({
      ok: false,
      ignored: false,
      error: 'This session already exists',
    });
    expect(addTradeOption('session', DEFAULT_SESSIONS, '   ')).toEqual({ ok: false, ignored: true });
    // A side is a field of its own, never a setup.
    expect(addTradeOption('trade_type', DEFAULT_TRADE_TYPES, 'SHORT')).toEqual({
      ok: false,
      ignored: false,
      error: '"SHORT" is a side, not a setup: choose it as the trade\'s Side',
    });
    const added = addTradeOption('session', DEFAULT_SESSIONS, ' London ');
    expect(added).toEqual({ ok: true, added: 'London', options: [...DEFAULT_SESSIONS, 'London'] });
  });

  it('asks for a tag name and names a duplicate tag', () => {
    expect(addTradeOption('tag', ['Scalp'], '')).toEqual({ ok: false, ignored: false, error: 'Please enter a tag name' });
    expect(addTradeOption('tag', ['Scalp'], 'scalp')).toEqual({
      ok: false,
      ignored: false,
      error: 'Tag "scalp" already exists',
    });
  });

  it('refuses to remove a type used by a trade', () => {
    expect(checkTradeOptionRemoval('IFVG', ['A/A+', 'IFVG'])).toBe(`Cannot remove "IFVG" - it's being used by existing trades`);
    expect(checkTradeOptionRemoval('Pullback', ['A/A+', 'IFVG'])).toBeNull();
  });

  it('reads tags from an array or a comma string, trimmed and de-duplicated', () => {
    expect(parseTags('Scalp, NQ ,, nq,FOMO')).toEqual(['Scalp', 'NQ', 'FOMO']);
    expect(parseTags(['Swing', ' ', 'Swing', 7])).toEqual(['Swing', '7']);
    expect(parseTags(undefined)).toEqual([]);
  });

  it('de-duplicates 200,000 tags in linear time (a quadratic pass took minutes and stalled the server)', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => `Tag ${i}`);
    const started = performance.now();
    const tags = parseTags([...many, 'TAG 5', 'tag 199999']);
    expect(tags).toHaveLength(200_000);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('the trade type as shown', () => {
  it('writes a side one way whatever its stored casing, and a setup as typed', () => {
    for (const stored of ['LONG', 'Long', 'long', ' long ']) expect(formatTradeType(stored)).toBe('Long');
    for (const stored of ['SHORT', 'Short', 'short']) expect(formatTradeType(stored)).toBe('Short');
    for (const stored of ['A/A+', 'Breakout', 'Long squeeze', 'HTF liq sw', '']) expect(formatTradeType(stored)).toBe(stored);
  });
});

describe('tradeTypeChoices (the Type field of Add/Edit Trade and inline edit)', () => {
  it("labels a stored LONG/SHORT 'Long'/'Short' and keeps the stored value", () => {
    expect(tradeTypeChoices(['A/A+', 'Breakout'], 'LONG')).toEqual([
      { value: 'A/A+', label: 'A/A+' },
      { value: 'Breakout', label: 'Breakout' },
      { value: 'LONG', label: 'Long' },
    ]);
    expect(tradeTypeChoices(['Breakout'], 'SHORT', 'Breakout')).toEqual([
      { value: 'Breakout', label: 'Breakout' },
      { value: 'SHORT', label: 'Short' },
    ]);
  });

  it("offers the side once when the trader's types already hold it in another spelling", () => {
    expect(tradeTypeChoices(['Long', 'Short', 'Breakout'], 'LONG')).toEqual([
      { value: 'LONG', label: 'Long' },
      { value: 'Short', label: 'Short' },
      { value: 'Breakout', label: 'Breakout' },
    ]);
    // A trader's own 'SHORT' type reads 'Short' too.
    expect(tradeTypeChoices(['SHORT'], '')).toEqual([{ value: 'SHORT', label: 'Short' }]);
  });

  it('keeps the stored type choosable after another is chosen, and adds nothing for an empty or listed type', () => {
    expect(tradeTypeChoices(['Breakout'], 'LONG', 'Breakout')).toEqual([
      { value: 'Breakout', label: 'Breakout' },
      { value: 'LONG', label: 'Long' },
    ]);
    expect(tradeTypeChoices(['Breakout'], '', 'Breakout')).toEqual([{ value: 'Breakout', label: 'Breakout' }]);
    expect(tradeTypeChoices(['Breakout'], 'Old setup')).toEqual([
      { value: 'Breakout', label: 'Breakout' },
      { value: 'Old setup', label: 'Old setup' },
    ]);
  });
});
