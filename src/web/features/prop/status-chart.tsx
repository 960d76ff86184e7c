import { Anchor, Group, ScrollArea, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo } from 'react';
import { LineChart } from '../../components/charts';
import { formatAxisUsd } from '../../../domain/cents';
import { formatShortDay } from '../../../domain/dates';
import { niceScale } from '../../../domain/prop/chart-scale';
import { RULE_LABELS, TIMELINE_LIMIT, type Breach, type DayPoint, type PropRuleSet, type PropStatus } from '../../../domain/prop/types';
import { pnlColor, TONE_COLOR } from '../../lib/tone';
import { formatLongDay, formatMoney, formatSignedMoney } from './format';
import classes from './prop.module.css';

/** The chart marks at most this many soft breaches (the hard one always): more would hide the line. */
const MARKED_SOFT = 5;

interface Column {
  key: string;
  label: string;
  cell: (day: DayPoint) => { text: string; color?: string };
}

/** The day table's columns: each limit the rules set adds how close each day came to it. */
function columnsFor(rules: PropRuleSet, currency: string): Column[] {
  const money = (cents: number | null) => ({ text: cents === null ? '' : formatMoney(cents, currency) });
  return [
    { key: 'trades', label: 'Trades', cell: (d) => ({ text: String(d.trades) }) },
    { key: 'net', label: 'Net', cell: (d) => ({ text: formatSignedMoney(d.netCents, currency), color: pnlColor(d.netCents) }) },
    { key: 'low', label: 'Worst point', cell: (d) => ({ text: formatSignedMoney(d.lowNetCents, currency), color: pnlColor(d.lowNetCents) }) },
    ...(rules.dailyLoss
      ? [
          {
            key: 'daily-room',
            label: 'Daily limit room at worst',
            cell: (d: DayPoint) => ({
              text: formatMoney(d.dailyLossRoomCents ?? 0, currency),
              color: (d.dailyLossRoomCents ?? 1) <= 0 ? TONE_COLOR.negative : undefined,
            }),
          },
        ]
      : []),
    { key: 'balance', label: 'Balance', cell: (d) => money(d.balanceCents) },
    { key: 'low-balance', label: 'Lowest balance', cell: (d) => money(d.lowBalanceCents) },
    ...(rules.maxLoss
      ? [
          { key: 'threshold', label: 'Threshold', cell: (d: DayPoint) => money(d.thresholdCents) },
          {
            key: 'max-room',
            label: 'Least room above it',
            cell: (d: DayPoint) => ({
              text: formatMoney(d.maxLossRoomCents ?? 0, currency),
              color: (d.maxLossRoomCents ?? 1) <= 0 ? TONE_COLOR.negative : undefined,
            }),
          },
        ]
      : []),
    ...(rules.maxPosition
      ? [{ key: 'peak', label: 'Largest position', cell: (d: DayPoint) => ({ text: d.peakContracts === null ? '' : String(d.peakContracts) }) }]
      : []),
  ];
}

function BreachBadges({ breaches }: { breaches: readonly Breach[] }) {
  const rules = [...new Map(breaches.map((b) => [`${b.rule}|${b.fatal}`, b])).values()];
  return (
    <>
      {rules.map((b) => (
        <Text
          key={`${b.rule}|${b.fatal}`}
          span
          size="xs"
          fw={700}
          c={b.fatal ? TONE_COLOR.negative : TONE_COLOR.warning}
          data-testid="prop-day-breach"
          data-fatal={b.fatal}
        >
          {b.fatal ? 'Broken' : 'Soft breach'}: {RULE_LABELS[b.rule]}
        </Text>
      ))}
    </>
  );
}

/**
 * The account's timeline: the balance after each realized trade, the maximum loss threshold under it and the target
 * above it, the breach marked where it happened, on an axis of round values. A point opens its day's trades; the
 * table under it holds each trading day with how close it came to each limit (for keyboards and screen readers too).
 * On a phone each row stacks its columns, every one of them labelled.
 */
export function StatusChart(props: {
  status: PropStatus;
  rules: PropRuleSet;
  /** The account's currency, which the chart's and the table's amounts are written in. */
  currency?: string;
  onOpenDay: (day: string, tradeId: string | null) => void;
}) {
  const { status, rules, currency = 'USD', onOpenDay } = props;
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  // Beyond TIMELINE_LIMIT trades the server leaves the per-trade timeline out: each day's close then.
  const byTrade = status.timeline.length > 0;
  const target = rules.profitTargetCents === null ? null : status.startingBalanceCents + rules.profitTargetCents;
  const hasThreshold = rules.maxLoss !== null;

  const data = useMemo(() => {
    const start = {
      label: 'Start',
      day: null as string | null,
      tradeId: null as string | null,
      Balance: status.startingBalanceCents / 100,
      ...(hasThreshold && { Threshold: (status.timeline[0]?.thresholdCents ?? status.days[0]?.thresholdCents ?? 0) / 100 }),
    };
    const points = byTrade
      ? status.timeline.map((p, i) => ({
          label: `${formatShortDay(p.day)} #${i + 1}`,
          day: p.day,
          tradeId: p.tradeId,
          Balance: p.balanceCents / 100,
          ...(hasThreshold && p.thresholdCents !== null && { Threshold: p.thresholdCents / 100 }),
        }))
      : status.days.map((d) => ({
          label: formatShortDay(d.day),
          day: d.day,
          tradeId: null,
          Balance: d.balanceCents / 100,
          ...(hasThreshold && d.thresholdCents !== null && { Threshold: d.thresholdCents / 100 }),
        }));
    return [start, ...points];
  }, [status, byTrade, hasThreshold]);

  // Where each breach happened on the chart: its trade's point, or its day's close.
  const marks = useMemo(() => {
    const pointOf = (b: Breach) => {
      const index = data.findIndex((d) => (byTrade ? d.tradeId === b.tradeId : d.day === b.day));
      return index < 0 ? null : { index, point: data[index]! };
    };
    const soft = status.breaches.filter((b) => !b.fatal).slice(0, MARKED_SOFT);
    const chosen = [...(status.brokenBy ? [status.brokenBy] : []), ...soft];
    const seen = new Set<string>();
    const lines: Array<{ x: string; label: string; color: string; strokeDasharray: string; labelPosition: 'insideTopLeft' | 'insideTopRight' }> = [];
    const dots: Array<{ x: string; y: number; r: number; color: string; label?: string }> = [];
    for (const b of chosen) {
      const found = pointOf(b);
      if (found === null || seen.has(found.point.label)) continue;
      seen.add(found.point.label);
      const color = b.fatal ? 'red.7' : 'orange.6';
      // The label reads away from the chart's edge.
      const labelPosition = found.index > data.length / 2 ? 'insideTopRight' : 'insideTopLeft';
      lines.push({
        x: found.point.label,
        label: b.fatal ? `Broken: ${RULE_LABELS[b.rule]}` : 'Soft breach',
        color,
        strokeDasharray: '4 3',
        labelPosition,
      });
      // The balance where it broke (in a day's close mode, that day's close).
      dots.push({ x: found.point.label, y: found.point.Balance, r: 5, color });
    }
    return { lines, dots };
  }, [data, status, byTrade]);

  const series = [
    { name: 'Balance', color: 'blue.6' },
    ...(hasThreshold ? [{ name: 'Threshold', label: 'Maximum loss threshold', color: 'red.6' }] : []),
  ];
  const values = data.flatMap((d) => [d.Balance, ...('Threshold' in d && d.Threshold !== undefined ? [d.Threshold] : [])]);
  if (target !== null) values.push(target / 100);
  const scale = niceScale(values);
  const columns = columnsFor(rules, currency);
  const breachesByDay = new Map<string, Breach[]>();
  for (const breach of status.breaches) breachesByDay.set(breach.day, [...(breachesByDay.get(breach.day) ?? []), breach]);

  const table = {
    caption: byTrade
      ? 'Balance and maximum loss threshold after each closed trade'
      : "Balance and maximum loss threshold at each trading day's close",
    columns: ['Point', 'Balance', ...(hasThreshold ? ['Maximum loss threshold'] : [])],
    rows: data.map((d) => [
      d.label,
      formatMoney(Math.round(d.Balance * 100), currency),
      ...(hasThreshold ? ['Threshold' in d && d.Threshold !== undefined ? formatMoney(Math.round(d.Threshold * 100), currency) : ''] : []),
    ]),
  };

  return (
    <>
      <LineChart
        table={table}
        h={260}
        data={data}
        dataKey="label"
        series={series}
        curveType="linear"
        withDots={data.length <= 60}
        withLegend
        gridAxis="y"
        tickLine="none"
        yAxisProps={{
          width: 76,
          domain: [scale.min, scale.max],
          ticks: scale.ticks,
          interval: 0,
          tickFormatter: (v: number) => formatAxisUsd(Math.round(v * 100)),
        }}
        xAxisProps={{ minTickGap: 32 }}
        valueFormatter={(v) => formatMoney(Math.round(v * 100), currency)}
        referenceLines={[
          ...(target === null ? [] : [{ y: target / 100, label: `Target ${formatMoney(target, currency)}`, color: 'teal.7' }]),
          ...marks.lines,
        ]}
        referenceDots={marks.dots}
        lineChartProps={{
          onClick: (state: { activeTooltipIndex?: number | string | null } | null) => {
            const point = data[Number(state?.activeTooltipIndex ?? -1)];
            if (point?.day) onOpenDay(point.day, point.tradeId);
          },
        }}
        data-testid="prop-chart"
      />
      <Text size="xs" c="dimmed" mt={4}>
        {byTrade
          ? 'One point per closed trade, in the order its P&L was realized.'
          : `One point per trading day's close (more than ${TIMELINE_LIMIT} trades).`}{' '}
        {marks.lines.length > 0 && 'Dashed lines mark breaches. '}Select a point or a day to see its trades.
      </Text>
      {/* A phone lays each day out as a block: the page scrolls, not a box inside it. */}
      <ScrollArea.Autosize mah={phone ? undefined : 420} mt="sm" type="auto">
        <Table striped highlightOnHover className={classes.days} data-testid="prop-days">
          <Table.Caption>Each trading day: its trades realized that day, its net, its worst point and how close it came to each limit.</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Trading day</Table.Th>
              {columns.map((c) => (
                <Table.Th key={c.key} ta="right">
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...status.days].reverse().map((d) => {
              const breaches = breachesByDay.get(d.day) ?? [];
              return (
                <Table.Tr key={d.day} data-breach={breaches.length > 0 ? (breaches.some((b) => b.fatal) ? 'hard' : 'soft') : undefined}>
                  <Table.Td data-label="Trading day">
                    <Group gap={6} wrap="wrap">
                      <Anchor component="button" type="button" size="sm" onClick={() => onOpenDay(d.day, breaches[0]?.tradeId ?? null)}>
                        {formatLongDay(d.day)}
                      </Anchor>
                      {breaches.length > 0 && <BreachBadges breaches={breaches} />}
                      {status.passedOn === d.day && (
                        <Text span size="xs" fw={700} c={TONE_COLOR.positive}>
                          Passed
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                  {columns.map((c) => {
                    const { text, color } = c.cell(d);
                    return (
                      <Table.Td
                        key={c.key}
                        data-label={c.label}
                        ta="right"
                        ff={c.key === 'trades' || c.key === 'peak' ? undefined : 'monospace'}
                        c={color}
                      >
                        {text}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </>
  );
}
