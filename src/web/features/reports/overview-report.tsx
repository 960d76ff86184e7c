import { Button, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { FIGURE_GROUPS, formatFigure, listOverviewFigures, type OverviewFigure } from '../../../domain/reports/figures';
import type { ReportFilter } from '../../../domain/reports/filter';
import type { ROverview } from '../../../domain/reports/r-multiples';
import { describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { pnlColor, TONE_COLOR } from '../../lib/tone';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { overviewQuery } from './api';
import { centsForCsv, csvFileName, downloadCsv } from './csv';
import { NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import classes from './reports.module.css';
import { useReportsSource } from './reports-source';

/** Figures whose colour says good or bad by their sign (fees and spreads are neither). */
const SIGNED = new Set([
  'netCents',
  'grossCents',
  'expectancyCents',
  'averageTradeCents',
  'averageWinCents',
  'averageLossCents',
  'largestWinCents',
  'largestLossCents',
  'bestDayCents',
  'worstDayCents',
  'averageDayCents',
]);

export function figureText(figure: OverviewFigure, currency = 'USD'): string {
  return formatFigure(figure.kind, figure.value, figure.infinite, currency);
}

/** A figure's colour: money by its sign where the sign means profit or loss; a drawdown is a loss. */
function figureColor(figure: OverviewFigure): string | undefined {
  if (figure.kind === 'money' && SIGNED.has(figure.key)) return pnlColor(figure.value);
  if (figure.key === 'maxDrawdownCents' && figure.value) return TONE_COLOR.negative;
  return undefined;
}

/** Overview: every figure of the filter's trades. */
export function OverviewReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const { base } = useReportsSource();
  const query = useQuery(overviewQuery(filter, base));
  const [unit] = useFigureUnit();
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
        <>
          <FigureUnitSwitch />
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />}
            onClick={() => void exportCsv()}
            data-testid="overview-csv"
          >
            Export CSV
          </Button>
        </>
      }
    >
      {overview.trades === 0 ? (
        <NoTrades />
      ) : unit === 'r' ? (
        <RFigures r={query.data.r} />
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
                          {figureText(figure, query.data.basis.currency)}
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
            Win rate leaves break-evens out, as everywhere in Edgebook; expectancy is the average of a trade that won or lost. Max drawdown is the
            largest fall of net P&L from a peak, trade by trade in trading order
            {openingBalanceCents === null
              ? ''
              : `, as a share of the balance at that peak (from a starting balance of ${formatFigure('money', openingBalanceCents)} when the range opens)`}
            . The daily Sharpe ratio is the mean of daily net P&L over its standard deviation, per trading day.
            {overview.tradesWithoutTimes > 0 &&
              ` ${overview.tradesWithoutTimes} trade${overview.tradesWithoutTimes === 1 ? ' has' : 's have'} no entry and exit times and ${overview.tradesWithoutTimes === 1 ? 'is' : 'are'} left out of the hold times.`}
          </Text>
        </>
      )}
    </ReportCard>
  );
}

const rColor = (r: number | null) => (r === null ? undefined : pnlColor(r > 0 ? 1 : r < 0 ? -1 : 0));

/** The Overview in R: of the trades with a planned risk, the others counted apart. */
function RFigures({ r }: { r: ROverview }) {
  const figures: Array<{ key: string; label: string; value: number | null }> = [
    { key: 'totalR', label: 'Total', value: r.totalR },
    { key: 'expectancyR', label: 'Expectancy', value: r.expectancyR },
    { key: 'averageWinR', label: 'Average Win', value: r.averageWinR },
    { key: 'averageLossR', label: 'Average Loss', value: r.averageLossR },
    { key: 'profitFactorR', label: 'Profit Factor', value: r.profitFactorR },
  ];
  const most = Math.max(1, ...r.bins.map((b) => b.trades));
  return (
    <Stack gap="md" data-testid="figures-r">
      {r.tradesWithRisk === 0 ? (
        <Text size="sm" data-testid="r-empty">
          None of these trades has a planned risk: set a stop or a dollar risk on them, or a default in the Trade Log&apos;s Risk defaults.
        </Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="xs" verticalSpacing="xs" className={classes.figures}>
            {figures.map((figure) => (
              <Paper key={figure.key} withBorder radius="sm" p="xs" className={classes.figure} data-testid={`figure-${figure.key}`}>
                <Text size="xs" c="dimmed" fw={600}>
                  {figure.label}
                </Text>
                {figure.key === 'profitFactorR' ? (
                  // A ratio of R won to R lost, not an R: no sign, no 'R'; '∞' when something was won and nothing lost.
                  <Text
                    fz={{ base: 'md', sm: 'lg' }}
                    fw={700}
                    c={figure.value === null ? undefined : figure.value >= 1 ? TONE_COLOR.positive : TONE_COLOR.negative}
                    className={classes.numeric}
                    data-testid="figure-value"
                  >
                    {figure.value !== null ? figure.value.toFixed(2) : r.averageWinR !== null ? '∞' : '—'}
                  </Text>
                ) : (
                  <Text fz={{ base: 'md', sm: 'lg' }} fw={700} c={rColor(figure.value)} className={classes.numeric} data-testid="figure-value">
                    {figure.value === null ? '—' : formatR(figure.value)}
                  </Text>
                )}
              </Paper>
            ))}
          </SimpleGrid>
          <div>
            <Title order={3} size="h6" c="dimmed" mb={6}>
              Distribution of R
            </Title>
            <Stack gap={4} data-testid="r-distribution">
              {r.bins.map((bin) => (
                <div key={bin.id} style={{ display: 'grid', gridTemplateColumns: '7rem 1fr 3rem', gap: 8, alignItems: 'center' }} data-testid="r-bin">
                  <Text size="sm">{bin.label}</Text>
                  <Progress
                    value={(bin.trades / most) * 100}
                    color={bin.id.startsWith('-') || bin.id === 'lt-2' ? 'red' : 'teal'}
                    aria-label={`${bin.label}: ${bin.trades} trades`}
                  />
                  <Text size="sm" ta="right" className={classes.numeric}>
                    {bin.trades}
                  </Text>
                </div>
              ))}
            </Stack>
          </div>
        </>
      )}
      <Text size="xs" c="dimmed" data-testid="r-note">
        R is a trade&apos;s net P&L over its planned risk (its stop or dollar risk, else your default for its account and instrument); expectancy is
        the average R of a trade with a planned risk. Computed from {r.tradesWithRisk} trade
        {r.tradesWithRisk === 1 ? '' : 's'}
        {r.tradesWithoutRisk > 0 ? `; ${describeWithoutRisk(r.tradesWithoutRisk)}, left out` : ''}.
      </Text>
    </Stack>
  );
}
