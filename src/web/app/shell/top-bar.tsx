import { ActionIcon, Burger, Group, Kbd, Text, UnstyledButton } from '@mantine/core';
import { IconBolt, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconPencil, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { ArmedTooltip } from '../../components/armed-tooltip';
import { Logo } from '../../components/logo';
import { mentorCommentsQuery, mentorViewsQuery } from '../../features/mentors/comments-query';
import { useUiModes } from '../../lib/ui-modes';
import { useMinuteClock, useTraderTime } from '../../shared/trader-clock';
import classes from './shell.module.css';

interface TopBarProps {
  collapsed: boolean;
  onToggleCollapsed: () => void;
  mobileOpened: boolean;
  onToggleMobile: () => void;
  onToggleTradingMode: () => void;
  onToggleEditMode: () => void;
  onOpenSearch: () => void;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const MOD_LABEL = isMac ? '⌘' : 'Ctrl';

export function TopBar(props: TopBarProps) {
  const { collapsed, onToggleCollapsed, mobileOpened, onToggleMobile, onToggleTradingMode, onToggleEditMode, onOpenSearch } = props;
  const now = useMinuteClock();
  const clock = useTraderTime();
  const { tradingMode, editMode } = useUiModes();

  return (
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap">
        <Burger
          opened={mobileOpened}
          onClick={onToggleMobile}
          hiddenFrom="sm"
          size="sm"
          aria-label={mobileOpened ? 'Close navigation' : 'Open navigation'}
          data-testid="mobile-nav-toggle"
        />
        <ArmedTooltip label={`${collapsed ? 'Expand' : 'Collapse'} sidebar (${MOD_LABEL} + [)`} withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            visibleFrom="sm"
            onClick={onToggleCollapsed}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
            data-testid="sidebar-toggle"
          >
            {collapsed ? (
              <IconLayoutSidebarLeftExpand size={20} aria-hidden="true" />
            ) : (
              <IconLayoutSidebarLeftCollapse size={20} aria-hidden="true" />
            )}
          </ActionIcon>
        </ArmedTooltip>
        <span className={classes.mobileLogo}>
          <Logo size={24} withName={false} />
        </span>
        <UnstyledButton className={classes.searchHint} onClick={onOpenSearch} data-testid="search-hint">
          <IconSearch size={16} aria-hidden="true" />
          <span className={classes.searchHintText}>Search…</span>
          <span className={classes.searchHintKeys} aria-hidden="true">
            <Kbd size="xs">{MOD_LABEL}</Kbd> <Kbd size="xs">K</Kbd>
          </span>
        </UnstyledButton>
      </Group>

      <Group gap={6} wrap="nowrap">
        <Text fz={{ base: 'xs', xs: 'sm' }} fw={600} className={classes.clock} data-testid="top-bar-clock">
          {/* EEE dd MMM and HH:mm, on the trader's clock, drawn once their zone is known. */}
          {now && clock.ready && (
            <time dateTime={now.toISOString()} title={`${clock.timeZone} (${clock.zoneName(now)})`} data-time-zone={clock.timeZone}>
              <span data-testid="top-bar-date">
                <span className={classes.clockWeekday}>{clock.format(now, 'EEE')} </span>
                {clock.format(now, 'dd MMM')}
              </span>{' '}
              <span data-testid="top-bar-time">{clock.format(now, 'HH:mm')}</span>
            </time>
          )}
        </Text>
        <MentorCommentsIndicator />
        <ArmedTooltip label={tradingMode ? 'Exit trading mode' : 'Enter trading mode'} withArrow>
          <ActionIcon
            variant={tradingMode ? 'filled' : 'subtle'}
            color={tradingMode ? undefined : 'gray'}
            size="lg"
            onClick={onToggleTradingMode}
            aria-label="Trading Mode"
            aria-pressed={tradingMode}
            data-testid="trading-mode-toggle"
          >
            <IconBolt size={20} aria-hidden="true" />
          </ActionIcon>
        </ArmedTooltip>
        <ArmedTooltip label={editMode ? 'Leave edit mode' : 'Edit layout'} withArrow>
          <ActionIcon
            variant={editMode ? 'filled' : 'subtle'}
            color={editMode ? undefined : 'gray'}
            size="lg"
            onClick={onToggleEditMode}
            aria-label="Edit Mode"
            aria-pressed={editMode}
            data-testid="edit-mode-toggle"
          >
            <IconPencil size={20} aria-hidden="true" />
          </ActionIcon>
        </ArmedTooltip>
      </Group>
    </Group>
  );
}

// The count's code loads only when there is something new: the first screen of a trader without mentors stays small.
const MentorCommentsCount = lazy(() => import('../../features/mentors/mentor-comments-indicator').then((m) => ({ default: m.MentorCommentsCount })));

/** The header's count of what is new from the trader's mentors (comments, views); nothing at all while there is none. */
function MentorCommentsIndicator() {
  const comments = useQuery(mentorCommentsQuery).data?.unseen ?? 0;
  const views = useQuery(mentorViewsQuery).data;
  const unseenViews = views?.unseen ?? 0;
  if (comments === 0 && unseenViews === 0) return null;
  return (
    <Suspense fallback={null}>
      <MentorCommentsCount comments={comments} views={views?.views ?? []} unseenViews={unseenViews} />
    </Suspense>
  );
}
