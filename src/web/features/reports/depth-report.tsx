import { SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { formatDay } from '../../../domain/dates';
import { formatFigure } from '../../../domain/reports/figures';
import { formatR } from '../../../domain/risk/format-r';
import type { ReportFilter } from '../../../domain/reports/filter';
import { depthQuery } from './api';
import { Money, NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import classes from './reports.module.css';
import { useReportsSource } from './reports-source';

/** A ratio with two decimals, or 'Not defined' (no losing day for Sortino, no spread for SQN...). */
const ratio = (value: number | null) => (value === null ? 'Not defined' : value.toFixed(2));
const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
/** A share of a starting balance; '—' without one (no balance, or trades without an account), never 0%. */
const share = (percent: number | null) => (percent === null ? '—' : formatFigure('percent', percent));
/** A drawdown in R, shown as a fall; '—' without a trade with a planned risk. */
const fallInR = (r: number | null) => (r === null ? '—' : formatR(-r + 0));

function Figure({ label, children, note, testId }: { label: string; children: ReactNode; note?: string; testId: string }) {
  return (
    <div className={classes.figure} data-testid={testId}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" fw={600} component="div">
        {children}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </div>
  );
}

/**
 * Depth: drawdown as figures, streaks of winning and losing days, the ratios (Sortino, SQN with its sample, Kelly),
 * net P&L by week (Monday to Sunday) and by the time of entry in 15- or 30-minute buckets.
 */
export function DepthReport({ filter }: { filter: ReportFilter }) {
  const { base } = useReportsSource();
  const query = useQuery(depthQuery(filter, base));
  const [minutes, setMinutes] = useState<'15' | '30'>('30');
  const depth = query.data?.depth;
  if (query.isError) return <ReportError error={query.error} />;
  if (!depth) return <ReportLoading height={320} />;
  if (depth.ratios.sqnSample === 0) {
    return (
      <ReportCard title="Depth" testId="report-depth">
        <NoTrades />
      </ReportCard>
    );
  }
  const { drawdown, drawdownR, drawdownPercent, streaks, ratios } = depth;
  const buckets = minutes === '15' ? depth.buckets15 : depth.buckets30;
  return (
    <Stack gap="md">
      <ReportCard
        title="Drawdown, streaks and ratios"
        description={query.data?.basis.computedFrom}
        busy={query.isPlaceholderData}
        testId="report-depth"
      >
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="xs" verticalSpacing="xs" className={classes.figures}>
          <Figure label="Maximum drawdown" note={`${share(drawdownPercent.maxDrawdownPercent)} of the starting balance`} testId="depth-max-drawdown">
            <Money cents={-drawdown.maxDrawdownCents} />
          </Figure>
          <Figure
            label="Current drawdown"
            note={`${share(drawdownPercent.currentDrawdownPercent)} of the starting balance`}
            testId="depth-current-drawdown"
          >
            <Money cents={-drawdown.currentDrawdownCents} />
          </Figure>
          <Figure
            label="Drawdown in R"
            note={
              drawdownR.tradesWithoutRisk > 0
                ? `Now ${fallInR(drawdownR.currentDrawdownR)}; ${drawdownR.tradesWithoutRisk} trade${drawdownR.tradesWithoutRisk === 1 ? '' : 's'} without a planned risk left out`
                : `Now ${fallInR(drawdownR.currentDrawdownR)}`
            }
            testId="depth-drawdown-r"
          >
            {fallInR(drawdownR.maxDrawdownR)}
          </Figure>
          <Figure label="Longest time under water" note="Calendar days from a peak until it is reached again" testId="depth-underwater">
            {days(drawdown.longestUnderwaterDays)}
            {drawdown.currentUnderwaterDays > 0 ? ` (now ${days(drawdown.currentUnderwaterDays)})` : ''}
          </Figure>
          <Figure label="Recovery factor" note="Net P&L over the maximum drawdown" testId="depth-recovery">
            {ratio(drawdown.recoveryFactor)}
          </Figure>
          <Figure label="Winning days in a row" note={`Longest; losing days in a row: ${streaks.longestLosingDays}`} testId="depth-streaks">
            {streaks.longestWinningDays}
          </Figure>
          <Figure label="Current streak" testId="depth-current-streak">
            {streaks.current.kind === null ? 'None' : `${days(streaks.current.days)} ${streaks.current.kind}`}
          </Figure>
          <Figure label="Sortino ratio" note="Per trading day, not annualised" testId="depth-sortino">
            {ratio(ratios.sortino)}
          </Figure>
          <Figure label="SQN" note={`System quality number, from ${ratios.sqnSample} trade${ratios.sqnSample === 1 ? '' : 's'}`} testId="depth-sqn">
            {ratio(ratios.sqn)}
          </Figure>
          <Figure label="Kelly fraction" note="From the win rate and the payoff ratio; a formula, not advice" testId="depth-kelly">
            {ratios.kelly === null ? 'Not defined' : formatFigure('percent', ratios.kelly * 100)}
          </Figure>
        </SimpleGrid>
      </ReportCard>

      {depth.accounts.length > 0 && (
        <ReportCard
          title="Drawdown by account"
          description="Each account's own trades in the filter; the share is of the account's starting balance"
          testId="report-depth-accounts"
        >
          <div className={classes.tableScroll} tabIndex={0} role="region" aria-label="Drawdown by account">
            <Table striped verticalSpacing={6} fz="sm" data-testid="depth-accounts-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Account</Table.Th>
                  <Table.Th ta="right">Trades</Table.Th>
                  <Table.Th ta="right">Maximum drawdown</Table.Th>
                  <Table.Th ta="right">% of starting balance</Table.Th>
                  <Table.Th ta="right">Current drawdown</Table.Th>
                  <Table.Th ta="right">Longest time under water</Table.Th>
                  <Table.Th ta="right">Recovery factor</Table.Th>
                  <Table.Th ta="right">Maximum drawdown in R</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {depth.accounts.map((a) => (
                  <Table.Tr key={a.key} data-testid="depth-account-row">
                    <Table.Th scope="row" fw={400}>
                      {a.label}
                    </Table.Th>
                    <Table.Td ta="right">{a.trades}</Table.Td>
                    <Table.Td ta="right">
                      <Money cents={-a.maxDrawdownCents} fw={400} />
                    </Table.Td>
                    <Table.Td ta="right">{share(a.maxDrawdownPercent)}</Table.Td>
                    <Table.Td ta="right">
                      <Money cents={-a.currentDrawdownCents} fw={400} />
                    </Table.Td>
                    <Table.Td ta="right">{days(a.longestUnderwaterDays)}</Table.Td>
                    <Table.Td ta="right">{ratio(a.recoveryFactor)}</Table.Td>
                    <Table.Td ta="right">{fallInR(a.r.maxDrawdownR)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        </ReportCard>
      )}

      <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="md">
        <ReportCard title="Net P&L by week" description="Monday to Sunday; a week across a month end stays one week" testId="report-depth-weeks">
          <div className={classes.tableScroll} tabIndex={0} role="region" aria-label="Net P&L by week">
            <Table striped verticalSpacing={6} fz="sm" data-testid="depth-weeks-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Week</Table.Th>
                  <Table.Th ta="right">Trading days</Table.Th>
                  <Table.Th ta="right">Trades</Table.Th>
                  <Table.Th ta="right">Net P&L</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[...depth.weeks].reverse().map((w) => (
                  <Table.Tr key={w.weekStart} data-testid="depth-week-row">
                    <Table.Th scope="row" fw={400}>{`${formatDay(w.weekStart, 'MMM d, yyyy')} to ${formatDay(w.weekEnd, 'MMM d')}`}</Table.Th>
                    <Table.Td ta="right">{w.tradingDays}</Table.Td>
                    <Table.Td ta="right">{w.trades}</Table.Td>
                    <Table.Td ta="right">
                      <Money cents={w.netCents} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        </ReportCard>
        <ReportCard
          title="Net P&L by time of entry"
          testId="report-depth-times"
          actions={
            <SegmentedControl
              size="xs"
              aria-label="Bucket size"
              data={[
                { value: '15', label: '15 min' },
                { value: '30', label: '30 min' },
              ]}
              value={minutes}
              onChange={(value) => setMinutes(value as '15' | '30')}
              data-testid="depth-bucket-size"
            />
          }
        >
          <div className={classes.tableScroll} tabIndex={0} role="region" aria-label="Net P&L by time of entry">
            <Table striped verticalSpacing={6} fz="sm" data-testid="depth-times-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Entry</Table.Th>
                  <Table.Th ta="right">Trades</Table.Th>
                  <Table.Th ta="right">Wins</Table.Th>
                  <Table.Th ta="right">Losses</Table.Th>
                  <Table.Th ta="right">Net P&L</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {buckets.buckets.map((b) => (
                  <Table.Tr key={b.fromMinute} data-testid="depth-time-row">
                    <Table.Th scope="row" fw={400}>
                      {b.label}
                    </Table.Th>
                    <Table.Td ta="right">{b.trades}</Table.Td>
                    <Table.Td ta="right">{b.wins}</Table.Td>
                    <Table.Td ta="right">{b.losses}</Table.Td>
                    <Table.Td ta="right">
                      <Money cents={b.netCents} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          {buckets.excluded > 0 && (
            <Text size="xs" c="dimmed" mt="xs" data-testid="depth-times-excluded">
              {`${buckets.excluded} trade${buckets.excluded === 1 ? '' : 's'} without an entry time ${buckets.excluded === 1 ? 'is' : 'are'} left out.`}
            </Text>
          )}
        </ReportCard>
      </SimpleGrid>
    </Stack>
  );
}
