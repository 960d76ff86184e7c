import { describe, expect, it } from 'vitest';
import { barSpanOf, joinBarSpans } from './bar-spans';

const at = (hhmmss: string) => Date.parse(`2026-08-03T${hhmmss}Z`);

describe('bar spans of broker connections', () => {
  it("pads a trade's span to whole minutes on both sides, whichever way its times are given", () => {
    expect(barSpanOf({ entry: at('14:30:42'), exit: at('14:41:05') })).toEqual({ from: at('14:25:00'), to: at('14:46:00') });
    expect(barSpanOf({ entry: at('14:41:05'), exit: at('14:30:42') }, 0)).toEqual({ from: at('14:30:00'), to: at('14:41:00') });
  });

  it('joins spans that overlap or lie within the gap, keeps apart those further off, oldest first', () => {
    const spans = [
      { from: at('18:00:00'), to: at('18:10:00') },
      { from: at('14:00:00'), to: at('14:20:00') },
      { from: at('14:10:00'), to: at('14:15:00') },
      { from: at('15:20:00'), to: at('15:30:00') },
    ];
    expect(joinBarSpans(spans)).toEqual([
      { from: at('14:00:00'), to: at('15:30:00') },
      { from: at('18:00:00'), to: at('18:10:00') },
    ]);
    expect(joinBarSpans(spans, 0)).toEqual([
      { from: at('14:00:00'), to: at('14:20:00') },
      { from: at('15:20:00'), to: at('15:30:00') },
      { from: at('18:00:00'), to: at('18:10:00') },
    ]);
    expect(spans[1]).toEqual({ from: at('14:00:00'), to: at('14:20:00') });
  });
});
