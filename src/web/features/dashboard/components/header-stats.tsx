import { Sparkline } from '../../../components/charts';
import { ActionIcon, Avatar, Button, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Ring } from '../../../components/ring';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { formatCalendarDay, formatDay, getDaysInMonth, parseCalendarDay } from '../../../../domain/dates';
import { formatProfitFactor, getWinRateBand } from '../../../../domain/stats';
import { buildDailyPnlSeries, extendToLatestDay, getLastDaysRange, sumMonthPnl } from '../../../../domain/stats/pnl-series';
import { preferencesQuery, profileQuery, rFiguresQuery } from '../../../shared/api';
import { describeWithoutRisk, formatR } from '../../../../domain/risk/format-r';
import { useFigureUnit } from '../../../shared/figure-unit';
import { useUpdatePreferences } from '../api';
import { useUiModes } from '../../../lib/ui-modes';
import { useDashboard } from '../dashboard-context';
import { BAND_FILL, BAND_TONE, TONE_COLOR, formatSignedUsd, formatUsd, formatWinRate, pnlColor } from '../format';
import { readStatsOrder, type StatsWidgetId } from '../layout/widgets';
import classes from '../dashboard.module.css';
import { avatarSrc, greetingName } from '../../../shared/profile-names';

const SortableStatsGrid = lazy(() => import('./header-stats-sortable').then((m) => ({ default: m.SortableStatsGrid })));

const MOBILE_QUERY = '(max-width: 47.99em)';

/**
 * Profile welcome, monthly PnL with a 30-day sparkline, profit factor, win rate. A carousel with
 * arrows and dots on phones; a drag-to-reorder grid on larger screens, the order kept in stats_widgets_order.
 */
export function HeaderStats() {
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const { data: preferences } = useQuery(preferencesQuery);
  const order = readStatsOrder(preferences?.stats_widgets_order);
  const save = useUpdatePreferences({ errorMessage: 'Failed to save the widget order' });
  const cards: Record<StatsWidgetId, ReactNode> = {
    welcome: <WelcomeCard />,
    'monthly-pnl': <MonthlyPnlCard />,
    'profit-factor': <ProfitFactorCard />,
    'win-rate': <WinRateCard />,
  };
  if (isMobile) return <StatsCarousel order={order} cards={cards} />;
  return <StatsGrid order={order} cards={cards} onReorder={(next) => save.mutate({ stats_widgets_order: next })} />;
}

/** The four cards in a row; in edit mode they can be dragged into a new order (the drag code loads then). */
function StatsGrid(props: { order: StatsWidgetId[]; cards: Record<StatsWidgetId, ReactNode>; onReorder: (order: StatsWidgetId[]) => void }) {
  const { editMode } = useUiModes();
  const plain = (
    <div className={classes.statsGrid} data-testid="header-stats">
      {props.order.map((id) => (
        <div key={id} className={classes.statItem} data-testid={`stat-${id}`}>
          {props.cards[id]}
        </div>
      ))}
    </div>
  );
  if (!editMode) return plain;
  return (
    <Suspense fallback={plain}>
      <SortableStatsGrid {...props} titles={STAT_TITLES} />
    </Suspense>
  );
}

const STAT_TITLES: Record<StatsWidgetId, string> = {
  welcome: 'Profile',
  'monthly-pnl': 'Monthly PnL',
  'profit-factor': 'Profit Factor',
  'win-rate': 'Win Rate',
};

function StatsCarousel({ order, cards }: { order: StatsWidgetId[]; cards: Record<StatsWidgetId, ReactNode> }) {
  const { hash } = useLocation();
  const [index, setIndex] = useState(0);
  // The search palette's #user-profile anchor lives on the welcome card: show that slide.
  const welcomeIndex = Math.max(0, order.indexOf('welcome'));
  useEffect(() => {
    if (hash === '#user-profile') setIndex(welcomeIndex);
  }, [hash, welcomeIndex]);
  const count = order.length;
  const current = order[index] ?? order[0]!;
  return (
    <div className={classes.carousel} data-testid="header-stats-carousel" aria-roledescription="carousel">
      <Group gap={6} wrap="nowrap" align="stretch">
        <ActionIcon
          variant="default"
          className={classes.carouselArrow}
          onClick={() => setIndex((i) => (i - 1 + count) % count)}
          aria-label="Previous stat"
        >
          <IconChevronLeft size={16} aria-hidden="true" />
        </ActionIcon>
        <div
          className={classes.carouselSlide}
          aria-roledescription="slide"
          aria-label={`${index + 1} of ${count}: ${STAT_TITLES[current]}`}
          data-testid={`stat-${current}`}
        >
          {cards[current]}
        </div>
        <ActionIcon variant="default" className={classes.carouselArrow} onClick={() => setIndex((i) => (i + 1) % count)} aria-label="Next stat">
          <IconChevronRight size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
      <Group justify="center" gap={6} mt={8}>
        {order.map((id, i) => (
          <UnstyledButton
            key={id}
            className={classes.carouselDot}
            data-active={i === index || undefined}
            onClick={() => setIndex(i)}
            aria-label={`Show ${STAT_TITLES[id]}`}
            aria-current={i === index || undefined}
          />
        ))}
      </Group>
    </div>
  );
}

function StatCard({ label, subtitle, children }: { label: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" className={classes.statCard}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={subtitle ? 0 : 4}>
        {label}
      </Text>
      {subtitle}
      {children}
    </Card>
  );
}

function WelcomeCard() {
  const { openProfile } = useDashboard();
  const { data: profile } = useQuery(profileQuery);
  const name = greetingName(profile);
  return (
    <Card withBorder radius="md" padding="md" className={classes.statCard} id="user-profile">
      <Group wrap="nowrap" gap="sm" h="100%">
        <Avatar src={avatarSrc(profile)} alt="" radius="xl" size={48} color="indigo" data-testid="welcome-avatar">
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={2} miw={0}>
          <Text size="xs" c="dimmed">
            Welcome back,
          </Text>
          <Text fw={700} size="lg" truncate data-testid="welcome-name">
            {name}
          </Text>
          <Button variant="subtle" size="compact-xs" px={0} onClick={openProfile} data-screenshot-ignore w="fit-content">
            Profile settings
          </Button>
        </Stack>
      </Group>
    </Card>
  );
}

function MonthlyPnlCard() {
  const [unit] = useFigureUnit();
  return unit === 'r' ? <MonthlyRCard /> : <MonthlyUsdCard />;
}

/** The month so far in R: of the trades with a planned risk, the others counted apart. */
function MonthlyRCard() {
  const { account, accountReady, today } = useDashboard();
  const parts = parseCalendarDay(today);
  const monthStart = parts ? formatCalendarDay(parts.year, parts.month, 1) : today;
  // To the month's end, not today: the evening session's trades are dated tomorrow (sumMonthPnl).
  const monthEnd = parts ? formatCalendarDay(parts.year, parts.month, getDaysInMonth(parts.year, parts.month)) : today;
  const { data } = useQuery({ ...rFiguresQuery(account, { from: monthStart, to: monthEnd }), enabled: accountReady });
  const summary = data?.r.summary;
  const totalR = summary?.totalR ?? null;
  return (
    <StatCard label="Monthly PnL">
      <Text fw={800} size="xl" c={totalR === null ? undefined : pnlColor(totalR)} data-testid="monthly-pnl-value">
        {!summary ? '…' : totalR === null ? '—' : formatR(totalR)}
      </Text>
      <Text size="xs" c="dimmed" data-testid="monthly-r-note">
        {summary && summary.tradesWithoutRisk > 0
          ? describeWithoutRisk(summary.tradesWithoutRisk)
          : summary && summary.trades === 0
            ? 'No trades this month'
            : 'In R: net P&L over planned risk'}
      </Text>
    </StatCard>
  );
}

function MonthlyUsdCard() {
  const { stats, today, now, timeZone } = useDashboard();
  const { monthCents, series, table, span } = useMemo(() => {
    const days = (stats?.by_day ?? []).map((d) => ({ date: d.date, pnlCents: d.pnlCents }));
    const monthCents = sumMonthPnl(days, today);
    // The sparkline covers the last 30 days (and the evening session's trades, dated tomorrow).
    const points = buildDailyPnlSeries({ days, ...extendToLatestDay(getLastDaysRange(30, now, timeZone), days) });
    const series = points.map((p) => p.cumulativeCents / 100);
    // The days the card covers, in the trader's zone: today's 30 days there, not the browser's.
    const first = points[0]?.date;
    const last = points.at(-1)?.date;
    const span = first && last ? `${formatDay(first, 'MMM d')} – ${formatDay(last, 'MMM d')}` : '';
    const table = {
      caption: 'PnL over the last 30 days, added up day by day',
      columns: ['Day', 'PnL so far'],
      rows: points.map((p) => [formatDay(p.date, 'MMM d'), formatUsd(p.cumulativeCents)]),
    };
    return { monthCents, series, table, span };
  }, [stats, today, now, timeZone]);
  // The amount is the calendar month's so far (as on the calendar); the sparkline is the last 30 days, named below it.
  return (
    <StatCard
      label="Monthly PnL"
      subtitle={
        <Text size="xs" c="dimmed" mb={4} data-testid="monthly-pnl-month">
          {formatDay(today, 'MMMM yyyy')}
        </Text>
      }
    >
      <Group justify="space-between" wrap="nowrap" align="flex-end">
        <Text fw={800} size="xl" c={pnlColor(monthCents)} data-testid="monthly-pnl-value" data-money>
          {formatSignedUsd(monthCents)}
        </Text>
        <Sparkline
          w={110}
          h={44}
          data={series}
          curveType="monotone"
          trendColors={{ positive: 'teal.6', negative: 'red.6', neutral: 'gray.5' }}
          fillOpacity={0.25}
          table={table}
        />
      </Group>
      <Text size="xs" c="dimmed">
        Last 30 days trend{span && <span data-testid="monthly-pnl-range">: {span}</span>}
      </Text>
    </StatCard>
  );
}

function ProfitFactorCard() {
  const [unit] = useFigureUnit();
  return unit === 'r' ? <ProfitFactorRCard /> : <ProfitFactorUsdCard />;
}

/**
 * The profit factor in R: R won over R lost, of every trade with a planned risk (the dollar card's trades
 * are every trade), the others counted apart.
 */
function ProfitFactorRCard() {
  const { account, accountReady } = useDashboard();
  const { data } = useQuery({ ...rFiguresQuery(account, 'all-time'), enabled: accountReady });
  const summary = data?.r.summary;
  const ratio = summary?.profitFactorR ?? null;
  const won = summary && summary.averageWinR !== null;
  return (
    <StatCard label="Profit Factor">
      <Text
        fw={800}
        size="xl"
        c={ratio === null ? (won ? TONE_COLOR.positive : undefined) : ratio >= 1 ? TONE_COLOR.positive : TONE_COLOR.negative}
        data-testid="profit-factor-value"
      >
        {!summary ? '…' : ratio !== null ? ratio.toFixed(2) : won ? '∞' : '—'}
      </Text>
      <Text size="xs" c="dimmed" data-testid="profit-factor-r-note">
        {!summary
          ? ''
          : summary.tradesWithRisk === 0
            ? summary.trades === 0
              ? 'No trades yet'
              : 'No trade with a planned risk'
            : summary.tradesWithoutRisk > 0
              ? `R won over R lost; ${describeWithoutRisk(summary.tradesWithoutRisk)}`
              : 'R won over R lost'}
      </Text>
    </StatCard>
  );
}

function ProfitFactorUsdCard() {
  const { stats } = useDashboard();
  const summary = stats?.summary;
  // JSON has no Infinity: null is a profit with no loss. No trades: no figure ('—').
  const value = formatProfitFactor(summary?.profitFactor ?? Number.POSITIVE_INFINITY, summary?.trades ?? 0);
  const ratio = summary?.profitFactor ?? (summary && summary.grossProfitCents > 0 ? 3 : 0);
  return (
    <StatCard label="Profit Factor">
      <Text fw={800} size="xl" c={ratio >= 1 ? TONE_COLOR.positive : ratio > 0 ? TONE_COLOR.negative : undefined} data-testid="profit-factor-value">
        {value}
      </Text>
      <Text size="xs" c="dimmed" data-money={summary ? true : undefined}>
        {summary ? `${formatSignedUsd(summary.grossProfitCents)} / ${formatSignedUsd(summary.grossLossCents)}` : 'No trades yet'}
      </Text>
    </StatCard>
  );
}

function WinRateCard() {
  const { stats } = useDashboard();
  const summary = stats?.summary;
  const winRate = summary?.winRate ?? 0;
  const decided = summary ? summary.wins + summary.losses : 0;
  const band = getWinRateBand(winRate);
  return (
    <StatCard label="Win Rate">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text fw={800} size="xl" c={decided > 0 ? BAND_TONE[band] : 'dimmed'} data-testid="win-rate-value">
            {formatWinRate(winRate, decided)}
          </Text>
          <Text size="xs" c="dimmed">
            {summary ? `${summary.wins}W · ${summary.losses}L · ${summary.breakEvens}BE` : 'No trades yet'}
          </Text>
        </div>
        <Ring size={52} thickness={6} value={decided > 0 ? winRate : null} color={BAND_FILL[band]} aria-hidden="true" />
      </Group>
    </StatCard>
  );
}
