import { describe, expect, it } from 'vitest';
import {
  cycleRuleAdherence,
  deriveReflectionTags,
  groupReflectionsByDate,
  NO_DESCRIPTION,
  removeReflectionTag,
  toReflection,
  type ReflectionTrade,
} from './reflection';

const trade = (over: Partial<ReflectionTrade> = {}): ReflectionTrade => ({
  id: 't1',
  tradeDate: '2026-03-09',
  symbol: 'NQ',
  session: 'AM',
  tradeType: 'Breakout',
  status: 'Win',
  pnlCents: 12_550,
  notes: '',
  link: '',
  tags: [],
  ...over,
});

// A reflection, and its tags derived from the type, the session and the note's keywords: at most 4 per trade.
describe('reflection tags', () => {
  it('derives the setup, the session and each keyword tag the notes name', () => {
    expect(deriveReflectionTags(trade({ notes: 'Liquidity sweep into a key level' }))).toEqual(['Breakout', 'AM', 'Sweep', 'Key Level']);
    expect(deriveReflectionTags(trade({ tradeType: 'IFVG', session: 'PM', notes: 'macro time' }))).toEqual(['IFVG', 'PM', 'FVG', 'Macro']);
    expect(deriveReflectionTags(trade({ tradeType: '', session: 'Lunch', notes: 'CPI data, bad exit, momentum faded' }))).toEqual([
      'Lunch',
      'Momentum',
      'News/Data',
      'Exit Strategy',
    ]);
  });

  it('keeps at most 4 tags, the trader’s own before the keyword ones, and drops an import’s bookkeeping tags', () => {
    const tags = deriveReflectionTags(
      trade({ tags: ['Imported', 'Direct-Parse', 'Winner', 'NQ', 'FOMO', 'High-Impact'], notes: 'sweep then momentum' }),
    );
    expect(tags).toEqual(['Breakout', 'AM', 'FOMO', 'Sweep']);
    expect(tags).toHaveLength(4);
  });

  it('drops duplicates case-insensitively, keeping the first spelling', () => {
    expect(deriveReflectionTags(trade({ tradeType: 'Momentum', notes: 'MOMENTUM', tags: ['am'] }))).toEqual(['Momentum', 'AM']);
  });

  it('keeps the side apart from the setup: the side is no tag and no type', () => {
    const r = toReflection(trade({ side: 'Short', tradeType: 'Breakout', tags: ['Imported', 'Short'] }));
    expect([r.side, r.type, r.tags]).toEqual(['Short', 'Breakout', ['Breakout', 'AM']]);
    expect(toReflection(trade({})).side).toBeNull();
  });
});

describe('toReflection', () => {
  it('builds the reflection of a trade with its derived fields', () => {
    const r = toReflection(trade({ notes: '  waited for the sweep  ', link: 'https://example.com/chart.png' }));
    expect(r).toMatchObject({
      id: 'r-t1',
      tradeId: 't1',
      date: '2026-03-09',
      day: 'Monday',
      week: 'Week of Mar 9, 2026',
      result: 'Win',
      followedRules: null,
      description: 'waited for the sweep',
      imageUrl: 'https://example.com/chart.png',
      pnlCents: 12_550,
    });
  });

  it("says 'No description provided' without notes, and a link that is not an image gives no image", () => {
    const r = toReflection(trade({ link: 'https://www.tradingview.com/x/abc/' }));
    expect(r.description).toBe(NO_DESCRIPTION);
    expect(r.imageUrl).toBeNull();
    expect(r.link).toBe('https://www.tradingview.com/x/abc/');
  });

  it('applies the trader’s overrides: adherence, edited tags (still at most 4) and description', () => {
    const r = toReflection(trade({ notes: 'sweep' }), {
      followedRules: false,
      tags: ['A', 'b', 'B', 'c', 'd', 'e'],
      description: 'Chased it',
    });
    expect(r.followedRules).toBe(false);
    expect(r.tags).toEqual(['A', 'b', 'c', 'd']);
    expect(r.description).toBe('Chased it');
  });

  it('keeps BE for anything that is not a Win or a Loss', () => {
    expect(toReflection(trade({ status: 'Loss' })).result).toBe('Loss');
    expect(toReflection(trade({ status: 'BE' })).result).toBe('BE');
  });
});

describe('rule adherence and tag removal', () => {
  it('cycles followed, not followed, unset', () => {
    expect(cycleRuleAdherence(null)).toBe(true);
    expect(cycleRuleAdherence(true)).toBe(false);
    expect(cycleRuleAdherence(false)).toBeNull();
  });

  it('removes one tag whatever its case', () => {
    expect(removeReflectionTag(['AM', 'Sweep', 'FOMO'], 'sweep')).toEqual(['AM', 'FOMO']);
  });
});

describe('groupReflectionsByDate', () => {
  it('groups newest day first with each day’s P&L in exact cents', () => {
    const groups = groupReflectionsByDate([
      toReflection(trade({ id: 'a', tradeDate: '2026-03-09', pnlCents: 10 })),
      toReflection(trade({ id: 'b', tradeDate: '2026-03-11', pnlCents: 20 })),
      toReflection(trade({ id: 'c', tradeDate: '2026-03-09', pnlCents: 20 })),
    ]);
    expect(groups.map((g) => [g.date, g.day, g.reflections.map((r) => r.tradeId), g.pnlCents])).toEqual([
      ['2026-03-11', 'Wednesday', ['b'], 20],
      ['2026-03-09', 'Monday', ['a', 'c'], 30],
    ]);
  });
});
