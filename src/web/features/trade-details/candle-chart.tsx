import { Box, Loader, Center, useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { getFuturesRoot, TICK_SIZES } from '../../../domain/instruments';
import { priceDecimalsOf } from '../../../domain/trades';
import type { TradeChart } from '../../shared/api';
import { formatClock, formatCrosshair, formatDayLabel } from './zone-time';

/**
 * A trade's candlesticks with TradingView's lightweight-charts, loaded with this chart only (a
 * dynamic import: none of it is in the first screen's bytes). Every fill is a marker with its side and quantity at
 * the bar it happened in; the average entry and exit are price lines; the wheel and a drag zoom and pan; the times
 * read on the trader's clock. The chart's own time values stay UTC seconds: the labels are formatted in the zone,
 * since shifting the values would break on the hour a daylight-saving change repeats.
 */

/** What was handed to the library, for the page's tests and for a screen reader's summary. */
export interface DrawnMarker {
  /** Bar start, epoch seconds. */
  time: number;
  text: string;
  side: 'Buy' | 'Sell';
}

/** The start (seconds) of the last bar at or before `time` (seconds): the bar a fill happened in. */
export function barOf(starts: readonly number[], time: number): number | null {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? null : starts[lo - 1]!;
}

const trim = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

/** The fills as markers at their bars, oldest first (the library wants them sorted). */
export function markersOf(chart: TradeChart): DrawnMarker[] {
  const starts = chart.bars.map((bar) => bar[0]);
  const markers: DrawnMarker[] = [];
  for (const fill of chart.fills) {
    const time = barOf(starts, Date.parse(fill.time) / 1000);
    if (time === null) continue;
    markers.push({ time, side: fill.side, text: `${fill.side === 'Buy' ? 'B' : 'S'} ${trim(fill.quantity)}` });
  }
  return markers.sort((a, b) => a.time - b.time);
}

export function CandleChart({ chart, symbol, timeZone, height }: { chart: TradeChart; symbol: string; timeZone: string; height: number }) {
  const container = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('dark');
  const theme = useMantineTheme();
  const [loading, setLoading] = useState(true);
  const [drawn, setDrawn] = useState<DrawnMarker[] | null>(null);

  useEffect(() => {
    let disposed = false;
    let dispose: (() => void) | null = null;
    const element = container.current;
    if (!element) return;
    setDrawn(null);
    void import('lightweight-charts').then(({ createChart, CandlestickSeries, ColorType, CrosshairMode, LineStyle, TickMarkType, createSeriesMarkers }) => {
      if (disposed) return;
      const dark = scheme === 'dark';
      const text = dark ? theme.colors.dark[0] : theme.colors.gray[8];
      const grid = dark ? theme.colors.dark[5] : theme.colors.gray[2];
      const up = dark ? theme.colors.teal[5] : theme.colors.teal[7];
      const down = dark ? theme.colors.red[5] : theme.colors.red[7];
      const seconds = chart.resolution === 1;
      const api = createChart(element, {
        autoSize: true,
        layout: { background: { type: ColorType.Solid, color: dark ? theme.colors.dark[7] : theme.white }, textColor: text, attributionLogo: true },
        grid: { vertLines: { color: grid }, horzLines: { color: grid } },
        crosshair: { mode: CrosshairMode.Normal },
        rightPriceScale: { borderColor: grid },
        timeScale: {
          borderColor: grid,
          timeVisible: true,
          secondsVisible: seconds,
          tickMarkFormatter: (time: unknown, type: number) => {
            const ms = Number(time) * 1000;
            if (type === TickMarkType.Year || type === TickMarkType.Month || type === TickMarkType.DayOfMonth) return formatDayLabel(ms, timeZone);
            return formatClock(ms, timeZone, { seconds: type === TickMarkType.TimeWithSeconds });
          },
        },
        localization: { timeFormatter: (time: unknown) => formatCrosshair(Number(time) * 1000, timeZone, seconds) },
        handleScroll: true,
        handleScale: true,
      });
      const tick = TICK_SIZES[getFuturesRoot(symbol)];
      const precision = chart.bars.length > 0 ? priceDecimalsOf(symbol, chart.bars[0]![4]) : 2;
      const series = api.addSeries(CandlestickSeries, {
        upColor: up,
        downColor: down,
        borderUpColor: up,
        borderDownColor: down,
        wickUpColor: up,
        wickDownColor: down,
        priceLineVisible: false,
        lastValueVisible: false,
        priceFormat: { type: 'price', precision, minMove: tick ? Number(tick) : 10 ** -precision },
      });
      series.setData(chart.bars.map(([time, open, high, low, close]) => ({ time: time as never, open, high, low, close })));
      const markers = markersOf(chart);
      createSeriesMarkers(
        series,
        markers.map((marker) => ({
          time: marker.time as never,
          position: marker.side === 'Buy' ? ('belowBar' as const) : ('aboveBar' as const),
          shape: marker.side === 'Buy' ? ('arrowUp' as const) : ('arrowDown' as const),
          color: marker.side === 'Buy' ? up : down,
          text: marker.text,
        })),
      );
      const lines: Array<[string | null, string, string]> = [
        [chart.entry_price, 'Avg entry', dark ? theme.colors.blue[4] : theme.colors.blue[7]],
        [chart.exit_price, 'Avg exit', dark ? theme.colors.orange[4] : theme.colors.orange[8]],
      ];
      for (const [price, title, color] of lines) {
        if (price !== null) series.createPriceLine({ price: Number(price), color, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title });
      }
      api.timeScale().fitContent();
      dispose = () => api.remove();
      setLoading(false);
      // Drawn on the next frame: the bench and the tests read this mark (drawn within 300 ms of the data).
      requestAnimationFrame(() => {
        if (disposed) return;
        performance.mark('trade-chart-drawn');
        setDrawn(markers);
      });
    });
    return () => {
      disposed = true;
      dispose?.();
    };
  }, [chart, scheme, symbol, timeZone, theme]);

  return (
    <Box pos="relative" h={height} data-testid="trade-chart" data-ready={drawn ? 'true' : 'false'} data-markers={drawn ? JSON.stringify(drawn) : undefined}>
      {/* Not aria-hidden: the library's attribution link inside is focusable. The caption under the chart says in words what it shows. */}
      <div ref={container} style={{ position: 'absolute', inset: 0 }} />
      {loading && (
        <Center pos="absolute" inset={0}>
          <Loader size="sm" role="status" aria-label="Loading the chart" />
        </Center>
      )}
    </Box>
  );
}
