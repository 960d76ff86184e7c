import { LineChart } from '@mantine/charts';
import { Alert, Button, Group, Loader, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconPlus, IconX } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SavedView } from '../../../contract/saved-views';
import type { CompareSet } from '../../../contract/report-compare';
import { BREAKDOWN_LABELS, BREAKDOWN_MISSING, BREAKDOWNS, type BreakdownBy } from '../../../domain/reports/breakdown';
import { alignBreakdowns, type SideBySideRow } from '../../../domain/reports/compare-breakdowns';
import { COMPARE_SET_KEYS, MAX_COMPARE_SETS } from '../../../domain/reports/compare-sets';
import { addDays, addMonths, formatCalendarDay, parseCalendarDay } from '../../../domain/dates';
import {
  compareOverviews,
  compareROverviews,
  formatDifference,
  formatFigure,
  listOverviewFigures,
  type FigureComparison,
  type RComparison,
} from '../../../domain/reports/figures';
import { REPORT_FILTER_KEYS, writeReportFilterParams, type ReportFilter } from '../../../domain/reports/filter';
import { describeLeftOutOfR, describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { TONE_COLOR } from '../../lib/tone';
import { savedViewsQuery } from '../../shared/api';
import { useReportsSource } from './reports-source';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { compareSetQuery } from './api';
import { compareParams, COMPARE_SET_LETTERS, COMPARE_SET_PREFIXES, readCompareBy, readCompareSetCount, type CompareAction } from './compare-state';
import { centsForCsv, csvFileName } from './csv';
import { FilterBar } from './filter-bar';
import { formatDollarsAxis, formatDollarsTooltip, NoTrades, ReportCard, ReportLoading, toDollars } from './report-card';
import { formatRAxis, rText } from './r-figures';
import { ReportTable, type ReportColumn } from './report-table';
import { useReportFilter } from './use-report-filter';

export const COMPARE_PREFIX = 'b.';

const value = (kind: FigureComparison['kind'], v: number | null, infinite?: boolean) => formatFigure(kind, v, infinite);
const csvValue = (kind: FigureComparison['kind'], v: number | null, infinite?: boolean) => (infinite ? '∞' : kind === 'money' ? centsForCsv(v) : v);

const columns: Array<ReportColumn<FigureComparison>> = [
  { id: 'figure', header: 'Figure', value: (r) => r.label },
  {
    id: 'a',
    header: 'A',
    value: (r) => r.a,
    render: (r) => value(r.kind, r.a, r.aInfinite),
    csv: (r) => csvValue(r.kind, r.a, r.aInfinite),
    numeric: true,
  },
  {
    id: 'b',
    header: 'B',
    value: (r) => r.b,
    render: (r) => value(r.kind, r.b, r.bInfinite),
    csv: (r) => csvValue(r.kind, r.b, r.bInfinite),
    numeric: true,
  },
  {
    id: 'difference',
    header: 'B − A',
    value: (r) => r.difference,
    render: (r) => (
      <Text
        span
        size="sm"
        fw={r.favours ? 600 : 400}
        c={r.favours === 'b' ? TONE_COLOR.positive : r.favours === 'a' ? TONE_COLOR.negative : undefined}
      >
        {formatDifference(r.kind, r.difference)}
      </Text>
    ),
    csv: (r) => (r.kind === 'money' ? centsForCsv(r.difference) : r.difference),
    numeric: true,
  },
];

/** A figure of Compare in R as the Overview in R writes it: '+1.25R', a profit factor '1.50' or '∞', a count. */
const rValue = (kind: RComparison['kind'], v: number | null, infinite?: boolean) =>
  infinite ? '∞' : v === null ? '—' : kind === 'r' ? formatR(v) : kind === 'ratio' ? v.toFixed(2) : v.toLocaleString('en-US');
const rDifference = (kind: RComparison['kind'], v: number | null) => {
  if (v === null) return '—';
  if (kind === 'r') return formatR(v);
  const sign = v > 0 ? '+' : v < 0 ? '-' : '';
  return `${sign}${kind === 'ratio' ? Math.abs(v).toFixed(2) : Math.abs(v)}`;
};

const rColumns: Array<ReportColumn<RComparison>> = [
  { id: 'figure', header: 'Figure', value: (r) => r.label },
  { id: 'a', header: 'A', value: (r) => r.a, render: (r) => rValue(r.kind, r.a, r.aInfinite), csv: (r) => (r.aInfinite ? '∞' : r.a), numeric: true },
  { id: 'b', header: 'B', value: (r) => r.b, render: (r) => rValue(r.kind, r.b, r.bInfinite), csv: (r) => (r.bInfinite ? '∞' : r.b), numeric: true },
  {
    id: 'difference',
    header: 'B − A',
    value: (r) => r.difference,
    render: (r) => (
      <Text
        span
        size="sm"
        fw={r.favours ? 600 : 400}
        c={r.favours === 'b' ? TONE_COLOR.positive : r.favours === 'a' ? TONE_COLOR.negative : undefined}
      >
        {rDifference(r.kind, r.difference)}
      </Text>
    ),
    csv: (r) => r.difference,
    numeric: true,
  },
];

/** Each set's colour on the chart, A to D. */
const SET_COLORS = ['indigo.6', 'orange.6', 'teal.6', 'grape.6'] as const;

/** A figure of one set among three or four: the Overview's figure of each set, one column per set. */
interface SetFigure {
  key: string;
  label: string;
  kind: FigureComparison['kind'];
  values: Array<{ value: number | null; infinite?: boolean }>;
}
interface SetRFigure {
  key: string;
  label: string;
  kind: RComparison['kind'];
  values: Array<{ value: number | null; infinite?: boolean }>;
}

/**
 * Compare: the page's filter (A) against up to three more (B, C, D, kept in the URL as b.*, c.*, d.*). Two sets show
 * every Overview figure side by side with B − A, coloured by which side it favours; three or four show one column per
 * set. Every set's figures and equity curve come from the server, each set asked for on its own (a change to one set's
 * filter reads that set alone, the others staying on screen), the curves drawn over each other. Presets set A and B at
 * once. On the $ / R switch, every figure the Overview shows in R, each set of its trades with a planned risk.
 */
export function CompareReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const [b, setB] = useReportFilter(COMPARE_PREFIX);
  const [c, setC] = useReportFilter(COMPARE_SET_PREFIXES[2]);
  const [d, setD] = useReportFilter(COMPARE_SET_PREFIXES[3]);
  const [params, setParams] = useSearchParams();
  const count = readCompareSetCount(params);
  const by = readCompareBy(params);
  const filters = [filter, b, c, d].slice(0, count);
  const setters = [null, setB, setC, setD] as const;
  const { base, readOnly } = useReportsSource();
  const states = useCompareSets(filters, by, base);
  // Saved views are the signed-in user's own: a mentor's page neither lists nor loads them.
  const { data: views } = useQuery({ ...savedViewsQuery, enabled: !readOnly });
  const [unit] = useFigureUnit();
  const inR = unit === 'r';

  // A set is named by its letter, and by a saved view whose filter it is (loaded from the view or set by hand).
  const viewOf = filters.map((f) => {
    const text = writeReportFilterParams(f).toString();
    return text ? views?.find((v) => v.filter === text) : undefined;
  });
  const names = viewOf.map((view, i) => (view ? `${COMPARE_SET_LETTERS[i]}: ${view.name}` : COMPARE_SET_LETTERS[i]!));
  const act = (action: CompareAction) => setParams((current) => compareParams(current, action));
  const setBoth = (left: ReportFilter, right: ReportFilter) =>
    setParams((current) => {
      const next = new URLSearchParams();
      for (const [key, v] of compareParams(current, { type: 'reset' }))
        if (!key.startsWith(COMPARE_PREFIX) && !FILTER_KEYS.has(key)) next.append(key, v);
      for (const [key, v] of writeReportFilterParams(left)) next.append(key, v);
      for (const [key, v] of writeReportFilterParams(right)) next.append(`${COMPARE_PREFIX}${key}`, v);
      return next;
    });

  const { month, lastMonth } = monthsOf(today);
  const presets: Array<{ id: string; label: string; a: ReportFilter; b: ReportFilter }> = [
    {
      id: 'mornings',
      label: 'Mornings vs afternoons',
      a: { ...filter, hour: [6, 7, 8, 9, 10, 11] },
      b: { ...filter, hour: [12, 13, 14, 15, 16, 17] },
    },
    { id: 'months', label: 'Last month vs this month', a: { ...filter, range: 'custom', ...lastMonth }, b: { ...filter, range: 'custom', ...month } },
    { id: 'sides', label: 'Longs vs shorts', a: { ...filter, side: ['Long'] }, b: { ...filter, side: ['Short'] } },
  ];

  // The sets whose figures are on screen (a set's last ones while its new filter's load), by their place A to D.
  const present = states.shown;
  const sets = present.sets;
  const complete = sets.length === count;
  const shownNames = present.slots.map((i) => names[i]!);
  const rows = complete && count === 2 ? compareOverviews(sets[0]!.overview, sets[1]!.overview) : null;
  const rRows = complete && count === 2 ? compareROverviews(sets[0]!.r, sets[1]!.r) : null;
  const side = (data: CompareSet) =>
    `${data.basis.trades} trades${inR && data.r.tradesWithoutRisk > 0 ? `; ${describeWithoutRisk(data.r.tradesWithoutRisk)}, left out of R` : ''}`;
  const letters = COMPARE_SET_LETTERS.slice(0, count);
  const shownLetters = present.slots.map((i) => COMPARE_SET_LETTERS[i]!);
  // One column per set on screen: the loaded ones while others load, every set once all are in.
  const setsTable = () =>
    inR ? (
      <ReportTable
        key="r-sets"
        caption={`Every overview figure in R of ${shownLetters.join(', ')} (each set of its trades with a planned risk)`}
        rows={setRFigures(sets)}
        columns={setRColumns(shownNames, present.slots)}
        csvName={csvFileName('compare-in-r', today)}
        testId="compare-table"
      />
    ) : (
      <ReportTable
        key="usd-sets"
        caption={`Every overview figure of ${shownLetters.join(', ')}, one column per set`}
        rows={setFigures(sets)}
        columns={setColumns(shownNames, present.slots)}
        csvName={csvFileName('compare', today)}
        testId="compare-table"
      />
    );
  const failed = states.sets.some((state) => state.error !== null);
  return (
    <Stack gap="md">
      {filters.slice(1).map((f, k) => {
        const i = k + 1;
        const letter = COMPARE_SET_LETTERS[i]!;
        return (
          <FilterBar
            key={letter}
            filter={f}
            onChange={setters[i]!}
            label={`Filter set ${letter}`}
            title={names[i]}
            testId={`compare-filters-${letter.toLowerCase()}`}
            actions={
              count > 2 ? (
                <Button
                  variant="default"
                  leftSection={<IconX size={16} aria-hidden="true" />}
                  onClick={() => act({ type: 'remove', index: i })}
                  data-testid={`compare-remove-${letter.toLowerCase()}`}
                >
                  Remove set {letter}
                </Button>
              ) : undefined
            }
          />
        );
      })}
      {!readOnly && <SavedViewPickers views={views} chosen={viewOf} onLoad={(index, view) => act({ type: 'load', index, filter: view.filter })} />}
      <Group gap="xs" data-testid="compare-presets">
        {count < MAX_COMPARE_SETS && (
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden="true" />}
            onClick={() => act({ type: 'add' })}
            data-testid="compare-add-set"
          >
            Add set {COMPARE_SET_LETTERS[count]}
          </Button>
        )}
        <Text size="sm" c="dimmed">
          Compare:
        </Text>
        {presets.map((p) => (
          <Button key={p.id} variant="light" size="compact-sm" onClick={() => setBoth(p.a, p.b)} data-testid={`compare-preset-${p.id}`}>
            {p.label}
          </Button>
        ))}
      </Group>
      <ReportCard
        title={count === 2 ? 'A against B' : `${letters.join(', ')} side by side`}
        description={
          sets.length > 0 ? (
            <>
              {sets.map((data, k) => {
                const i = present.slots[k]!;
                return (
                  <span key={COMPARE_SET_LETTERS[i]} data-testid={`compare-set-${COMPARE_SET_KEYS[i]}`}>
                    {k > 0 && <br />}
                    {names[i]}: {data.basis.description} ({side(data)})
                    {states.sets[i]!.updating && (
                      <Loader
                        size={10}
                        ml={6}
                        role="status"
                        aria-label={`Updating ${names[i]}`}
                        data-testid={`compare-set-updating-${COMPARE_SET_KEYS[i]}`}
                      />
                    )}
                  </span>
                );
              })}
            </>
          ) : undefined
        }
        busy={states.sets.some((state) => state.updating)}
        testId="report-compare"
        actions={<FigureUnitSwitch />}
      >
        {!complete ? (
          sets.length === 0 && !failed ? (
            <ReportLoading height={400} />
          ) : (
            <Stack gap="sm">
              {states.sets.map((state, i) =>
                state.error !== null ? (
                  <Alert
                    key={COMPARE_SET_LETTERS[i]}
                    color="red"
                    icon={<IconAlertCircle size={18} aria-hidden="true" />}
                    title={`${names[i]} could not be loaded`}
                    data-testid={`compare-set-error-${COMPARE_SET_KEYS[i]}`}
                  >
                    {state.error instanceof Error ? state.error.message : 'Please try again.'}
                  </Alert>
                ) : !state.data ? (
                  <Group key={COMPARE_SET_LETTERS[i]} gap="xs" aria-busy="true" data-testid={`compare-set-loading-${COMPARE_SET_KEYS[i]}`}>
                    <Loader size="xs" aria-hidden="true" />
                    <Text size="sm" c="dimmed">
                      Loading {names[i]}…
                    </Text>
                  </Group>
                ) : null,
              )}
              {sets.length > 0 && setsTable()}
            </Stack>
          )
        ) : count > 2 ? (
          setsTable()
        ) : inR ? (
          <ReportTable
            key="r"
            caption="Every overview figure in R of A and B, with B minus A (each side of its trades with a planned risk)"
            rows={rRows!}
            columns={rColumns}
            csvName={csvFileName('compare-in-r', today)}
            testId="compare-table"
          />
        ) : (
          <ReportTable
            key="usd"
            caption="Every overview figure of A and B, with B minus A"
            rows={rows!}
            columns={columns}
            csvName={csvFileName('compare', today)}
            testId="compare-table"
          />
        )}
      </ReportCard>
      {sets.length > 0 && <CompareCurves sets={sets} slots={present.slots} names={shownNames} inR={inR} today={today} />}
      {sets.length > 0 && (
        <CompareBreakdowns
          sets={sets}
          slots={present.slots}
          names={shownNames}
          by={by}
          onBy={(next) => act({ type: 'breakdown', by: next })}
          inR={inR}
          today={today}
        />
      )}
    </Stack>
  );
}

/** One set on the page: its figures on screen, whether newer ones are on their way, or why it could not be loaded. */
interface SetState {
  data: CompareSet | undefined;
  /** The figures shown are the set's last ones; its new filter's are loading. */
  updating: boolean;
  error: Error | null;
}

/**
 * Each set's figures, asked for on its own so that a change to one set's filter reads that set alone (the others come
 * from the cache). While a set's new figures load, its last ones stay on screen; a set added, or one whose request
 * failed, has none until its own arrive. `shown` lists the sets with figures, by their place (0 for A): the same array
 * from one render to the next while no set's figures change, so the curves are not merged again for nothing.
 */
function useCompareSets(filters: readonly ReportFilter[], by: BreakdownBy | null, base: string) {
  // Sets of the same filter share one query (and one request).
  const texts = filters.map((filter) => writeReportFilterParams(filter).toString());
  const distinct = texts.filter((text, i) => texts.indexOf(text) === i);
  const answers = useQueries({ queries: distinct.map((text) => compareSetQuery(filters[texts.indexOf(text)]!, by, base)) });
  const results = texts.map((text) => answers[distinct.indexOf(text)]!);
  const [kept, setKept] = useState<{ data: ReadonlyArray<CompareSet | undefined>; slots: number[]; sets: CompareSet[] }>({
    data: [],
    slots: [],
    sets: [],
  });
  const data = results.map((result, i) => (result.isError ? undefined : (result.data ?? kept.data[i])));
  let shown = kept;
  if (data.length !== kept.data.length || data.some((d, i) => d !== kept.data[i])) {
    const slots = data.flatMap((d, i) => (d ? [i] : []));
    shown = { data, slots, sets: slots.map((i) => data[i]!) };
    // Remembered for the next render (React's way to keep what an earlier render showed).
    setKept(shown);
  }
  const sets: SetState[] = results.map((result, i) => ({
    data: data[i],
    updating: !result.isError && result.data === undefined && data[i] !== undefined,
    error: result.isError ? result.error : null,
  }));
  return { sets, shown };
}

/** Every Overview figure of three or four sets, in the Overview's order. */
function setFigures(sets: readonly CompareSet[]): SetFigure[] {
  const lists = sets.map((s) => listOverviewFigures(s.overview));
  return lists[0]!.map((figure, k) => ({
    key: figure.key,
    label: figure.label,
    kind: figure.kind,
    values: lists.map((list) => ({ value: list[k]!.value, ...(list[k]!.infinite && { infinite: true }) })),
  }));
}

function setRFigures(sets: readonly CompareSet[]): SetRFigure[] {
  // Each set against the first: its own figure is the comparison's right-hand side.
  const lists = sets.map((s) => compareROverviews(sets[0]!.r, s.r));
  return lists[0]!.map((figure, k) => ({
    key: figure.key,
    label: figure.label,
    kind: figure.kind,
    values: lists.map((list) => ({ value: list[k]!.b, ...(list[k]!.bInfinite && { infinite: true }) })),
  }));
}

function setColumns(names: readonly string[], slots: readonly number[]): Array<ReportColumn<SetFigure>> {
  return [
    { id: 'figure', header: 'Figure', value: (r) => r.label },
    ...names.map((name, i): ReportColumn<SetFigure> => ({
      id: COMPARE_SET_KEYS[slots[i]!]!,
      header: name,
      value: (r) => r.values[i]!.value,
      render: (r) => value(r.kind, r.values[i]!.value, r.values[i]!.infinite),
      csv: (r) => csvValue(r.kind, r.values[i]!.value, r.values[i]!.infinite),
      numeric: true,
    })),
  ];
}

function setRColumns(names: readonly string[], slots: readonly number[]): Array<ReportColumn<SetRFigure>> {
  return [
    { id: 'figure', header: 'Figure', value: (r) => r.label },
    ...names.map((name, i): ReportColumn<SetRFigure> => ({
      id: COMPARE_SET_KEYS[slots[i]!]!,
      header: name,
      value: (r) => r.values[i]!.value,
      render: (r) => rValue(r.kind, r.values[i]!.value, r.values[i]!.infinite),
      csv: (r) => (r.values[i]!.infinite ? '∞' : r.values[i]!.value),
      numeric: true,
    })),
  ];
}

/**
 * The sets' equity curves over each other, by trade number (the first trade of each set at 1), one colour each with
 * the set's name in the legend. The points are the server's (a long curve sampled there, keeping its peaks and lows),
 * each at its trade number on a number axis.
 * In R, each set's cumulative R of its trades with a planned risk, numbered among them; the others are left out of the
 * curve (never drawn as 0R) and counted under it. `slots` is each set's place (0 for A), which keeps its colour and key
 * while another set has no figures yet.
 */
function CompareCurves({
  sets,
  slots,
  names,
  inR,
  today,
}: {
  sets: readonly CompareSet[];
  slots: readonly number[];
  names: readonly string[];
  inR: boolean;
  today: string;
}) {
  const data = useMemo(() => {
    const byIndex = new Map<number, Record<string, number>>();
    sets.forEach((set, i) => {
      const points = inR
        ? set.equityR.byTrade.map((p) => ({ index: p.index, value: p.equityR }))
        : set.equity.byTrade.map((p) => ({ index: p.index, value: toDollars(p.equityCents) }));
      for (const point of points) {
        const row = byIndex.get(point.index) ?? { x: point.index };
        row[COMPARE_SET_KEYS[slots[i]!]!] = point.value;
        byIndex.set(point.index, row);
      }
    });
    return [...byIndex.values()].sort((p, q) => p.x! - q.x!);
  }, [sets, slots, inR]);
  const empty = sets.every((s) => s.equity.trades === 0);
  const noRisk = sets.every((s) => s.equityR.tradesWithRisk === 0);
  const leftOut = sets
    .map((s, i) => ({ name: names[i]!, without: s.equityR.tradesWithoutRisk, trades: s.equity.trades }))
    .filter((s) => s.without > 0);
  const rows = sets.map((s, i) => ({
    name: names[i]!,
    trades: inR ? s.equityR.tradesWithRisk : s.equity.trades,
    final: inR ? (s.equityR.byTrade.at(-1)?.equityR ?? null) : (s.equity.byTrade.at(-1)?.equityCents ?? 0),
  }));
  return (
    <ReportCard
      title="Equity curves"
      description={
        inR
          ? 'Cumulative R of each set by trade number, its trades with a planned risk numbered among themselves'
          : 'Cumulative net P&L of each set by trade number'
      }
      testId="compare-equity"
    >
      {empty ? (
        <NoTrades />
      ) : inR && noRisk ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="r-empty">
          No trade of these sets has a planned risk: set a stop or a dollar risk on them, or a default in the Trade Log&apos;s Risk defaults.
        </Text>
      ) : (
        <Stack gap="xs">
          <div aria-hidden="true">
            <LineChart
              key={inR ? 'r' : 'usd'}
              h={280}
              data={data}
              dataKey="x"
              series={slots.map((slot, i) => ({ name: COMPARE_SET_KEYS[slot]!, label: names[i], color: SET_COLORS[slot]! }))}
              curveType="linear"
              withDots={false}
              withLegend
              connectNulls
              valueFormatter={inR ? formatR : formatDollarsTooltip}
              yAxisProps={{ tickFormatter: inR ? formatRAxis : formatDollarsAxis, width: 64 }}
              // A number axis: a trade's point sits at its trade number, so a long set's sampled points (a few a
              // stretch of trades) and a short set's every trade share one true scale.
              xAxisProps={{ type: 'number', domain: ['dataMin', 'dataMax'], allowDecimals: false, minTickGap: 40 }}
              gridAxis="y"
              lineChartProps={{ accessibilityLayer: false }}
            />
          </div>
          {inR && leftOut.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="compare-r-left-out">
              Left out of the curves in R: {leftOut.map((s) => `${s.name}: ${describeLeftOutOfR(s.without, s.trades)}`).join('; ')}.
            </Text>
          )}
          <ReportTable
            key={inR ? 'r' : 'usd'}
            hidden
            caption={inR ? "Each set's final cumulative R and its trades with a planned risk" : "Each set's final cumulative net P&L and its trades"}
            rows={rows}
            columns={[
              { id: 'set', header: 'Set', value: (r) => r.name },
              { id: 'trades', header: inR ? 'Trades with a planned risk' : 'Trades', value: (r) => r.trades, numeric: true },
              {
                id: 'final',
                header: inR ? 'Cumulative R' : 'Cumulative net P&L',
                value: (r) => r.final,
                render: (r) => (inR ? rText(r.final) : formatFigure('money', r.final)),
                csv: (r) => (inR ? r.final : centsForCsv(r.final)),
                numeric: true,
              },
            ]}
            csvName={csvFileName(inR ? 'compare-equity-in-r' : 'compare-equity', today)}
            testId="compare-equity-table"
          />
        </Stack>
      )}
    </ReportCard>
  );
}

/**
 * Each set's "Load saved view" picker: choosing one of the trader's saved views makes its filter the set's filter (in
 * the URL). The picker shows the view whose filter the set has, if any.
 */
function SavedViewPickers({
  views,
  chosen,
  onLoad,
}: {
  views: readonly SavedView[] | undefined;
  chosen: ReadonlyArray<SavedView | undefined>;
  onLoad: (index: number, view: SavedView) => void;
}) {
  const data = (views ?? []).map((v) => ({ value: v.id, label: v.name }));
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: chosen.length }} spacing="xs" data-testid="compare-saved-views">
      {chosen.map((view, i) => {
        const letter = COMPARE_SET_LETTERS[i]!;
        return (
          <Select
            key={letter}
            size="xs"
            label={`Load saved view into ${letter}`}
            placeholder={data.length ? 'Choose a saved view' : 'No saved views yet'}
            disabled={!data.length}
            data={data}
            value={view?.id ?? null}
            searchable
            allowDeselect={false}
            onChange={(id) => {
              const picked = views?.find((v) => v.id === id);
              if (picked) onLoad(i, picked);
            }}
            comboboxProps={{ withinPortal: true }}
            data-testid={`compare-load-view-${letter.toLowerCase()}`}
          />
        );
      })}
    </SimpleGrid>
  );
}

/**
 * The sets' breakdowns by one dimension side by side: a row per group any set traded in, and per set its net P&L (its
 * total R on the R switch), trades and win rate. Each set's cells are that set's own breakdown rows from the server.
 */
function CompareBreakdowns({
  sets,
  slots,
  names,
  by,
  onBy,
  inR,
  today,
}: {
  sets: readonly CompareSet[];
  slots: readonly number[];
  names: readonly string[];
  by: BreakdownBy | null;
  onBy: (by: BreakdownBy | null) => void;
  inR: boolean;
  today: string;
}) {
  const ready = by !== null && sets.every((s) => s.breakdown?.by === by);
  const rows = useMemo(
    () =>
      ready
        ? alignBreakdowns(
            by,
            sets.map((s) => s.breakdown!),
          )
        : [],
    [ready, by, sets],
  );
  const columns: Array<ReportColumn<SideBySideRow>> = [
    { id: 'group', header: by ? BREAKDOWN_LABELS[by] : 'Group', value: (r) => r.label },
    ...names.flatMap((name, i): Array<ReportColumn<SideBySideRow>> => [
      inR
        ? {
            id: `${COMPARE_SET_KEYS[slots[i]!]}-r`,
            header: `${name} total R`,
            value: (r) => r.sets[i]?.r.totalR ?? null,
            render: (r) => rText(r.sets[i]?.r.totalR ?? null),
            numeric: true,
          }
        : {
            id: `${COMPARE_SET_KEYS[slots[i]!]}-net`,
            header: `${name} net P&L`,
            value: (r) => r.sets[i]?.netCents ?? null,
            render: (r) => formatFigure('money', r.sets[i]?.netCents ?? null),
            csv: (r) => centsForCsv(r.sets[i]?.netCents ?? null),
            numeric: true,
          },
      { id: `${COMPARE_SET_KEYS[slots[i]!]}-trades`, header: `${name} trades`, value: (r) => r.sets[i]?.trades ?? 0, numeric: true },
      {
        id: `${COMPARE_SET_KEYS[slots[i]!]}-win-rate`,
        header: `${name} win rate`,
        value: (r) => r.sets[i]?.winRate ?? null,
        render: (r) => formatFigure('percent', r.sets[i]?.winRate ?? null),
        numeric: true,
      },
    ]),
  ];
  const missing = by ? BREAKDOWN_MISSING[by] : null;
  const notes = ready
    ? sets.flatMap((s, i) => {
        const parts: string[] = [];
        if (missing && s.breakdown!.excluded > 0) parts.push(`${s.breakdown!.excluded.toLocaleString('en-US')} trades ${missing} left out`);
        if (inR && s.breakdown!.tradesWithoutRisk > 0)
          parts.push(`${describeLeftOutOfR(s.breakdown!.tradesWithoutRisk, s.breakdown!.total)}, left out of R`);
        return parts.length ? [`${names[i]}: ${parts.join('; ')}`] : [];
      })
    : [];
  return (
    <ReportCard
      title="Breakdowns side by side"
      description={by ? `Each set's trades by ${BREAKDOWN_LABELS[by].toLowerCase()}` : undefined}
      testId="compare-breakdowns"
      actions={
        <Select
          size="xs"
          w={180}
          aria-label="Breakdown by"
          placeholder="Pick a dimension"
          data={BREAKDOWNS.map((b) => ({ value: b, label: BREAKDOWN_LABELS[b] }))}
          value={by}
          onChange={(value) => onBy(BREAKDOWNS.find((b) => b === value) ?? null)}
          clearable
          data-testid="compare-breakdown-by"
        />
      }
    >
      {by === null ? (
        <Text c="dimmed" size="sm">
          Pick a dimension to see each set&apos;s groups side by side.
        </Text>
      ) : !ready ? (
        <ReportLoading height={200} />
      ) : rows.length === 0 ? (
        <NoTrades />
      ) : (
        <ReportTable
          key={`${by}-${inR ? 'r' : 'usd'}`}
          caption={`${inR ? 'Total R' : 'Net P&L'}, trades and win rate of each set by ${BREAKDOWN_LABELS[by].toLowerCase()}`}
          rows={rows}
          columns={columns}
          csvName={csvFileName(`compare-by-${by}${inR ? '-in-r' : ''}`, today)}
          testId="compare-breakdown-table"
          footer={
            notes.length > 0 ? (
              <Text size="xs" c="dimmed" data-testid="compare-breakdown-notes">
                {notes.join('. ')}.
              </Text>
            ) : undefined
          }
        />
      )}
    </ReportCard>
  );
}

const FILTER_KEYS: ReadonlySet<string> = new Set(REPORT_FILTER_KEYS);

/** This month so far and the whole month before it. */
function monthsOf(today: string) {
  const { year, month } = parseCalendarDay(today)!;
  const first = formatCalendarDay(year, month, 1);
  const lastFirst = addMonths(first, -1);
  return { month: { from: first, to: today }, lastMonth: { from: lastFirst, to: addDays(first, -1) } };
}
