import { describe, expect, it } from 'vitest';
import { compareParams, readCompareBy, readCompareSetCount } from './compare-state';

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

  it('loads a saved view into one set, in place of that set’s filter, leaving the other sets and the page’s parameters', () => {
    const url = params('symbol=NQ&b.side=Long&b.hour=9&c.symbol=ES&sets=3&by=hour');
    const intoB = compareParams(url, { type: 'load', index: 1, filter: 'session=London&side=Short' });
    expect(intoB.toString()).toBe('symbol=NQ&c.symbol=ES&by=hour&b.side=Short&b.session=London&sets=3');
    // Into A: the page's own filter, the other sets untouched.
    expect(compareParams(url, { type: 'load', index: 0, filter: 'range=this-month' }).toString()).toBe(
      'b.side=Long&b.hour=9&c.symbol=ES&by=hour&range=this-month&sets=3',
    );
    // A view of all trades empties the set but keeps it on screen, even the last set of four shown by its filter alone.
    const four = compareParams(params('d.symbol=ES'), { type: 'load', index: 3, filter: '' });
    expect(four.toString()).toBe('sets=4');
    expect(readCompareSetCount(four)).toBe(4);
    // Only what the filter model reads is loaded, under the set's prefix.
    expect(compareParams(params(''), { type: 'load', index: 1, filter: 'symbol=NQ&colour=red' }).toString()).toBe('b.symbol=NQ');
    // No such set: nothing changes.
    expect(compareParams(params('side=Long'), { type: 'load', index: 2, filter: 'symbol=NQ' }).toString()).toBe('side=Long');
  });

  it('keeps the breakdowns’ dimension in the URL, none when left out or unknown, through a reset', () => {
    expect(readCompareBy(params(''))).toBeNull();
    expect(readCompareBy(params('by=colour'))).toBeNull();
    const byHour = compareParams(params('side=Long&b.side=Short'), { type: 'breakdown', by: 'hour' });
    expect(byHour.toString()).toBe('side=Long&b.side=Short&by=hour');
    expect(readCompareBy(byHour)).toBe('hour');
    expect(readCompareBy(compareParams(byHour, { type: 'reset' }))).toBe('hour');
    expect(compareParams(byHour, { type: 'breakdown', by: null }).toString()).toBe('side=Long&b.side=Short');
  });
});
