import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { FIGURE_GROUPS, formatFigure, listOverviewFigures, type OverviewFigure } from '../../../domain/reports/figures';
import type { ReportFilter } from '../../../domain/reports/filter';
import { pnlColor, TONE_COLOR } from '../../lib/tone';
import { overviewQuery } from './api';
import { centsForCsv, csvFileName, downloadCsv } from './csv';
import { NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import classes from './reports.module.css';

/** Figures whose colour says good or bad by their sign (fees and spreads are neither). */
const SIGNED = new Set(['netCents', 'grossCents', 'expectancyCents', 'averageTradeCents', 'averageWinCents', 'averageLossCents', 'largestWinCents', 'largestLossCents', 'bestDayCents', 'worstDayCents', 'averageDayCents']);

export function figureText(figure: OverviewFigure): string {
  return formatFigure(figure.kind, figure.value, figure.infinite);
}

/** A figure's colour: money by its sign where the sign means profit or loss; a drawdown is a loss. */
function figureColor(figure: OverviewFigure): string | undefined {
  if (figure.kind === 'money' && SIGNED.has(figure.key)) return pnlColor(figure.value);
  if (figure.key === 'maxDrawdownCents' && figure.value) return TONE_COLOR.negative;
  return undefined;
}

/** Overview (issue 26 point 2): every figure of the filter's trades. */
export function OverviewReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const query = useQuery(overviewQuery(filter));
  if (query.isError) return <ReportError error={query.error} />;
  if (!query.data) return <ReportLoading height={320} />;
  const { overview, openingBalanceCents } = query.data;
  const figures = listOverviewFigures(overview);
  const exportCsv = () =>
    downloadCsv(
      csvFileName('overview', today),
      ['Figure', 'Value', 'Note'],
      figures.map((f) => [f.label, f.kind === 'money' ? centsForCsv(f.value) : f.infinite ? '∞' : f.value, f.note ?? '']),
    );
  return (
    <ReportCard
      title="Overview"
      description={query.data.basis.computedFrom}
      busy={query.isPlaceholderData}
      testId="report-overview"
      actions={
        <Button variant="default" size="compact-sm" leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />} onClick={() => void exportCsv()} data-testid="overview-csv">
          Export CSV
        </Button>
      }
    >
      {overview.trades === 0 ? (
        <NoTrades />
      ) : (
        <>
          <Stack gap="md">
            {FIGURE_GROUPS.map((group) => (
              <div key={group.id} data-testid={`figures-${group.id}`}>
                <Title order={3} size="h6" c="dimmed" mb={6}>
                  {group.label}
                </Title>
                <SimpleGrid cols={{ base: 2, sm: 3, lg: 4, xl: 6 }} spacing="xs" verticalSpacing="xs" className={classes.figures}>
                  {figures
                    .filter((figure) => figure.group === group.id)
                    .map((figure) => (
                      <Paper key={figure.key} withBorder radius="sm" p="xs" className={classes.figure} data-testid={`figure-${figure.key}`}>
                        <Text size="xs" c="dimmed" fw={600}>
                          {figure.label}
                        </Text>
                        <Text fz={{ base: 'md', sm: 'lg' }} fw={700} c={figureColor(figure)} className={classes.numeric} data-testid="figure-value">
                          {figureText(figure)}
                        </Text>
                        {(figure.note ?? (figure.key === 'maxDrawdownPercent' && figure.value === null)) && (
                          <Text size="xs" c="dimmed">
                            {figure.note ?? 'Known for a filter of days and accounts only'}
                          </Text>
                        )}
                      </Paper>
                    ))}
                </SimpleGrid>
              </div>
            ))}
          </Stack>
          <Text size="xs" c="dimmed" mt="sm">
            Win rate leaves break-evens out, as everywhere in Edgebook; expectancy is the average of a trade that won or lost. Max drawdown is
            the largest fall of net P&L from a peak, trade by trade in trading order
            {openingBalanceCents === null ? '' : `, as a share of the balance at that peak (from a starting balance of ${formatFigure('money', openingBalanceCents)} when the range opens)`}
            . The daily Sharpe ratio is the mean of daily net P&L over its standard deviation, per trading day.
            {overview.tradesWithoutTimes > 0 && ` ${overview.tradesWithoutTimes} trade${overview.tradesWithoutTimes === 1 ? ' has' : 's have'} no entry and exit times and ${overview.tradesWithoutTimes === 1 ? 'is' : 'are'} left out of the hold times.`}
          </Text>
        </>
      )}
    </ReportCard>
  );
}
