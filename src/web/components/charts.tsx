import { VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import type * as Charts from '@mantine/charts';
import { useAfterFirstPaint } from '../lib/use-after-first-paint';

/**
 * Mantine's charts (recharts underneath, ~170 kB of gzipped script) loaded once the first screen has painted, not
 * before it: the first render draws each chart's box at its size, so nothing moves when they arrive.
 *
 * Then the charts are drawn one per task, in the order they asked, and only once their box comes near the screen:
 * recharts measures its tick labels in the page, and the dashboard's six charts drawn in one render were a single
 * ~500 ms task on a phone, blocking every tap, though most of them were far below the fold.
 */
type ChartsModule = typeof Charts;
let chartsModule: ChartsModule | null = null;
let loading: Promise<ChartsModule> | null = null;
const loadCharts = () => (loading ??= import('./charts-module').then((m) => (chartsModule = m)));

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
/** The first screen has shown its figures and the browser has been idle since (useAfterFirstPaint), once. */
let firstScreenDone = false;

function Deferred({ fallback, draw }: { fallback: ReactNode; draw: (charts: ChartsModule) => ReactNode }) {
  const [turn, setTurn] = useState<number | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // Not before the first screen has its figures: on a wide screen the header's sparklines are in sight at
  // once, and their ~170 kB of script came before the PnL calendar's figures.
  // Once that has happened, a chart mounted later (another page) asks at once.
  const idleOnce = useAfterFirstPaint();
  if (idleOnce) firstScreenDone = true;
  const afterFirstPaint = idleOnce || firstScreenDone;
  useEffect(() => {
    if (!afterFirstPaint) return;
    let cancelTurn: (() => void) | undefined;
    const ask = () => {
      stop();
      cancelTurn ??= requestTurn(setTurn);
    };
    const observer =
      typeof IntersectionObserver === 'undefined'
        ? null
        : new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && ask(), { rootMargin: NEAR_SCREEN });
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
  }, [afterFirstPaint]);
  if (turn === null || !chartsModule) return <div ref={boxRef}>{fallback}</div>;
  return (
    <>
      {draw(chartsModule)}
      <TurnDone turn={turn} />
    </>
  );
}

type Size = number | string | undefined;
const box = (width: unknown, height: unknown) => <div style={{ width: (width as Size) ?? '100%', height: height as Size }} />;

/**
 * A chart's figures as a table, for screen readers (a chart read as its raw axis text, '0%, 25%, Jun,
 * Jul'). The first column heads the rows: `rows` are [row label, ...one cell per further column].
 */
export interface ChartTable {
  caption: string;
  columns: readonly string[];
  rows: ReadonlyArray<readonly string[]>;
}

/**
 * Every chart: the drawing, hidden from assistive technology and out of the tab order, and its table, out of sight.
 * The table is there at once, before the chart's code has arrived. `inert` only where nothing is pointed at (it
 * would stop a chart's tooltips).
 */
function Charted({ table, inert, children }: { table: ChartTable; inert?: boolean; children: ReactNode }) {
  const [head = '', ...rest] = table.columns;
  return (
    <>
      <div aria-hidden="true" inert={inert}>
        {children}
      </div>
      {/* Nothing to see in a picture of the page (the dashboard's shared screenshot leaves it out). */}
      <VisuallyHidden data-screenshot-ignore>
        <table data-testid="chart-table">
          <caption>{table.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{head}</th>
              {rest.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map(([label = '', ...cells], index) => (
              <tr key={`${label}-${index}`}>
                <th scope="row">{label}</th>
                {cells.map((cell, i) => (
                  <td key={i}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </>
  );
}

type WithTable<P> = Omit<P, 'accessibilityLayer'> & { table: ChartTable };

// recharts' own keyboard layer would put a focusable drawing inside the hidden part: the table replaces it.
export function AreaChart({ table, ...props }: WithTable<ComponentProps<ChartsModule['AreaChart']>>) {
  return (
    <Charted table={table}>
      <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.AreaChart {...props} accessibilityLayer={false} />} />
    </Charted>
  );
}

export function LineChart({ table, ...props }: WithTable<ComponentProps<ChartsModule['LineChart']>>) {
  return (
    <Charted table={table}>
      <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.LineChart {...props} accessibilityLayer={false} />} />
    </Charted>
  );
}

export function BarChart({ table, ...props }: WithTable<ComponentProps<ChartsModule['BarChart']>>) {
  return (
    <Charted table={table}>
      <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.BarChart {...props} accessibilityLayer={false} />} />
    </Charted>
  );
}

/** recharts puts the pie itself in the tab order whatever the keyboard layer says: inside the hidden drawing it must not be. */
export function DonutChart({ table, ...props }: WithTable<ComponentProps<ChartsModule['DonutChart']>>) {
  return (
    <Charted table={table}>
      <Deferred
        fallback={box(props.size ?? 160, props.size ?? 160)}
        draw={(m) => <m.DonutChart {...props} accessibilityLayer={false} pieProps={{ ...props.pieProps, rootTabIndex: -1 }} />}
      />
    </Charted>
  );
}

export function RadarChart({ table, ...props }: WithTable<ComponentProps<ChartsModule['RadarChart']>>) {
  return (
    <Charted table={table}>
      <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.RadarChart {...props} accessibilityLayer={false} />} />
    </Charted>
  );
}

/** A sparkline has no tooltip; Mantine gives it no switch for recharts' keyboard layer, so it is made inert. */
export function Sparkline({ table, ...props }: WithTable<ComponentProps<ChartsModule['Sparkline']>>) {
  return (
    <Charted table={table} inert>
      <Deferred fallback={box(props.w, props.h)} draw={(m) => <m.Sparkline {...props} />} />
    </Charted>
  );
}
