import { lazy, Suspense, useEffect, useState, type ComponentProps, type ReactNode } from 'react';

/**
 * Mantine's charts (recharts underneath, ~170 kB of gzipped script) loaded once the first screen has painted, not
 * before it (issue 14): the first render draws each chart's box at its size, so nothing moves when they arrive.
 */
const charts = () => import('@mantine/charts');
let chartsRequested = false;

/** The chart itself only after the render that first showed its box: that render fetches nothing. */
function AfterFirstPaint({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const [ready, setReady] = useState(chartsRequested);
  useEffect(() => {
    if (ready) return;
    const timer = window.setTimeout(() => {
      chartsRequested = true;
      setReady(true);
    });
    return () => window.clearTimeout(timer);
  }, [ready]);
  return ready ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
const LazyAreaChart = lazy(() => charts().then((m) => ({ default: m.AreaChart })));
const LazyBarChart = lazy(() => charts().then((m) => ({ default: m.BarChart })));
const LazyDonutChart = lazy(() => charts().then((m) => ({ default: m.DonutChart })));
const LazyRadarChart = lazy(() => charts().then((m) => ({ default: m.RadarChart })));
const LazySparkline = lazy(() => charts().then((m) => ({ default: m.Sparkline })));

type Size = number | string | undefined;
const box = (width: unknown, height: unknown) => (
  <div style={{ width: (width as Size) ?? '100%', height: height as Size }} aria-hidden="true" />
);

export function AreaChart(props: ComponentProps<typeof LazyAreaChart>) {
  return (
    <AfterFirstPaint fallback={box(props.w, props.h)}>
      <LazyAreaChart {...props} />
    </AfterFirstPaint>
  );
}

export function BarChart(props: ComponentProps<typeof LazyBarChart>) {
  return (
    <AfterFirstPaint fallback={box(props.w, props.h)}>
      <LazyBarChart {...props} />
    </AfterFirstPaint>
  );
}

export function DonutChart(props: ComponentProps<typeof LazyDonutChart>) {
  return (
    <AfterFirstPaint fallback={box(props.size ?? 160, props.size ?? 160)}>
      <LazyDonutChart {...props} />
    </AfterFirstPaint>
  );
}

export function RadarChart(props: ComponentProps<typeof LazyRadarChart>) {
  return (
    <AfterFirstPaint fallback={box(props.w, props.h)}>
      <LazyRadarChart {...props} />
    </AfterFirstPaint>
  );
}

export function Sparkline(props: ComponentProps<typeof LazySparkline>) {
  return (
    <AfterFirstPaint fallback={box(props.w, props.h)}>
      <LazySparkline {...props} />
    </AfterFirstPaint>
  );
}
