import { Anchor, Button, Group, Paper, Select, SimpleGrid, Text } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDay } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { getMonthGrid, getMonthsInRange } from '../../../domain/reports/calendar';
import type { CalendarDayFigure } from '../../../domain/reports/calendar';
import { calendarCsv } from '../../../domain/reports/csv-cells';
import { WEEKDAY_SHORT, type ReportFilter } from '../../../domain/reports/filter';
import { describeWithoutRisk } from '../../../domain/risk/format-r';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { calendarQuery } from './api';
import { csvFileName, downloadCsv } from './csv';
import { Money, NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import { describeRBasis, RValue, rText } from './r-figures';
import classes from './reports.module.css';
import { useReportsSource } from './reports-source';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The year calendar: every trading day's net P&L, month by month; a day opens its trades. On the
 * $ / R switch, each day's, month's and the year's R, of the trades with a planned risk.
 */
export function CalendarReport({
  filter,
  year,
  onYearChange,
  today,
}: {
  filter: ReportFilter;
  year: number | null;
  onYearChange: (year: number) => void;
  today: string;
}) {
  const { base, tradeLogHref } = useReportsSource();
  const query = useQuery(calendarQuery(filter, year, base));
  const [unit] = useFigureUnit();
  const inR = unit === 'r';
  const data = query.data?.calendar;
  const byDay = new Map((data?.days ?? []).map((d) => [d.tradeDate, d]));
  const exportCsv = () => {
    const table = calendarCsv(data, inR);
    return downloadCsv(csvFileName(`calendar-${data?.year ?? ''}${inR ? '-in-r' : ''}`, today), table.header, table.rows);
  };
  const dayClass = (figure: CalendarDayFigure) =>
    inR
      ? figure.r.totalR === null
        ? classes.dayNoR
        : figure.r.totalR >= 0
          ? classes.dayWin
          : classes.dayLoss
      : figure.netCents >= 0
        ? classes.dayWin
        : classes.dayLoss;
  const dayFigure = (figure: CalendarDayFigure) =>
    inR
      ? `${rText(figure.r.totalR)}${figure.r.tradesWithoutRisk > 0 ? ` (${describeWithoutRisk(figure.r.tradesWithoutRisk)})` : ''}`
      : formatUsd(figure.netCents);
  const years = data ? [...new Set([...data.years, data.year])].sort((a, b) => b - a) : [];
  // Only the months the filter's range reaches: a range of one quarter shows three months, not a year of blanks.
  const months = data ? getMonthsInRange(data.year, query.data?.basis.range ?? { from: null, to: null }) : [];

  return (
    <ReportCard
      title={data ? `${data.year} calendar` : 'Year calendar'}
      description={query.data?.basis.computedFrom}
      busy={query.isPlaceholderData}
      testId="report-calendar"
      actions={
        <>
          <Select
            aria-label="Year"
            size="xs"
            w={110}
            data={years.map(String)}
            value={data ? String(data.year) : null}
            onChange={(value) => value && onYearChange(Number(value))}
            allowDeselect={false}
            data-testid="calendar-year"
          />
          <FigureUnitSwitch />
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />}
            onClick={() => void exportCsv()}
            disabled={!data?.days.length}
            data-testid="calendar-csv"
          >
            Export CSV
          </Button>
        </>
      }
    >
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !data ? (
        <ReportLoading height={400} />
      ) : data.years.length === 0 ? (
        <NoTrades />
      ) : (
        <>
          <Group gap="lg" mb="sm">
            {inR ? (
              <Text size="sm" data-testid="calendar-total-r">
                Total R <RValue r={data.r.totalR} />
              </Text>
            ) : (
              <Text size="sm">
                Net P&L <Money cents={data.netCents} />
              </Text>
            )}
            <Text size="sm">
              Trades{' '}
              <Text span fw={600}>
                {data.trades}
              </Text>
            </Text>
            <Text size="sm">
              Trading days{' '}
              <Text span fw={600}>
                {data.days.length}
              </Text>
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="sm" className={classes.calendarGrid}>
            {months.map((number) => {
              const i = number - 1;
              const name = MONTHS[i]!;
              const month = data.months[i]!;
              return (
                <Paper key={name} withBorder radius="sm" p="xs" className={classes.month} data-testid="calendar-month">
                  <Group justify="space-between" mb={4} gap={4}>
                    <Text fw={700} size="sm">
                      {name}
                    </Text>
                    {month.trades === 0 ? (
                      <Text size="xs" c="dimmed">
                        —
                      </Text>
                    ) : inR ? (
                      <RValue r={month.r.totalR} size="xs" />
                    ) : (
                      <Money cents={month.netCents} size="xs" />
                    )}
                  </Group>
                  <table className={classes.monthTable}>
                    <caption className={classes.caption}>{`${name} ${data.year}: ${inR ? 'R' : 'net P&L'} by trading day`}</caption>
                    <thead>
                      <tr>
                        {[1, 2, 3, 4, 5, 6, 7].map((d) => (
                          <th key={d} scope="col" abbr={WEEKDAY_SHORT[d]}>
                            {WEEKDAY_SHORT[d]!.slice(0, 2)}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {getMonthGrid(data.year, i + 1).map((week, w) => (
                        <tr key={w}>
                          {week.map((day, d) => {
                            const figure = day ? byDay.get(day) : undefined;
                            return (
                              <td key={d} className={figure ? dayClass(figure) : undefined}>
                                {day &&
                                  (figure && tradeLogHref ? (
                                    <Anchor
                                      component={Link}
                                      to={tradeLogHref({ ...filter, range: 'custom', from: day, to: day })}
                                      className={classes.dayLink}
                                      aria-label={`${formatDay(day, 'EEEE, MMMM d')}: ${figure.trades} trade${figure.trades === 1 ? '' : 's'}, ${inR ? 'total' : 'net'} ${dayFigure(figure)}`}
                                      title={`${formatDay(day, 'EEE MMM d')}: ${dayFigure(figure)} (${figure.trades})`}
                                      data-testid="calendar-day"
                                    >
                                      {Number(day.slice(8))}
                                    </Anchor>
                                  ) : figure ? (
                                    // Without a Trade Log to open (a mentor's page), the day's figure is told, not linked.
                                    <span
                                      className={classes.dayLink}
                                      aria-label={`${formatDay(day, 'EEEE, MMMM d')}: ${figure.trades} trade${figure.trades === 1 ? '' : 's'}, ${inR ? 'total' : 'net'} ${dayFigure(figure)}`}
                                      title={`${formatDay(day, 'EEE MMM d')}: ${dayFigure(figure)} (${figure.trades})`}
                                      data-testid="calendar-day"
                                    >
                                      {Number(day.slice(8))}
                                    </span>
                                  ) : (
                                    <span className={classes.dayIdle}>{Number(day.slice(8))}</span>
                                  ))}
                              </td>
                            );
                          })}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Paper>
              );
            })}
          </SimpleGrid>
          {inR && (
            <Text size="xs" c="dimmed" mt="xs" data-testid="calendar-r-note">
              {describeRBasis(data.r.tradesWithRisk, data.r.tradesWithoutRisk)} Each month&apos;s and the year&apos;s R are summed from their trades;
              a day whose trades have no planned risk is shaded grey.
            </Text>
          )}
        </>
      )}
    </ReportCard>
  );
}
