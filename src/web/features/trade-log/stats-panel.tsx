import '@mantine/charts/styles.css';
import { DonutChart } from '../../components/charts';
import { Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatUsd } from '../../../domain/money';
import { describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { formatProfitFactor, formatWinRate, getWinRateBand } from '../../../domain/stats';
import { tradeLogRQuery, type AccountFilter } from '../../shared/api';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { TONE_COLOR } from '../../lib/tone';
import { pnlColor } from './format';
import { useTradeStats } from './use-trade-stats';
import classes from './trade-log.module.css';

// Words in the AA shades of both themes (lib/tone); the bar, a graphic, needs 3:1 only.
const BAND_TEXT = { green: TONE_COLOR.positive, yellow: TONE_COLOR.warning, red: TONE_COLOR.negative } as const;
const BAND_COLOR = { green: 'teal', yellow: 'yellow', red: 'red' } as const;

function Tile({ label, value, color, testId }: { label: string; value: string | number; color?: string; testId: string }) {
  return (
    <div className={classes.statTile}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz={24} fw={700} c={color} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** Wins, Losses, BE, the Win Rate (Excluding BE) bar and two donuts. */
export function StatsPanel({ account, q = '', filter = '' }: { account: AccountFilter | null; q?: string; filter?: string }) {
  const { data, isPending } = useTradeStats(account, q, filter);
  const [unit] = useFigureUnit();
  const s = data?.summary;
  // JSON has no Infinity: a null profit factor means profit without losses (or nothing at all).
  const profitFactor = s ? (s.profitFactor ?? (s.grossProfitCents > 0 ? Number.POSITIVE_INFINITY : 0)) : 0;

  return (
    <Paper withBorder p="md" radius="md" h="100%" data-testid="stats-panel" data-money>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} size="h4">
          Statistics
        </Title>
        <FigureUnitSwitch />
      </Group>
      {isPending || !s ? (
        <Stack gap="sm">
          <Skeleton height={70} />
          <Skeleton height={24} />
          <Skeleton height={160} />
        </Stack>
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={3} spacing="xs">
            <Tile label="Wins" value={s.wins} color={TONE_COLOR.positive} testId="stat-wins" />
            <Tile label="Losses" value={s.losses} color={TONE_COLOR.negative} testId="stat-losses" />
            <Tile label="BE" value={s.breakEvens} testId="stat-be" />
          </SimpleGrid>
          <div>
            <Group justify="space-between" mb={4}>
              <Text size="sm" fw={600} id="win-rate-label">
                Win Rate (Excluding BE)
              </Text>
              <Text size="sm" fw={700} c={BAND_TEXT[getWinRateBand(s.winRate)]} data-testid="stat-win-rate">
                {/* Nothing won or lost yet: no rate (an empty account read 0.0%). */}
                {formatWinRate(s.winRate, s.wins + s.losses)}
              </Text>
            </Group>
            <Progress
              value={s.winRate}
              color={BAND_COLOR[getWinRateBand(s.winRate)]}
              size="lg"
              radius="xl"
              // Mantine names the bar (role progressbar) from aria-label only (axe: aria-progressbar-name).
              aria-label="Win rate"
            />
          </div>
          {unit === 'r' ? (
            <RFigures account={account} q={q} filter={filter} trades={s.trades} />
          ) : (
            <Group justify="space-between" gap="xs">
              <Text size="sm">
                Net PnL{' '}
                <Text span fw={700} c={pnlColor(s.pnlCents)} data-testid="stat-net-pnl">
                  {formatUsd(s.pnlCents)}
                </Text>
              </Text>
              <Text size="sm">
                Profit Factor{' '}
                <Text span fw={700} data-testid="stat-profit-factor">
                  {formatProfitFactor(profitFactor, s.trades)}
                </Text>
              </Text>
              <Text size="sm">
                Trades{' '}
                <Text span fw={700} data-testid="stat-trades">
                  {s.trades}
                </Text>
              </Text>
            </Group>
          )}
          {s.trades === 0 ? (
            <Text c="dimmed" size="sm" ta="center" py="lg">
              No trades yet: add one to see your statistics.
            </Text>
          ) : (
            <SimpleGrid cols={2} spacing="xs">
              <Stack gap={4} align="center">
                <DonutChart
                  size={140}
                  thickness={18}
                  withTooltip={false}
                  chartLabel={formatWinRate(s.winRate, s.wins + s.losses)}
                  data={[
                    { name: 'Wins', value: s.wins, color: 'teal.6' },
                    { name: 'Losses', value: s.losses, color: 'red.6' },
                  ]}
                  table={{
                    caption: 'Wins and losses',
                    columns: ['Result', 'Trades'],
                    rows: [
                      ['Wins', String(s.wins)],
                      ['Losses', String(s.losses)],
                    ],
                  }}
                />
                <Text size="xs" c="dimmed" ta="center">
                  Wins / Losses
                  <br />
                  {s.wins} / {s.losses}
                </Text>
              </Stack>
              <Stack gap={4} align="center">
                <DonutChart
                  size={140}
                  thickness={18}
                  withTooltip={false}
                  chartLabel={s.trades}
                  data={[
                    { name: 'Wins', value: s.wins, color: 'teal.6' },
                    { name: 'Losses', value: s.losses, color: 'red.6' },
                    { name: 'Break Even', value: s.breakEvens, color: 'gray.6' },
                  ]}
                  table={{
                    caption: 'Wins, losses and break even',
                    columns: ['Result', 'Trades'],
                    rows: [
                      ['Wins', String(s.wins)],
                      ['Losses', String(s.losses)],
                      ['Break Even', String(s.breakEvens)],
                    ],
                  }}
                />
                <Text size="xs" c="dimmed" ta="center">
                  Wins / Losses / Break Even
                  <br />
                  {s.wins} / {s.losses} / {s.breakEvens}
                </Text>
              </Stack>
            </SimpleGrid>
          )}
        </Stack>
      )}
    </Paper>
  );
}

const rColor = (r: number | null) => (r === null ? undefined : r > 0 ? TONE_COLOR.positive : r < 0 ? TONE_COLOR.negative : undefined);

/**
 * The list's trades in R, as the Reports' Overview in R reads them (GET /api/reports/r with the list's
 * account, filter and search): of the trades with a planned risk, the others counted apart.
 */
function RFigures({ account, q, filter, trades }: { account: AccountFilter | null; q: string; filter: string; trades: number }) {
  const { data, isError, isPlaceholderData } = useQuery({
    ...tradeLogRQuery(account ?? 'all', q, filter),
    enabled: account !== null,
    placeholderData: keepPreviousData,
  });
  if (isError)
    return (
      <Text size="sm" c="dimmed">
        Failed to load the figures in R
      </Text>
    );
  const r = data?.r.summary;
  if (!r) return <Skeleton height={52} />;
  if (trades === 0) return null;
  const figures: Array<{ key: string; label: string; text: string; color?: string }> = [
    { key: 'total-r', label: 'Total', text: r.totalR === null ? '—' : formatR(r.totalR), color: rColor(r.totalR) },
    { key: 'expectancy-r', label: 'Expectancy', text: r.expectancyR === null ? '—' : formatR(r.expectancyR), color: rColor(r.expectancyR) },
    { key: 'average-win-r', label: 'Average Win', text: r.averageWinR === null ? '—' : formatR(r.averageWinR), color: rColor(r.averageWinR) },
    { key: 'average-loss-r', label: 'Average Loss', text: r.averageLossR === null ? '—' : formatR(r.averageLossR), color: rColor(r.averageLossR) },
    {
      key: 'profit-factor-r',
      label: 'Profit Factor',
      // R won over R lost: a ratio, not an R; '∞' when something was won and nothing lost.
      text: r.profitFactorR !== null ? r.profitFactorR.toFixed(2) : r.averageWinR !== null ? '∞' : '—',
      color:
        r.profitFactorR === null
          ? r.averageWinR !== null
            ? TONE_COLOR.positive
            : undefined
          : r.profitFactorR >= 1
            ? TONE_COLOR.positive
            : TONE_COLOR.negative,
    },
  ];
  return (
    <Stack gap={6} data-testid="stat-r" aria-busy={isPlaceholderData} style={{ opacity: isPlaceholderData ? 0.6 : 1 }}>
      {r.tradesWithRisk === 0 ? (
        <Text size="sm" data-testid="stat-r-empty">
          None of these trades has a planned risk: set a stop or a dollar risk on them, or a default in Risk defaults.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 3, xs: 5 }} spacing="xs" verticalSpacing={6}>
          {figures.map((figure) => (
            <div key={figure.key}>
              <Text size="xs" c="dimmed" fw={600}>
                {figure.label}
              </Text>
              <Text size="sm" fw={700} c={figure.color} data-testid={`stat-${figure.key}`}>
                {figure.text}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      )}
      <Text size="xs" c="dimmed" data-testid="stat-r-note">
        In R: net P&L over planned risk, of {r.tradesWithRisk} trade{r.tradesWithRisk === 1 ? '' : 's'}
        {r.tradesWithoutRisk > 0 ? `; ${describeWithoutRisk(r.tradesWithoutRisk)}, left out` : ''}.
      </Text>
    </Stack>
  );
}
