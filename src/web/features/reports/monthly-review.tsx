import { AreaChart } from '@mantine/charts';
import { ActionIcon, Button, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { formatDay } from '../../../domain/dates';
import { formatMoney } from '../../../domain/money';
import { getMonthGrid } from '../../../domain/reports/calendar';
import { formatFigure, listOverviewFigures } from '../../../domain/reports/figures';
import { WEEKDAY_SHORT, type ReportFilter } from '../../../domain/reports/filter';
import { REVIEW_MONTH, shiftMonth } from '../../../domain/reports/monthly-review';
import type { MonthlyReviewReport } from '../../../contract/monthly-review';
import { pnlColor } from '../../lib/tone';
import { monthlyReviewQuery } from './api';
import { figureText } from './overview-report';
import { formatDollarsAxis, formatDollarsTooltip, NoTrades, ReportCard, ReportError, ReportLoading, toDollars } from './report-card';
import classes from './reports.module.css';
import review from './monthly-review.module.css';
import { useReportsSource } from './reports-source';

/** The Overview's figures a month's review leads with, in this order. */
const HEADLINE = [
  'netCents',
  'grossCents',
  'feesCents',
  'trades',
  'winRate',
  'profitFactor',
  'averageWinCents',
  'averageLossCents',
  'bestDayCents',
  'worstDayCents',
] as const;
const SIGNED: ReadonlySet<string> = new Set(['netCents', 'grossCents', 'averageWinCents', 'averageLossCents', 'bestDayCents', 'worstDayCents']);

type Review = MonthlyReviewReport['review'];
interface RankedRow {
  key: string;
  label: string;
  trades: number;
  winRate: number | null;
  netCents: number;
}

/** 'November 2026' */
export const monthLabel = (month: string) => formatDay(`${month}-01`, 'MMMM yyyy');

/**
 * The monthly review: one calendar month of the Reports filter on one page, made to be printed or saved as a PDF.
 * Every figure is the server's (the same ones the Overview, Calendar, Equity, Breakdowns, Depth and Mistakes reports
 * give for that month); this page only lays them out.
 */
export function MonthlyReview({ filter, month, onMonthChange }: { filter: ReportFilter; month: string; onMonthChange: (month: string) => void }) {
  const { base } = useReportsSource();
  const query = useQuery(monthlyReviewQuery(filter, month, base));
  const currency = query.data?.basis.currency ?? 'USD';
  const money = (cents: number) => formatMoney(cents, currency);

  return (
    <ReportCard
      title={`Monthly review: ${monthLabel(month)}`}
      description={
        query.data ? (
          <>
            {query.data.basis.computedFrom}. The month takes the place of the filter&apos;s date range; the other filters apply.
            {query.data.basis.currencyNote && ` ${query.data.basis.currencyNote}`}
          </>
        ) : undefined
      }
      busy={query.isPlaceholderData}
      testId="report-monthly-review"
      actions={
        <>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Previous month"
            onClick={() => onMonthChange(shiftMonth(month, -1))}
            data-testid="review-previous"
          >
            <IconChevronLeft size={16} aria-hidden="true" />
          </ActionIcon>
          <TextInput
            type="month"
            aria-label="Month"
            size="xs"
            w={150}
            value={month}
            onChange={(event) => REVIEW_MONTH.test(event.currentTarget.value) && onMonthChange(event.currentTarget.value)}
            data-testid="review-month"
          />
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Next month"
            onClick={() => onMonthChange(shiftMonth(month, 1))}
            data-testid="review-next"
          >
            <IconChevronRight size={16} aria-hidden="true" />
          </ActionIcon>
          <Button
            variant="filled"
            size="compact-sm"
            leftSection={<IconPrinter size={16} aria-hidden="true" />}
            onClick={() => window.print()}
            data-testid="review-print"
          >
            Print
          </Button>
        </>
      }
    >
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !query.data ? (
        <ReportLoading height={480} />
      ) : query.data.review.overview.trades === 0 ? (
        <NoTrades what={`trades in ${monthLabel(month)}`} />
      ) : (
        <ReviewBody review={query.data.review} money={money} />
      )}
    </ReportCard>
  );
}

function ReviewBody({ review: data, money }: { review: Review; money: (cents: number) => string }) {
  const figures = listOverviewFigures(data.overview);
  const { streaks, mistakes } = data;
  return (
    <Stack gap="lg" className={review.review} data-testid="monthly-review">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="xs" verticalSpacing="xs" className={classes.figures}>
        {HEADLINE.map((key) => {
          const figure = figures.find((f) => f.key === key)!;
          return (
            <Paper key={key} withBorder radius="sm" p="xs" className={review.block} data-testid={`review-figure-${key}`}>
              <Text size="xs" c="dimmed" fw={600}>
                {figure.label}
              </Text>
              <Text fz="lg" fw={700} c={SIGNED.has(key) ? pnlColor(figure.value) : undefined} className={classes.numeric} data-testid="figure-value">
                {figure.kind === 'money' && figure.value !== null ? money(figure.value) : figureText(figure)}
              </Text>
              {figure.note && (
                <Text size="xs" c="dimmed">
                  {figure.note}
                </Text>
              )}
            </Paper>
          );
        })}
      </SimpleGrid>

      <div className={review.twoColumns}>
        <Section title="Daily P&L">
          <MonthCalendar review={data} money={money} />
        </Section>
        <Section title="Equity curve">
          <EquityCurve review={data} />
        </Section>
      </div>

      <div className={review.twoColumns}>
        <Ranked title="Instruments" ranked={data.instruments} money={money} testId="review-instruments" />
        <Ranked title="Setups" ranked={data.setups} money={money} testId="review-setups" />
      </div>
      <div className={review.twoColumns}>
        <Ranked title="Playbooks" ranked={data.playbooks} money={money} testId="review-playbooks" />
        <Section title="Streaks of days">
          <Table withRowBorders={false} verticalSpacing={2} data-testid="review-streaks">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">Longest winning streak</Table.Th>
                <Table.Td className={classes.numeric}>{days(streaks.longestWinningDays)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Longest losing streak</Table.Th>
                <Table.Td className={classes.numeric}>{days(streaks.longestLosingDays)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Streak at the month&apos;s end</Table.Th>
                <Table.Td className={classes.numeric}>
                  {streaks.current.kind === null ? 'a flat day' : `${days(streaks.current.days)} ${streaks.current.kind}`}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Section>
      </div>

      {mistakes.rows.length > 0 && (
        <Section title="Mistakes">
          <Text size="sm" mb={4}>
            {mistakes.tradesWithMistakes} of {data.overview.trades} trades carry a mistake.
          </Text>
          <Table withTableBorder verticalSpacing={4} horizontalSpacing="xs" fz="sm" className={review.table} data-testid="review-mistakes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Mistake</Table.Th>
                <Table.Th scope="col" ta="right">
                  Trades
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Net P&L
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mistakes.rows.map((row) => (
                <Table.Tr key={row.tag}>
                  <Table.Th scope="row">{row.tag}</Table.Th>
                  <Table.Td ta="right" className={classes.numeric}>
                    {row.trades}
                  </Table.Td>
                  <Table.Td ta="right" c={pnlColor(row.netCents)} className={classes.numeric}>
                    {money(row.netCents)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>
      )}
    </Stack>
  );
}

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className={review.block}>
      <Title order={3} size="h5" mb={6}>
        {title}
      </Title>
      {children}
    </section>
  );
}

/** The month's weeks, Monday first: each trading day's net P&L in its cell. */
function MonthCalendar({ review: data, money }: { review: Review; money: (cents: number) => string }) {
  const byDay = new Map(data.days.map((d) => [d.tradeDate, d]));
  const [year, month] = data.month.split('-').map(Number) as [number, number];
  return (
    <table className={`${classes.monthTable} ${review.calendar}`} data-testid="review-calendar">
      <caption className={classes.caption}>{`${monthLabel(data.month)}: net P&L by trading day`}</caption>
      <thead>
        <tr>
          {[1, 2, 3, 4, 5, 6, 7].map((d) => (
            <th key={d} scope="col" abbr={WEEKDAY_SHORT[d]}>
              {WEEKDAY_SHORT[d]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {getMonthGrid(year, month).map((week, w) => (
          <tr key={w}>
            {week.map((day, d) => {
              const figure = day ? byDay.get(day) : undefined;
              return (
                <td
                  key={d}
                  className={figure ? (figure.netCents >= 0 ? classes.dayWin : classes.dayLoss) : undefined}
                  data-testid={figure ? 'review-day' : undefined}
                >
                  {day && (
                    <>
                      <span className={review.dayNumber}>{Number(day.slice(8))}</span>
                      {figure && <span className={review.dayAmount}>{money(figure.netCents)}</span>}
                    </>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EquityCurve({ review: data }: { review: Review }) {
  const chartData = useMemo(() => data.equity.map((p) => ({ x: formatDay(p.tradeDate, 'MMM d'), Equity: toDollars(p.equityCents) })), [data.equity]);
  return (
    <div className={review.chart} data-testid="review-equity">
      <AreaChart
        h={220}
        data={chartData}
        dataKey="x"
        series={[{ name: 'Equity', label: 'Net P&L', color: 'indigo.6' }]}
        curveType="linear"
        fillOpacity={0.25}
        valueFormatter={formatDollarsTooltip}
        yAxisProps={{ tickFormatter: formatDollarsAxis, width: 64 }}
        gridAxis="y"
        areaChartProps={{ accessibilityLayer: false }}
      />
    </div>
  );
}

function Ranked({
  title,
  ranked,
  money,
  testId,
}: {
  title: string;
  ranked: { top: readonly RankedRow[]; bottom: readonly RankedRow[] };
  money: (cents: number) => string;
  testId: string;
}) {
  const groups = [
    { side: 'best', heading: 'Made the most', rows: ranked.top },
    { side: 'worst', heading: 'Lost the most', rows: ranked.bottom },
  ].filter((group) => group.rows.length > 0);
  return (
    <Section title={title}>
      {groups.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid={testId}>
          None made or lost money this month.
        </Text>
      ) : (
        <Table withTableBorder verticalSpacing={4} horizontalSpacing="xs" fz="sm" className={review.table} data-testid={testId}>
          <caption className={classes.caption}>{`${title}: the best and the worst by net P&L`}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{title.replace(/s$/, '')}</Table.Th>
              <Table.Th scope="col" ta="right">
                Trades
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Win rate
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Net P&L
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          {groups.map((group) => (
            <Table.Tbody key={group.side} data-side={group.side}>
              <Table.Tr>
                <Table.Th colSpan={4} scope="rowgroup" c="dimmed" fz="xs">
                  {group.heading}
                </Table.Th>
              </Table.Tr>
              {group.rows.map((row) => (
                <Table.Tr key={row.key}>
                  <Table.Th scope="row">{row.label}</Table.Th>
                  <Table.Td ta="right" className={classes.numeric}>
                    {row.trades}
                  </Table.Td>
                  <Table.Td ta="right" className={classes.numeric}>
                    {formatFigure('percent', row.winRate)}
                  </Table.Td>
                  <Table.Td ta="right" c={pnlColor(row.netCents)} className={classes.numeric}>
                    {money(row.netCents)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          ))}
        </Table>
      )}
    </Section>
  );
}
