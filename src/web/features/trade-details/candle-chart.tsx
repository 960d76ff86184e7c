import { Box, Loader, Center, useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { getFuturesRoot, TICK_SIZES } from '../../../domain/instruments';
import { priceDecimalsOf } from '../../../domain/trades';
import type { TradeChart } from '../../shared/api';
import { formatClock, formatCrosshair, formatDayLabel } from './zone-time';

/**
 * A trade's candlesticks with TradingView's lightweight-charts, loaded with this chart only (a dynamic import: none of
 * it is in the first screen's bytes). Every fill is a marker at its own price in the bar it happened in, the fills of
 * one side in one bar one marker with their count; the average entry and exit are price lines labelled with their
 * exact prices (a scale-in's 6865.33, not the tick it rounds to); minutes without a bar are gaps in the candles, not
 * closed up; the wheel and a drag zoom and pan; the times read on the trader's clock. The chart's own time values stay
 * UTC seconds: the labels are formatted in the zone, since shifting the values would break on the hour a
 * daylight-saving change repeats. In a replay only the bars up to `upTo` are drawn, and only the fills made by then.
 */

/** What was handed to the library, for the page's tests and for a screen reader's summary. */
export interface DrawnMarker {
  /** Bar start, epoch seconds. */
  time: number;
  text: string;
  side: 'Buy' | 'Sell';
}

/** A marker as drawn: at the fills' price (their average when several), with how many fills it stands for. */
export interface FillMarker extends DrawnMarker {
  price: number;
  count: number;
  /** Epoch ms of its last fill: a replay shows it once that moment is past. */
  lastFill: number;
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

/**
 * The fills as markers at their bars, oldest first (the library wants them sorted): the fills of one side in one bar
 * are one marker, at their average price, its text the quantity and, for several, their count ('B 3 ×2').
 */
export function markersOf(chart: TradeChart): FillMarker[] {
  const starts = chart.bars.map((bar) => bar[0]);
  const groups = new Map<
    string,
    { time: number; side: 'Buy' | 'Sell'; quantity: number; notional: number; count: number; lastFill: number; quantities: string[] }
  >();
  for (const fill of chart.fills) {
    const at = Date.parse(fill.time);
    const time = barOf(starts, at / 1000);
    if (time === null) continue;
    const key = `${time}|${fill.side}`;
    const group = groups.get(key) ?? { time, side: fill.side, quantity: 0, notional: 0, count: 0, lastFill: 0, quantities: [] };
    const quantity = Number(fill.quantity);
    group.quantity += quantity;
    group.notional += quantity * Number(fill.price);
    group.count += 1;
    group.lastFill = Math.max(group.lastFill, at);
    group.quantities.push(trim(fill.quantity));
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((g) => ({
      time: g.time,
      side: g.side,
      text: `${g.side === 'Buy' ? 'B' : 'S'} ${g.count === 1 ? g.quantities[0] : trim(String(Math.round(g.quantity * 1e8) / 1e8))}${g.count > 1 ? ` ×${g.count}` : ''}`,
      price: g.notional / g.quantity,
      count: g.count,
      lastFill: g.lastFill,
    }))
    .sort((a, b) => a.time - b.time || a.side.localeCompare(b.side));
}

/** Bar starts (seconds) of the minutes without a bar inside the drawn window: gaps the chart keeps open. */
export function holeStarts(chart: TradeChart): number[] {
  if (chart.resolution === null) return [];
  const step = chart.resolution;
  const starts: number[] = [];
  for (const hole of chart.holes) {
    const to = Date.parse(hole.to) / 1000;
    for (let t = Math.floor(Date.parse(hole.from) / 1000 / step) * step; t < to; t += step) starts.push(t);
  }
  return starts;
}

/** Decimals the price labels show: the contract's tick's, and at least two, so an average is not rounded to a tick. */
export function labelDecimals(symbol: string, samplePrice: number | null): number {
  return Math.max(2, samplePrice === null ? 2 : priceDecimalsOf(symbol, samplePrice));
}

interface Drawing {
  apply(upTo: number | null): void;
}

export function CandleChart({
  chart,
  symbol,
  timeZone,
  height,
  compact = false,
  upTo = null,
}: {
  chart: TradeChart;
  symbol: string;
  timeZone: string;
  height: number;
  /** A phone's width: smaller labels, no titles over the candles. */
  compact?: boolean;
  /** In a replay: the start (seconds) of the last bar to draw. */
  upTo?: number | null;
}) {
  const container = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('dark');
  const theme = useMantineTheme();
  const [loading, setLoading] = useState(true);
  const [drawn, setDrawn] = useState<DrawnMarker[] | null>(null);
  const [ready, setReady] = useState(false);
  const drawing = useRef<Drawing | null>(null);
  const upToRef = useRef(upTo);
  upToRef.current = upTo;

  useEffect(() => {
    let disposed = false;
    let dispose: (() => void) | null = null;
    const element = container.current;
    if (!element) return;
    setDrawn(null);
    setReady(false);
    drawing.current = null;
    void import('lightweight-charts').then(
      ({ createChart, CandlestickSeries, ColorType, CrosshairMode, LineStyle, TickMarkType, createSeriesMarkers }) => {
        if (disposed) return;
        const dark = scheme === 'dark';
        const text = dark ? theme.colors.dark[0] : theme.colors.gray[8];
        const grid = dark ? theme.colors.dark[5] : theme.colors.gray[2];
        const up = dark ? theme.colors.teal[5] : theme.colors.teal[7];
        const down = dark ? theme.colors.red[5] : theme.colors.red[7];
        const seconds = chart.resolution === 1;
        const api = createChart(element, {
          autoSize: true,
          layout: {
            background: { type: ColorType.Solid, color: dark ? theme.colors.dark[7] : theme.white },
            textColor: text,
            attributionLogo: true,
            fontSize: compact ? 10 : 12,
          },
          grid: { vertLines: { color: grid }, horzLines: { color: grid } },
          crosshair: { mode: CrosshairMode.Normal },
          rightPriceScale: { borderColor: grid, scaleMargins: { top: 0.08, bottom: 0.08 } },
          timeScale: {
            borderColor: grid,
            timeVisible: true,
            secondsVisible: seconds,
            // A few empty bars on the right: the last candles stay clear of the price labels.
            rightOffset: compact ? 3 : 2,
            tickMarkFormatter: (time: unknown, type: number) => {
              const ms = Number(time) * 1000;
              if (type === TickMarkType.Year || type === TickMarkType.Month || type === TickMarkType.DayOfMonth) return formatDayLabel(ms, timeZone);
              return formatClock(ms, timeZone, { seconds: type === TickMarkType.TimeWithSeconds });
            },
          },
          localization: { timeFormatter: (time: unknown) => formatCrosshair(Number(time) * 1000, timeZone, seconds) },
          // On a phone a vertical drag scrolls the page, not the chart.
          handleScroll: compact ? { mouseWheel: true, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false } : true,
          handleScale: true,
        });
        const tick = TICK_SIZES[getFuturesRoot(symbol)];
        const decimals = labelDecimals(symbol, chart.bars.length > 0 ? chart.bars[0]![4] : null);
        const series = api.addSeries(CandlestickSeries, {
          upColor: up,
          downColor: down,
          borderUpColor: up,
          borderDownColor: down,
          wickUpColor: up,
          wickDownColor: down,
          priceLineVisible: false,
          lastValueVisible: false,
          priceFormat: { type: 'custom', minMove: tick ? Number(tick) : 10 ** -decimals, formatter: (price: number) => price.toFixed(decimals) },
        });
        const candles = chart.bars.map(([time, open, high, low, close]) => ({ time, open, high, low, close }));
        const holes = holeStarts(chart);
        const markers = markersOf(chart);
        const plugin = createSeriesMarkers(series, []);
        const lines: Array<[string | null, string, string]> = [
          [chart.entry_price, 'Avg entry', dark ? theme.colors.blue[4] : theme.colors.blue[7]],
          [chart.exit_price, 'Avg exit', dark ? theme.colors.orange[4] : theme.colors.orange[8]],
          [chart.stop?.price ?? null, 'Stop', dark ? theme.colors.red[4] : theme.colors.red[8]],
        ];
        for (const [price, title, color] of lines) {
          if (price === null) continue;
          // The exact price in the label; on a phone no title over the candles (the legend under the chart names them).
          series.createPriceLine({
            price: Number(price),
            color,
            lineWidth: 1,
            lineStyle: LineStyle.Dashed,
            axisLabelVisible: true,
            title: compact ? '' : `${title} ${Number(price).toFixed(decimals)}`,
          });
        }
        let fitted = false;
        const apply = (limit: number | null) => {
          const shown = limit === null ? candles : candles.filter((c) => c.time <= limit);
          const gaps = holes.filter((t) => limit === null || t <= limit).map((time) => ({ time }));
          const data = [...shown, ...gaps].sort((a, b) => a.time - b.time).map((point) => ({ ...point, time: point.time as never }));
          series.setData(data);
          const limitEnd = limit === null ? Number.POSITIVE_INFINITY : (limit + (chart.resolution ?? 60)) * 1000;
          const visible = markers.filter((m) => m.lastFill < limitEnd);
          plugin.setMarkers(
            visible.map((marker) => ({
              time: marker.time as never,
              position: marker.side === 'Buy' ? ('atPriceBottom' as const) : ('atPriceTop' as const),
              price: marker.price,
              shape: marker.side === 'Buy' ? ('arrowUp' as const) : ('arrowDown' as const),
              color: marker.side === 'Buy' ? up : down,
              text: marker.text,
            })),
          );
          if (!fitted) {
            // A replay keeps the whole window in view from its first bar, so the candles grow into it.
            if (limit !== null && candles.length > 0)
              api.timeScale().setVisibleRange({ from: candles[0]!.time as never, to: candles[candles.length - 1]!.time as never });
            else api.timeScale().fitContent();
            fitted = true;
          }
          setDrawn(visible.map(({ time, side, text }) => ({ time, side, text })));
        };
        drawing.current = { apply };
        apply(upToRef.current);
        dispose = () => api.remove();
        setLoading(false);
        // Drawn on the next frame: the bench and the tests read this mark (drawn within 300 ms of the data).
        requestAnimationFrame(() => {
          if (disposed) return;
          performance.mark('trade-chart-drawn');
          setReady(true);
        });
      },
    );
    return () => {
      disposed = true;
      drawing.current = null;
      dispose?.();
    };
  }, [chart, scheme, symbol, timeZone, theme, compact]);

  useEffect(() => {
    drawing.current?.apply(upTo);
  }, [upTo]);

  return (
    <Box
      pos="relative"
      h={height}
      data-testid="trade-chart"
      data-ready={drawn && ready ? 'true' : 'false'}
      data-markers={drawn ? JSON.stringify(drawn) : undefined}
      data-holes={chart.holes.length}
    >
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
