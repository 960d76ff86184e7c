import { Anchor, Button, SegmentedControl, Text, Tooltip } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '../../../domain/money';
import { formatFigure } from '../../../domain/reports/figures';
import { formatHour, WEEKDAY_LABELS, WEEKDAY_SHORT, type ReportFilter } from '../../../domain/reports/filter';
import type { HeatmapCell } from '../../../domain/reports/heatmap';
import { heatmapQuery, tradeLogHref } from './api';
import { centsForCsv, csvFileName, downloadCsv } from './csv';
import { NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import classes from './reports.module.css';

type Measure = 'net' | 'winRate';

/**
 * A cell's colour: green for profit (or a win rate above 50%), red for loss, stronger as the value nears the largest
 * on the map. A mix with the card's background, so it reads in both themes.
 */
function cellStyle(cell: HeatmapCell | undefined, measure: Measure, maxAbs: number) {
  if (!cell) return undefined;
  const value = measure === 'net' ? cell.netCents : cell.winRate === null ? 0 : cell.winRate - 50;
  const scale = measure === 'net' ? maxAbs : 50;
  if (value === 0 || scale === 0) return { background: 'var(--mantine-color-default-hover)' };
  // At most 45% of the colour, so the cell's text (the theme's brightest) keeps AA contrast in both themes.
  const strength = Math.round(10 + 35 * Math.min(1, Math.abs(value) / scale));
  const color = value > 0 ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)';
  return { background: `color-mix(in srgb, ${color} ${strength}%, transparent)` };
}

/** Heatmap (issue 26 point 5): day of week by hour of entry, in the trader's zone, net P&L or win rate per cell. */
export function HeatmapReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const [measure, setMeasure] = useState<Measure>('net');
  const query = useQuery(heatmapQuery(filter));
  const data = query.data;
  const map = data?.heatmap;
  const byKey = new Map((map?.cells ?? []).map((c) => [`${c.weekday}:${c.hour}`, c]));
  const maxAbs = Math.max(0, ...(map?.cells ?? []).map((c) => Math.abs(c.netCents)));
  const exportCsv = () =>
    downloadCsv(
      csvFileName('heatmap', today),
      ['Day of week', 'Hour of entry', 'Trades', 'Wins', 'Losses', 'Win rate', 'Net P&L'],
      (map?.cells ?? []).map((c) => [WEEKDAY_LABELS[c.weekday] ?? c.weekday, formatHour(c.hour), c.trades, c.wins, c.losses, c.winRate, centsForCsv(c.netCents)]),
    );

  return (
    <ReportCard
      title="Day and hour"
      description={data ? `Hour of entry in ${data.basis.timeZone}. ${data.basis.computedFrom}` : undefined}
      busy={query.isPlaceholderData}
      testId="report-heatmap"
      actions={
        <>
          <SegmentedControl
            size="xs"
            aria-label="Cells show"
            data={[
              { value: 'net', label: 'Net P&L' },
              { value: 'winRate', label: 'Win rate' },
            ]}
            value={measure}
            onChange={(value) => setMeasure(value as Measure)}
            data-testid="heatmap-measure"
          />
          <Button variant="default" size="compact-sm" leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />} onClick={() => void exportCsv()} disabled={!map?.cells.length} data-testid="heatmap-csv">
            Export CSV
          </Button>
        </>
      }
    >
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !map ? (
        <ReportLoading />
      ) : map.cells.length === 0 ? (
        map.withoutTime > 0 ? (
          <Text c="dimmed" ta="center" py="xl" data-testid="report-empty">
            None of these {map.withoutTime} trades has an entry time, so none has an hour.
          </Text>
        ) : (
          <NoTrades />
        )
      ) : (
        <>
          <div className={classes.tableScroll} tabIndex={0} role="region" aria-label="Net P&L and win rate by day of week and hour of entry">
            <table className={classes.heatmap} data-testid="heatmap-table">
              <caption className={classes.caption}>Trades by day of week (rows) and hour of entry (columns)</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className={classes.srOnly}>Day</span>
                  </th>
                  {map.hours.map((h) => (
                    <th key={h} scope="col">
                      {formatHour(h)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {map.weekdays.map((d) => (
                  <tr key={d}>
                    <th scope="row" title={WEEKDAY_LABELS[d]}>
                      {WEEKDAY_SHORT[d]}
                    </th>
                    {map.hours.map((h) => {
                      const cell = byKey.get(`${d}:${h}`);
                      const label = cell
                        ? `${WEEKDAY_LABELS[d]} ${formatHour(h)}: ${cell.trades} trade${cell.trades === 1 ? '' : 's'}, net ${formatUsd(cell.netCents)}, win rate ${formatFigure('percent', cell.winRate)}`
                        : `${WEEKDAY_LABELS[d]} ${formatHour(h)}: no trades`;
                      return (
                        <td key={h} style={cellStyle(cell, measure, maxAbs)} data-testid={cell ? 'heatmap-cell' : undefined}>
                          {cell ? (
                            <Tooltip label={label} withArrow openDelay={200}>
                              <Anchor component={Link} to={tradeLogHref({ ...filter, weekday: [d], hour: [h] })} className={classes.heatmapLink}>
                                <span className={classes.heatmapValue}>{measure === 'net' ? formatCompactUsd(cell.netCents) : formatFigure('percent', cell.winRate)}</span>
                                <span className={classes.heatmapCount}>{cell.trades}</span>
                                <span className={classes.srOnly}>{`trade${cell.trades === 1 ? '' : 's'}. ${label}. Open in Trade Log`}</span>
                              </Anchor>
                            </Tooltip>
                          ) : null}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {map.withoutTime > 0 && (
            <Text size="xs" c="dimmed" mt="xs" data-testid="heatmap-without-time">
              {map.withoutTime} trade{map.withoutTime === 1 ? '' : 's'} without an entry time {map.withoutTime === 1 ? 'is' : 'are'} left out.
            </Text>
          )}
        </>
      )}
    </ReportCard>
  );
}

/** "$1.2k", "-$85": a cell has room for four characters. */
function formatCompactUsd(cents: number): string {
  const dollars = Math.abs(cents) / 100;
  const sign = cents < 0 ? '-' : '';
  if (dollars >= 10_000) return `${sign}$${Math.round(dollars / 1000)}k`;
  if (dollars >= 1000) return `${sign}$${(Math.round(dollars / 100) / 10).toFixed(1)}k`;
  return `${sign}$${Math.round(dollars)}`;
}
