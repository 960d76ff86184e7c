import { lazy, Suspense, type ComponentProps } from 'react';

/**
 * Mantine's charts (recharts underneath, ~270 kB of script) loaded when a chart first renders, not before the first
 * screen (issue 14). Until then each chart keeps its size, so nothing moves when it arrives.
 */
const charts = () => import('@mantine/charts');
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
    <Suspense fallback={box(props.w, props.h)}>
      <LazyAreaChart {...props} />
    </Suspense>
  );
}

export function BarChart(props: ComponentProps<typeof LazyBarChart>) {
  return (
    <Suspense fallback={box(props.w, props.h)}>
      <LazyBarChart {...props} />
    </Suspense>
  );
}

export function DonutChart(props: ComponentProps<typeof LazyDonutChart>) {
  return (
    <Suspense fallback={box(props.size ?? 160, props.size ?? 160)}>
      <LazyDonutChart {...props} />
    </Suspense>
  );
}

export function RadarChart(props: ComponentProps<typeof LazyRadarChart>) {
  return (
    <Suspense fallback={box(props.w, props.h)}>
      <LazyRadarChart {...props} />
    </Suspense>
  );
}

export function Sparkline(props: ComponentProps<typeof LazySparkline>) {
  return (
    <Suspense fallback={box(props.w, props.h)}>
      <LazySparkline {...props} />
    </Suspense>
  );
}
