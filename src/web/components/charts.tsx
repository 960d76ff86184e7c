import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import type * as Charts from '@mantine/charts';

/**
 * Mantine's charts (recharts underneath, ~170 kB of gzipped script) loaded once the first screen has painted, not
 * before it (issue 14): the first render draws each chart's box at its size, so nothing moves when they arrive.
 *
 * Then the charts are drawn one per task, in the order they asked, and only once their box comes near the screen:
 * recharts measures its tick labels in the page, and the dashboard's six charts drawn in one render were a single
 * ~500 ms task on a phone, blocking every tap, though most of them were far below the fold.
 */
type ChartsModule = typeof Charts;
let chartsModule: ChartsModule | null = null;
let loading: Promise<ChartsModule> | null = null;
const loadCharts = () => (loading ??= import('@mantine/charts').then((m) => (chartsModule = m)));

/** Charts waiting for their turn, and whether one is being drawn now. */
const waiting: Array<(turn: number) => void> = [];
let drawing = false;
/** Counts the turns given, so that a chart finishing after its time is up does not cut the next one short. */
let currentTurn = 0;
/** A chart that never reports its first commit (unmounted in between) does not hold up the others for long. */
const TURN_LIMIT_MS = 250;
let turnTimer: number | undefined;

/** Called once nothing waits and nothing is being drawn (drawAllCharts). */
const settled: Array<() => void> = [];
/** Charts not yet near the screen: calling one asks for its turn now. */
const offscreen = new Set<() => void>();

function nextTurn() {
  window.clearTimeout(turnTimer);
  drawing = false;
  if (waiting.length === 0) {
    for (const resolve of settled.splice(0)) resolve();
    return;
  }
  drawing = true;
  // A task of its own: the previous chart's render has committed and the browser may paint and handle input.
  window.setTimeout(() => {
    void loadCharts().then(() => {
      const grant = waiting.shift();
      // The charts that were waiting have gone in the meantime.
      if (!grant) return nextTurn();
      currentTurn += 1;
      turnTimer = window.setTimeout(nextTurn, TURN_LIMIT_MS);
      grant(currentTurn);
    });
  });
}

function requestTurn(grant: (turn: number) => void): () => void {
  waiting.push(grant);
  if (!drawing) nextTurn();
  return () => {
    const index = waiting.indexOf(grant);
    if (index >= 0) waiting.splice(index, 1);
  };
}

/**
 * Draws every chart on the page, near the screen or not, and resolves when they are all drawn: the dashboard's
 * screenshot captures the charts below the fold too.
 */
export function drawAllCharts(): Promise<void> {
  for (const draw of [...offscreen]) draw();
  if (!drawing && waiting.length === 0) return Promise.resolve();
  return new Promise((resolve) => settled.push(resolve));
}

/** Mounted with a chart: its first commit hands the turn to the next chart. */
function TurnDone({ turn }: { turn: number }) {
  useEffect(() => {
    if (turn === currentTurn && drawing) nextTurn();
  }, [turn]);
  return null;
}

/** How close to the screen a chart's box comes before it is drawn: a scroll or two ahead. */
const NEAR_SCREEN = '600px 0px';

function Deferred({ fallback, draw }: { fallback: ReactNode; draw: (charts: ChartsModule) => ReactNode }) {
  const [turn, setTurn] = useState<number | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelTurn: (() => void) | undefined;
    const ask = () => {
      stop();
      cancelTurn ??= requestTurn(setTurn);
    };
    const observer = typeof IntersectionObserver === 'undefined' ? null : new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && ask(), { rootMargin: NEAR_SCREEN });
    function stop() {
      observer?.disconnect();
      offscreen.delete(ask);
    }
    if (observer && boxRef.current) {
      offscreen.add(ask);
      observer.observe(boxRef.current);
    } else {
      ask();
    }
    return () => {
      stop();
      cancelTurn?.();
    };
  }, []);
  if (turn === null || !chartsModule) return <div ref={boxRef}>{fallback}</div>;
  return (
    <>
      {draw(chartsModule)}
      <TurnDone turn={turn} />
    </>
  );
}

type Size = number | string | undefined;
const box = (width: unknown, height: unknown) => (
  <div style={{ width: (width as Size) ?? '100%', height: height as Size }} aria-hidden="true" />
);

export function AreaChart(props: ComponentProps<ChartsModule['AreaChart']>) {
  return <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.AreaChart {...props} />} />;
}

export function LineChart(props: ComponentProps<ChartsModule['LineChart']>) {
  return <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.LineChart {...props} />} />;
}

export function BarChart(props: ComponentProps<ChartsModule['BarChart']>) {
  return <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.BarChart {...props} />} />;
}

export function DonutChart(props: ComponentProps<ChartsModule['DonutChart']>) {
  return <Deferred fallback={box(props.size ?? 160, props.size ?? 160)} draw={(m) => <m.DonutChart {...props} />} />;
}

export function RadarChart(props: ComponentProps<ChartsModule['RadarChart']>) {
  return <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.RadarChart {...props} />} />;
}

export function Sparkline(props: ComponentProps<ChartsModule['Sparkline']>) {
  return <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.Sparkline {...props} />} />;
}
