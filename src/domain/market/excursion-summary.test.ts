import { describe, expect, it } from 'vitest';
import { summarizeExcursions } from './excursion-summary';

describe('summarizeExcursions', () => {
  it('averages MAE and MFE of winners and losers apart, in whole cents, and capture over the trades that have one', () => {
    const summary = summarizeExcursions(
      [
        { result: 'win', mae: '16.00', mfe: '68.00', capture: '0.7059' },
        { result: 'win', mae: '0.10', mfe: '10.00', capture: '0.2000' },
        { result: 'loss', mae: '40.00', mfe: '0.00', capture: null },
        { result: 'loss', mae: '25.01', mfe: '5.00', capture: '-1.5000' },
        { result: 'even', mae: '3.00', mfe: '3.00', capture: '0.0000' },
      ],
      2,
    );
    expect(summary.winners).toEqual({ trades: 2, averageMaeCents: 805, averageMfeCents: 3900, averageCapturePercent: 45.3 });
    // (4000 + 2501) / 2 = 3250.5 cents: rounded half up to 3251, not drifting through floats.
    expect(summary.losers).toEqual({ trades: 2, averageMaeCents: 3251, averageMfeCents: 250, averageCapturePercent: -150 });
    expect(summary.all.trades).toBe(5);
    expect(summary.all.averageMaeCents).toBe(Math.round((1600 + 10 + 4000 + 2501 + 300) / 5));
    expect(summary.all.averageCapturePercent).toBe(Math.round((7059 + 2000 - 15000 + 0) / 4 / 10) / 10);
    expect(summary.unmeasured).toBe(2);
  });

  it('has no averages without measured trades', () => {
    expect(summarizeExcursions([], 3)).toEqual({
      all: { trades: 0, averageMaeCents: null, averageMfeCents: null, averageCapturePercent: null },
      winners: { trades: 0, averageMaeCents: null, averageMfeCents: null, averageCapturePercent: null },
      losers: { trades: 0, averageMaeCents: null, averageMfeCents: null, averageCapturePercent: null },
      unmeasured: 3,
    });
  });
});
