import { Anchor, ScrollArea, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { LineChart } from '../../components/charts';
import { formatShortDay } from '../../../domain/dates';
import { TIMELINE_LIMIT, type PropRuleSet, type PropStatus } from '../../../domain/prop/types';
import { pnlColor } from '../../lib/tone';
import { formatLongDay, formatSignedUsd, formatUsd } from './format';

/**
 * The timeline of issue 28: the balance after each closed trade, the maximum loss threshold under it and the target
 * above it. A point opens its day's trades; the table under it holds the same figures per day, for keyboards and
 * screen readers.
 */
export function StatusChart(props: { status: PropStatus; rules: PropRuleSet; onOpenDay: (day: string, tradeId: string | null) => void }) {
  const { status, rules, onOpenDay } = props;
  // Beyond TIMELINE_LIMIT trades the server leaves the per-trade timeline out: each day's close then.
  const byTrade = status.timeline.length > 0;
  const target = rules.profitTargetCents === null ? null : status.startingBalanceCents + rules.profitTargetCents;
  const hasThreshold = rules.maxLoss !== null;

  const data = useMemo(() => {
    const start = { label: 'Start', day: null as string | null, tradeId: null as string | null, Balance: status.startingBalanceCents / 100, ...(hasThreshold && { Threshold: (status.timeline[0]?.thresholdCents ?? status.days[0]?.thresholdCents ?? 0) / 100 }) };
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

  const series = [{ name: 'Balance', color: 'blue.6' }, ...(hasThreshold ? [{ name: 'Threshold', label: 'Maximum loss threshold', color: 'red.6' }] : [])];
  const values = data.flatMap((d) => [d.Balance, ...('Threshold' in d && d.Threshold !== undefined ? [d.Threshold] : [])]);
  if (target !== null) values.push(target / 100);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const pad = Math.max(50, (high - low) * 0.08);

  const table = {
    caption: byTrade ? 'Balance and maximum loss threshold after each closed trade' : "Balance and maximum loss threshold at each trading day's close",
    columns: ['Point', 'Balance', ...(hasThreshold ? ['Maximum loss threshold'] : [])],
    rows: data.map((d) => [
      d.label,
      formatUsd(Math.round(d.Balance * 100)),
      ...(hasThreshold ? ['Threshold' in d && d.Threshold !== undefined ? formatUsd(Math.round(d.Threshold * 100)) : ''] : []),
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
        yAxisProps={{ width: 76, domain: [Math.floor(low - pad), Math.ceil(high + pad)] }}
        xAxisProps={{ minTickGap: 32 }}
        valueFormatter={(v) => formatUsd(Math.round(v * 100))}
        referenceLines={target === null ? [] : [{ y: target / 100, label: `Target ${formatUsd(target)}`, color: 'teal.7' }]}
        lineChartProps={{
          onClick: (state: { activeTooltipIndex?: number | string | null } | null) => {
            const point = data[Number(state?.activeTooltipIndex ?? -1)];
            if (point?.day) onOpenDay(point.day, point.tradeId);
          },
        }}
        data-testid="prop-chart"
      />
      <Text size="xs" c="dimmed" mt={4}>
        {byTrade ? 'One point per closed trade.' : `One point per trading day's close (more than ${TIMELINE_LIMIT} trades).`} Select a point or a day to see
        its trades.
      </Text>
      <ScrollArea.Autosize mah={320} mt="sm" type="auto">
        <Table striped highlightOnHover miw={440} data-testid="prop-days">
          <Table.Caption>Each trading day: its trades, net P&amp;L and the balance and threshold at its close.</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Trading day</Table.Th>
              <Table.Th ta="right">Trades</Table.Th>
              <Table.Th ta="right">Net</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
              {hasThreshold && <Table.Th ta="right">Threshold</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...status.days].reverse().map((d) => (
              <Table.Tr key={d.day}>
                <Table.Td>
                  <Anchor component="button" type="button" size="sm" onClick={() => onOpenDay(d.day, null)}>
                    {formatLongDay(d.day)}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">{d.trades}</Table.Td>
                <Table.Td ta="right" ff="monospace" c={pnlColor(d.netCents)}>
                  {formatSignedUsd(d.netCents)}
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {formatUsd(d.balanceCents)}
                </Table.Td>
                {hasThreshold && (
                  <Table.Td ta="right" ff="monospace">
                    {d.thresholdCents === null ? '' : formatUsd(d.thresholdCents)}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </>
  );
}
