import { Anchor, Button, SegmentedControl, Text, Tooltip } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '../../../domain/money';
import { formatFigure } from '../../../domain/reports/figures';
import { formatHour, WEEKDAY_LABELS, WEEKDAY_SHORT, type ReportFilter } from '../../../domain/reports/filter';
import type { HeatmapCell } from '../../../domain/reports/heatmap';
import { describeWithoutRisk, formatCompactR } from '../../../domain/risk/format-r';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { heatmapQuery } from './api';
import { centsForCsv, csvFileName, downloadCsv } from './csv';
import { NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import { NoPlannedRisk, rText } from './r-figures';
import classes from './reports.module.css';
import { useReportsSource } from './reports-source';

type Measure = 'net' | 'winRate';

/** What a cell's net is in the unit shown: cents, or its total R (0 for a cell without a planned risk: no colour). */
const netOf = (cell: HeatmapCell, inR: boolean) => (inR ? (cell.r.totalR ?? 0) : cell.netCents);

/**
 * A cell's colour: green for profit (or a win rate above 50%), red for loss, stronger as the value nears the largest
 * on the map. A mix with the card's background, so it reads in both themes.
 */
function cellStyle(cell: HeatmapCell | undefined, measure: Measure, maxAbs: number, inR: boolean) {
  if (!cell) return undefined;
  const value = measure === 'net' ? netOf(cell, inR) : cell.winRate === null ? 0 : cell.winRate - 50;
  const scale = measure === 'net' ? maxAbs : 50;
  if (value === 0 || scale === 0) return { background: 'var(--mantine-color-default-hover)' };
  // At most 45% of the colour, so the cell's text (the theme's brightest) keeps AA contrast in both themes.
  const strength = Math.round(10 + 35 * Math.min(1, Math.abs(value) / scale));
  const color = value > 0 ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)';
  return { background: `color-mix(in srgb, ${color} ${strength}%, transparent)` };
}

/**
 * Heatmap: day of week by hour of entry, in the trader's zone, net P&L or win rate per cell. On the
 * $ / R switch, each cell's total R: what the hour made in units of risk, as the dollars show what it made.
 */
/** A cell's figure (net, R or win rate) and its count of trades. */
function CellFigures({ cell, measure, inR }: { cell: HeatmapCell; measure: Measure; inR: boolean }) {
  return (
    <>
      <span className={classes.heatmapValue}>
        {measure === 'winRate'
          ? formatFigure('percent', cell.winRate)
          : inR
            ? cell.r.totalR === null
              ? '—'
              : formatCompactR(cell.r.totalR)
            : formatCompactUsd(cell.netCents)}
      </span>
      <span className={classes.heatmapCount}>{cell.trades}</span>
    </>
  );
}

export function HeatmapReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const [measure, setMeasure] = useState<Measure>('net');
  const [unit] = useFigureUnit();
  const inR = unit === 'r';
  const { base, tradeLogHref } = useReportsSource();
  const query = useQuery(heatmapQuery(filter, base));
  const data = query.data;
  const map = data?.heatmap;
  const byKey = new Map((map?.cells ?? []).map((c) => [`${c.weekday}:${c.hour}`, c]));
  const maxAbs = Math.max(0, ...(map?.cells ?? []).map((c) => Math.abs(netOf(c, inR))));
  const withRisk = (map?.cells ?? []).reduce((sum, c) => sum + c.r.tradesWithRisk, 0);
  const exportCsv = () =>
    inR
      ? downloadCsv(
          csvFileName('heatmap-in-r', today),
          ['Day of week', 'Hour of entry', 'Trades', 'Wins', 'Losses', 'Win rate', 'Total R', 'Average R', 'Without a planned risk'],
          (map?.cells ?? []).map((c) => [
            WEEKDAY_LABELS[c.weekday] ?? c.weekday,
            formatHour(c.hour),
            c.trades,
            c.wins,
            c.losses,
            c.winRate,
            c.r.totalR,
            c.r.expectancyR,
            c.r.tradesWithoutRisk,
          ]),
        )
      : downloadCsv(
          csvFileName('heatmap', today),
          ['Day of week', 'Hour of entry', 'Trades', 'Wins', 'Losses', 'Win rate', 'Net P&L'],
          (map?.cells ?? []).map((c) => [
            WEEKDAY_LABELS[c.weekday] ?? c.weekday,
            formatHour(c.hour),
            c.trades,
            c.wins,
            c.losses,
            c.winRate,
            centsForCsv(c.netCents),
          ]),
        );
  const describeCell = (cell: HeatmapCell) =>
    inR
      ? `total ${rText(cell.r.totalR)}${cell.r.expectancyR === null ? '' : `, average ${rText(cell.r.expectancyR)} a trade`}${cell.r.tradesWithoutRisk > 0 ? ` (${describeWithoutRisk(cell.r.tradesWithoutRisk)})` : ''}`
      : `net ${formatUsd(cell.netCents)}`;

  return (
    <ReportCard
      title="Day and hour"
      description={data ? `Day of week by trading day; hour of entry in ${data.basis.timeZone}. ${data.basis.computedFrom}` : undefined}
      busy={query.isPlaceholderData}
      testId="report-heatmap"
      actions={
        <>
          <SegmentedControl
            size="xs"
            aria-label="Cells show"
            data={[
              { value: 'net', label: inR ? 'Total R' : 'Net P&L' },
              { value: 'winRate', label: 'Win rate' },
            ]}
            value={measure}
            onChange={(value) => setMeasure(value as Measure)}
            data-testid="heatmap-measure"
          />
          <FigureUnitSwitch />
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />}
            onClick={() => void exportCsv()}
            disabled={!map?.cells.length}
            data-testid="heatmap-csv"
          >
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
      ) : inR && measure === 'net' && withRisk === 0 ? (
        <NoPlannedRisk trades={map.cells.reduce((sum, c) => sum + c.trades, 0)} />
      ) : (
        <>
          <div
            className={classes.tableScroll}
            tabIndex={0}
            role="region"
            aria-label={`${inR ? 'Total R' : 'Net P&L'} and win rate by day of week and hour of entry`}
          >
            <table className={classes.heatmap} data-testid="heatmap-table">
              <caption className={classes.caption}>Trades by day of week of the trading day (rows) and hour of entry (columns)</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className={classes.srOnly}>Trading day</span>
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
                        ? `${WEEKDAY_LABELS[d]} ${formatHour(h)}: ${cell.trades} trade${cell.trades === 1 ? '' : 's'}, ${describeCell(cell)}, win rate ${formatFigure('percent', cell.winRate)}`
                        : `${WEEKDAY_LABELS[d]} ${formatHour(h)}: no trades`;
                      return (
                        <td key={h} style={cellStyle(cell, measure, maxAbs, inR)} data-testid={cell ? 'heatmap-cell' : undefined}>
                          {cell ? (
                            <Tooltip label={label} withArrow openDelay={200}>
                              {tradeLogHref ? (
                                <Anchor component={Link} to={tradeLogHref({ ...filter, weekday: [d], hour: [h] })} className={classes.heatmapLink}>
                                  <CellFigures cell={cell} measure={measure} inR={inR} />
                                  <span className={classes.srOnly}>{`trade${cell.trades === 1 ? '' : 's'}. ${label}. Open in Trade Log`}</span>
                                </Anchor>
                              ) : (
                                <span className={classes.heatmapLink}>
                                  <CellFigures cell={cell} measure={measure} inR={inR} />
                                  <span className={classes.srOnly}>{`trade${cell.trades === 1 ? '' : 's'}. ${label}`}</span>
                                </span>
                              )}
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
          {inR && (
            <Text size="xs" c="dimmed" mt={4} data-testid="heatmap-r-note">
              {measure === 'net'
                ? "Each cell shows its total R, the sum of its trades' R; its label also gives the average R a trade."
                : "Each cell's label gives its total R and the average R a trade."}
              {map.tradesWithoutRisk > 0 ? ` ${describeWithoutRisk(map.tradesWithoutRisk)}: counted in the cells' trades, left out of R.` : ''}
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
