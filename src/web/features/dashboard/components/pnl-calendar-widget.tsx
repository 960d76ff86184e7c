import { ActionIcon, Button, Group, Loader, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { ArmedTooltip } from '../../../components/armed-tooltip';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronLeft, IconChevronRight, IconPlus, IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { buildPnlCalendar, shiftCalendarMonth, type PnlCalendarCell, type PnlCalendarWeek } from '../../../../domain/calendar';
import { formatCalendarDay, parseCalendarDay, formatDay } from '../../../../domain/dates';
import type { TradeLogNavState } from '../../../lib/events';
import type { RReport } from '../../../../contract/reports';
import { describeWithoutRisk, formatCompactR, formatR } from '../../../../domain/risk/format-r';
import { rFiguresQuery, taskStatusQuery, tradeStatsQuery, type TaskDayStatus } from '../../../shared/api';
import { useFigureUnit } from '../../../shared/figure-unit';
import { AccountSelector } from '../../accounts/account-selector';
import { useDashboard } from '../dashboard-context';
import { monthRange } from '../prefetch';
import { formatCompactUsd, formatCompactWinRate, formatSignedUsd, formatUsd, formatWinRate, plural, pnlColor } from '../format';
import classes from '../dashboard.module.css';
import { WidgetCard } from './widget-card';
import { withAllStyles } from '../../../lib/all-styles';

// Mantine's dates code loads with the picker, when the trader first opens it, not with the dashboard.
const CalendarMonthPicker = lazy(withAllStyles(() => import('./calendar-month-picker')));

const WEEKDAY_HEADERS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];
const MOBILE_QUERY = '(max-width: 47.99em)';

/** The PnL calendar, month view from Sunday, with the week column and the account selector. */
export function PnlCalendarWidget({ widgetId, type, onRemove }: { widgetId: string; type: string; onRemove?: () => void }) {
  const { account, accountReady, setAccount, today, openDay, openAccounts } = useDashboard();
  const navigate = useNavigate();
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const start = parseCalendarDay(today) ?? { year: 2000, month: 1 };
  const [month, setMonth] = useState({ year: start.year, month: start.month });
  const [picking, setPicking] = useState(false);
  const pickerId = useId();
  const monthButton = useRef<HTMLButtonElement>(null);
  const closePicker = () => {
    setPicking(false);
    monthButton.current?.focus();
  };
  const range = monthRange(formatCalendarDay(month.year, month.month, 1));
  const stats = useQuery({ ...tradeStatsQuery(account, range), enabled: accountReady });
  const taskStatus = useQuery(taskStatusQuery(range.from, range.to));
  const [unit] = useFigureUnit();
  const inR = unit === 'r';
  const r = useQuery({ ...rFiguresQuery(account, range), enabled: accountReady && inR });
  const rByDay = useMemo(() => new Map((r.data?.r.days ?? []).map((d) => [d.tradeDate, d] as const)), [r.data]);
  const rByWeek = useMemo(() => new Map((r.data?.r.weeks ?? []).map((w) => [w.weekStart, w] as const)), [r.data]);
  const rMonth = inR ? r.data?.r.summary : undefined;

  const calendar = useMemo(
    () => buildPnlCalendar({ year: month.year, month: month.month, days: stats.data?.by_day ?? [] }),
    [month.year, month.month, stats.data],
  );
  const statusByDay = useMemo(() => new Map((taskStatus.data ?? []).map((s) => [s.date, s] as const)), [taskStatus.data]);
  const title = formatDay(range.from, 'MMMM yyyy');
  const summary = calendar.summary;
  const compact = isMobile || type === 'pnl-calendar';

  const addTrade = () => {
    // Into the account the calendar shows (its picker starts on the default account), or the Trade Log's own.
    const state: TradeLogNavState = { openAddTrade: true, ...(account !== 'all' && account !== 'unassigned' && { addToAccount: account }) };
    navigate('/trade-log', { state });
  };

  return (
    <WidgetCard
      widgetId={widgetId}
      anchor="pnl-calendar"
      title="PnL Calendar"
      onRemove={onRemove}
      actions={
        <ArmedTooltip label="Manage accounts" withArrow>
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={openAccounts} aria-label="Manage accounts" data-screenshot-ignore>
            <IconSettings size={16} aria-hidden="true" />
          </ActionIcon>
        </ArmedTooltip>
      }
    >
      <Group justify="space-between" gap="xs" mb="sm" wrap="wrap">
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="default"
            size="md"
            onClick={() => setMonth((m) => shiftCalendarMonth(m.year, m.month, -1))}
            aria-label="Previous month"
          >
            <IconChevronLeft size={16} aria-hidden="true" />
          </ActionIcon>
          <UnstyledButton
            ref={monthButton}
            className={classes.monthButton}
            onClick={() => setPicking((open) => !open)}
            aria-expanded={picking}
            aria-controls={pickerId}
            aria-label={`${title}: choose a month`}
            data-testid="calendar-month-button"
          >
            <Text span fw={700} data-testid="calendar-month" aria-live="polite">
              {title}
            </Text>
            <IconChevronDown size={14} aria-hidden="true" className={classes.monthChevron} data-open={picking || undefined} />
          </UnstyledButton>
          <ActionIcon variant="default" size="md" onClick={() => setMonth((m) => shiftCalendarMonth(m.year, m.month, 1))} aria-label="Next month">
            <IconChevronRight size={16} aria-hidden="true" />
          </ActionIcon>
          {(stats.isFetching || (inR && r.isFetching)) && <Loader size="xs" ml={4} role="status" aria-label="Loading" />}
        </Group>
        <Group gap="xs" wrap="wrap">
          <AccountSelector value={account} onChange={setAccount} size="xs" w={180} />
          <Button size="xs" leftSection={<IconPlus size={14} aria-hidden="true" />} onClick={addTrade} data-screenshot-ignore>
            Add Trade
          </Button>
        </Group>
      </Group>

      {picking && (
        <div
          id={pickerId}
          className={classes.monthPicker}
          role="group"
          aria-label="Choose a month"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            closePicker();
          }}
        >
          <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading the month picker" />}>
            <CalendarMonthPicker
              year={month.year}
              month={month.month}
              onPick={(year, picked) => {
                setMonth({ year, month: picked });
                closePicker();
              }}
            />
          </Suspense>
        </div>
      )}

      {/* On mobile a monthly PnL summary is shown. */}
      <Group className={classes.monthSummary} data-testid="calendar-month-summary" gap="lg" mb="sm" display={isMobile ? 'flex' : 'none'}>
        <div>
          <Text size="xs" c="dimmed">
            Monthly PnL
          </Text>
          {inR ? (
            <Text fw={700} c={rTone(rMonth?.totalR)} data-testid="calendar-month-summary-r">
              {formatROrDash(rMonth?.totalR)}
            </Text>
          ) : (
            <Text fw={700} c={pnlColor(summary.pnlCents)} data-money>
              {formatSignedUsd(summary.pnlCents)}
            </Text>
          )}
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Trading days
          </Text>
          <Text fw={700}>{summary.tradingDays}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Win rate
          </Text>
          <Text fw={700}>{formatWinRate(summary.winRate, summary.wins + summary.losses)}</Text>
        </div>
      </Group>

      <div className={classes.calendarGrid} data-compact={compact || undefined} role="grid" aria-label={`PnL calendar, ${title}`}>
        <div role="row" className={classes.calendarRow}>
          {WEEKDAY_HEADERS.map((d) => (
            <div key={d} role="columnheader" className={classes.calendarHeader}>
              {d}
            </div>
          ))}
          <div role="columnheader" className={classes.calendarHeader}>
            Week
          </div>
        </div>
        {calendar.weeks.map((week) => (
          <div key={week.weekStart} role="row" className={classes.calendarRow}>
            {week.cells.map((cell) => (
              <DayCell
                key={cell.date}
                cell={cell}
                r={inR ? (rByDay.get(cell.date) ?? null) : undefined}
                isToday={cell.date === today}
                compact={compact}
                taskStatus={statusByDay.get(cell.date)}
                onOpen={() => openDay(cell.date)}
              />
            ))}
            <WeekCell week={week} compact={compact} r={inR ? (rByWeek.get(week.weekStart) ?? null) : undefined} />
          </div>
        ))}
      </div>
      {!isMobile && (
        <Group justify="flex-end" gap="md" mt="xs">
          <Text size="sm" c="dimmed">
            {summary.trades} {plural(summary.trades, 'trade', 'trades')} · {summary.tradingDays}{' '}
            {plural(summary.tradingDays, 'trading day', 'trading days')}
          </Text>
          {inR ? (
            <Text size="sm" fw={700} c={rTone(rMonth?.totalR)} data-testid="calendar-month-total">
              {formatROrDash(rMonth?.totalR)}
            </Text>
          ) : (
            <Text size="sm" fw={700} c={pnlColor(summary.pnlCents)} data-testid="calendar-month-total" data-money>
              {formatSignedUsd(summary.pnlCents)}
            </Text>
          )}
        </Group>
      )}
      {rMonth && rMonth.tradesWithoutRisk > 0 && (
        <Text size="xs" c="dimmed" ta={isMobile ? 'left' : 'right'} mt={4} data-testid="calendar-without-risk">
          {describeWithoutRisk(rMonth.tradesWithoutRisk)}: {rMonth.tradesWithoutRisk === 1 ? 'it is' : 'they are'} left out of the R figures.
        </Text>
      )}
    </WidgetCard>
  );
}

const STATUS_LABEL: Record<TaskDayStatus['status'], string> = {
  profit: 'Tasks: most done',
  breakeven: 'Tasks: half done',
  loss: 'Tasks: some done',
  none: 'Tasks: none done',
};

type RTotals = Omit<RReport['r']['days'][number], 'tradeDate'>;

/** '—' for trades none of which has a planned risk; a phone's cell rounds to fewer digits. */
const formatROrDash = (r: number | null | undefined, compact = false) =>
  r === null || r === undefined ? '—' : compact ? formatCompactR(r) : formatR(r);

/** R in a cell: a phone's rounded figure for the eye, and the exact one for a screen reader. */
function RAmount({
  r,
  compact,
  testId,
  color,
  title,
}: {
  r: number | null | undefined;
  compact: boolean;
  testId: string;
  color?: string;
  title?: string;
}) {
  return (
    <>
      <span className={classes.dayPnl} data-testid={testId} aria-hidden={compact || undefined} style={color ? { color } : undefined} title={title}>
        {formatROrDash(r, compact)}
      </span>
      {compact && <VisuallyHidden>{formatROrDash(r)}</VisuallyHidden>}
    </>
  );
}
const rTone = (r: number | null | undefined) => (r === null || r === undefined ? undefined : pnlColor(r > 0 ? 1 : r < 0 ? -1 : 0));
const rTint = (r: number | null) => (r === null ? 'grey' : r > 0 ? 'green' : r < 0 ? 'red' : 'grey');

function DayCell(props: {
  cell: PnlCalendarCell;
  /** The day in R when the calendar shows R (null: no trade with a planned risk that day, or its figures still loading). */
  r?: RTotals | null;
  isToday: boolean;
  compact: boolean;
  taskStatus: TaskDayStatus | undefined;
  onOpen: () => void;
}) {
  const { cell, isToday, compact, taskStatus, onOpen, r } = props;
  const inR = r !== undefined;
  if (!cell.inMonth) return <div role="gridcell" className={classes.dayCell} data-outside />;
  const hasTrades = cell.pnlCents !== null && cell.trades > 0;
  const tradesLabel = `${cell.trades} ${plural(cell.trades, 'trade', 'trades')}`;
  const content = (
    <>
      <span className={classes.dayNumber}>
        {cell.dayOfMonth}
        {taskStatus && taskStatus.status !== 'none' && (
          <span
            className={classes.taskDot}
            data-status={taskStatus.status}
            title={`${STATUS_LABEL[taskStatus.status]} (${taskStatus.completed}/${taskStatus.total})`}
          />
        )}
      </span>
      {cell.pnlCents !== null && (
        <>
          {inR ? (
            <RAmount
              r={r?.totalR}
              compact={compact}
              testId="day-pnl"
              title={r && r.tradesWithoutRisk > 0 ? describeWithoutRisk(r.tradesWithoutRisk) : undefined}
            />
          ) : (
            <>
              <span className={classes.dayPnl} data-testid="day-pnl" data-money aria-hidden={compact || undefined}>
                {compact ? formatCompactUsd(cell.pnlCents) : formatUsd(cell.pnlCents)}
              </span>
              {/* A screen reader hears the amount to the cent, not the phone's rounded one. */}
              {compact && <VisuallyHidden>{formatUsd(cell.pnlCents)}</VisuallyHidden>}
            </>
          )}
          {/* Every day shows its trade count and win rate, a phone's too, in fewer letters. */}
          <span className={classes.dayMeta}>
            <span data-testid="day-trades">
              {compact ? (
                <>
                  <span aria-hidden="true">{cell.trades} tr</span>
                  <VisuallyHidden>{tradesLabel}</VisuallyHidden>
                </>
              ) : (
                tradesLabel
              )}
            </span>
            <span data-testid="day-winrate">
              {compact ? (
                <>
                  <span aria-hidden="true">{formatCompactWinRate(cell.winRate)}</span>
                  <VisuallyHidden>{cell.winRate === null ? 'no win rate' : `${formatWinRate(cell.winRate)} win rate`}</VisuallyHidden>
                </>
              ) : (
                formatWinRate(cell.winRate)
              )}
            </span>
          </span>
        </>
      )}
    </>
  );
  const common = {
    className: classes.dayCell,
    'data-tint': (inR && cell.tint ? rTint(r?.totalR ?? null) : cell.tint) ?? undefined,
    'data-today': isToday || undefined,
    'data-testid': `calendar-day-${cell.date}`,
  };
  if (!hasTrades) {
    return (
      <div role="gridcell" {...common}>
        {content}
      </div>
    );
  }
  // The accessible name is the visible text, after the full date for screen readers.
  return (
    <div role="gridcell" className={classes.dayCellWrap}>
      <UnstyledButton {...common} onClick={onOpen}>
        <VisuallyHidden>{formatDay(cell.date, 'EEEE, MMMM d')}:</VisuallyHidden>
        {content}
      </UnstyledButton>
    </div>
  );
}

function WeekCell({ week, compact, r }: { week: PnlCalendarWeek; compact: boolean; r?: RTotals | null }) {
  const inR = r !== undefined;
  const tint = week.tradingDays === 0 ? undefined : inR ? rTint(r?.totalR ?? null) : week.pnlCents > 0 ? 'green' : week.pnlCents < 0 ? 'red' : 'grey';
  return (
    <div role="gridcell" className={classes.weekCell} data-testid={`calendar-week-${week.weekOfMonth}`} data-tint={tint}>
      <span className={classes.weekLabel}>{compact ? `W${week.weekOfYear}` : `Week ${week.weekOfYear}`}</span>
      {inR ? (
        <RAmount
          r={week.tradingDays > 0 ? r?.totalR : 0}
          compact={compact}
          testId="week-pnl"
          color={week.tradingDays > 0 ? rTone(r?.totalR) : undefined}
        />
      ) : (
        <span className={classes.dayPnl} data-testid="week-pnl" data-money style={{ color: pnlColor(week.tradingDays > 0 ? week.pnlCents : null) }}>
          {compact ? formatCompactUsd(week.pnlCents) : formatUsd(week.pnlCents)}
        </span>
      )}
      <span className={classes.dayMeta} data-testid="week-days">
        {week.tradingDays} {week.tradingDays === 1 ? 'day' : 'days'}
      </span>
    </div>
  );
}
