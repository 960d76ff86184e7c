import { describe, expect, it } from 'vitest';
import { compareParams, readCompareSetCount } from './compare-state';

const params = (text: string) => new URLSearchParams(text);

describe("Compare's sets in the URL", () => {
  it('shows two sets by default, more when asked or when a later set has a filter, never more than four', () => {
    expect(readCompareSetCount(params(''))).toBe(2);
    expect(readCompareSetCount(params('sets=3'))).toBe(3);
    expect(readCompareSetCount(params('sets=9'))).toBe(4);
    expect(readCompareSetCount(params('sets=1'))).toBe(2);
    expect(readCompareSetCount(params('d.symbol=ES'))).toBe(4);
    // A parameter that merely starts like a prefix is not a set's filter.
    expect(readCompareSetCount(params('c.nothing=1'))).toBe(2);
  });

  it('adds a set with no filter, up to four', () => {
    const three = compareParams(params('side=Long&b.side=Short'), { type: 'add' });
    expect(three.toString()).toBe('side=Long&b.side=Short&sets=3');
    const four = compareParams(three, { type: 'add' });
    expect(readCompareSetCount(four)).toBe(4);
    expect(readCompareSetCount(compareParams(four, { type: 'add' }))).toBe(4);
  });

  it('removes a middle set and moves the later ones up a letter, keeping the page’s other parameters', () => {
    const url = params('symbol=NQ&b.side=Long&c.side=Short&c.hour=9&d.range=this-month&sets=4&year=2026');
    const after = compareParams(url, { type: 'remove', index: 1 });
    expect(after.toString()).toBe('symbol=NQ&b.side=Short&b.hour=9&c.range=this-month&year=2026&sets=3');
    // The last of three: back to two sets, and no `sets` parameter left.
    expect(compareParams(after, { type: 'remove', index: 2 }).toString()).toBe('symbol=NQ&b.side=Short&b.hour=9&year=2026');
  });

  it('never removes set A, nor a set when only two are left', () => {
    const two = params('side=Long&b.side=Short');
    expect(compareParams(two, { type: 'remove', index: 1 }).toString()).toBe(two.toString());
    expect(compareParams(params('side=Long&sets=3'), { type: 'remove', index: 0 }).toString()).toBe('side=Long&sets=3');
  });

  it('resets to A and B for a preset', () => {
    expect(compareParams(params('side=Long&b.side=Short&c.symbol=ES&sets=3'), { type: 'reset' }).toString()).toBe('side=Long&b.side=Short');
  });
});
