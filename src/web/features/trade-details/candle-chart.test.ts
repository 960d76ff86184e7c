import { describe, expect, it } from 'vitest';
import type { TradeChart } from '../../shared/api';
import { holeStarts, labelDecimals, markersOf } from './candle-chart';

/** MNQ bars of 10:00 to 10:05 (15:00 UTC on 5 March 2025), as the chart's endpoint sends them. */
const minute = (m: number) => Date.UTC(2025, 2, 5, 15, m) / 1000;
const chart = (fills: TradeChart['fills'], holes: TradeChart['holes'] = []): TradeChart =>
  ({
    bars: [0, 1, 2, 4, 5].map((m) => [minute(m), 21000, 21002, 20999, 21001, 5]),
    fills,
    holes,
    resolution: 60,
  }) as unknown as TradeChart;
const fill = (m: number, s: number, side: 'Buy' | 'Sell', quantity: string, price: string) => ({
  time: new Date((minute(m) + s) * 1000).toISOString(),
  side,
  quantity,
  price,
  commission: null,
});

describe('the chart of a trade', () => {
  it('puts each fill at its own price; the fills of one side in one bar are one marker with their count, at their average', () => {
    const markers = markersOf(chart([fill(0, 10, 'Buy', '1', '21000'), fill(0, 40, 'Buy', '2', '21001.5'), fill(2, 5, 'Sell', '3', '21010.25')]));
    expect(markers.map(({ time, side, text, count }) => ({ time, side, text, count }))).toEqual([
      { time: minute(0), side: 'Buy', text: 'B 3 ×2', count: 2 },
      { time: minute(2), side: 'Sell', text: 'S 3', count: 1 },
    ]);
    // (1 x 21000 + 2 x 21001.5) / 3 = 21001; the single sell at its own price.
    expect(markers.map((m) => m.price)).toEqual([21001, 21010.25]);
    expect(markers[0]!.lastFill).toBe((minute(0) + 40) * 1000);
  });

  it('a fill in a minute without a bar sits in the bar before it; a missing minute is a gap the chart keeps', () => {
    expect(markersOf(chart([fill(3, 30, 'Sell', '1', '21000')]))[0]!.time).toBe(minute(2));
    expect(holeStarts(chart([], [{ from: new Date(minute(3) * 1000).toISOString(), to: new Date(minute(4) * 1000).toISOString() }]))).toEqual([
      minute(3),
    ]);
  });

  it("labels prices with at least two decimals, so a scale-in's average reads 6865.33, not the tick it rounds to", () => {
    expect(labelDecimals('ESZ5', 6865.25)).toBe(2);
    expect((6865 + 1 / 3).toFixed(labelDecimals('ESZ5', 6865.25))).toBe('6865.33');
    expect(labelDecimals('MGCZ5', 3969.6)).toBe(2);
  });
});
