import { Alert, Button, Group } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconCamera, IconLayoutGridAdd, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LazyMenu } from '../../components/lazy-menu';
import { useSession } from '../../lib/session';
import { RESET_DASHBOARD_EVENT, type DashboardNavState } from '../../lib/events';
import { useUiModes } from '../../lib/ui-modes';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { accountsQuery, preferencesQuery, queryKeys, tradeStatsQuery, type AccountFilter } from '../../shared/api';
import { useAccountChoice } from '../accounts/use-account-choice';
import { useMinuteClock, useTraderTime } from '../../shared/trader-clock';
import { runOnboarding, useUpdatePreferences } from './api';
import { BalanceWidget } from './components/balance-widget';
import { EconomicEventsWidget } from './components/economic-events-widget';
import { HeaderStats } from './components/header-stats';
import { FigureUnitSwitch } from '../../shared/figure-unit';
import { PnlCalendarWidget } from './components/pnl-calendar-widget';
import { QuickNotes } from './components/quick-notes';
import { QuickLinksWidget } from './components/quick-links-widget';
import { PropAccountsWidget } from './components/prop-accounts-widget';
import { ScoreWidget } from './components/score-widget';
import { TasksWidget } from './components/tasks-widget';
import { MonthWinRateWidget, WinRateWidget } from './components/win-rate-widgets';
import { WidgetGrid } from './components/widget-grid';
import { DashboardContext, type DashboardContextValue } from './dashboard-context';
import { DashboardTitleRow } from './dashboard-title-row';
import { dashboardDaysFrom } from './prefetch';
import classes from './dashboard.module.css';
import {
  RESIZE_SETTLE_MS,
  STATS_WIDGET_IDS,
  applyArrangement,
  defaultWidgets,
  forceCalendar,
  getColumnCount,
  hiddenWidgets,
  hideAllWidgets,
  readStoredWidgets,
  setWidgetVisible,
  type DashboardWidget,
} from './layout/widgets';
import { withAllStyles } from '../../lib/all-styles';

const CAPTURE_ID = 'dashboard-capture';

const ProfileSettingsDialog = lazy(
  withAllStyles(() => import('./components/profile-settings-dialog').then((m) => ({ default: m.ProfileSettingsDialog }))),
);
// The day's trades and the account manager load when first opened, not with the first screen.
const DayTradesDialog = lazy(withAllStyles(() => import('./components/day-trades-dialog').then((m) => ({ default: m.DayTradesDialog }))));
const AccountsPanel = lazy(withAllStyles(() => import('./components/accounts-panel').then((m) => ({ default: m.AccountsPanel }))));
const LayoutConfirmDialog = lazy(withAllStyles(() => import('./components/layout-confirm-dialog').then((m) => ({ default: m.LayoutConfirmDialog }))));
const ScreenshotDialog = lazy(withAllStyles(() => import('./components/screenshot-dialog').then((m) => ({ default: m.ScreenshotDialog }))));

/** True from the first time `opened` is true: a lazily loaded dialog then stays mounted, so it can close smoothly. */
function useOpenedOnce(opened: boolean): boolean {
  const [once, setOnce] = useState(opened);
  if (opened && !once) setOnce(true);
  return once || opened;
}

/** Onboarding runs once per signed-in user and page load; the server makes it happen at most once ever. */
const onboardingStarted = new Set<string>();
/** What trading mode keeps on the dashboard, besides the quick notes: the trader's tasks and the day's events. */
const FOCUS_WIDGET_IDS: ReadonlySet<string> = new Set(['tasks', 'forex-news']);
const ONBOARDING_ATTEMPTS = 3;

function useOnboarding(userId: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId || onboardingStarted.has(userId)) return;
    onboardingStarted.add(userId);
    let cancelled = false;
    const attempt = async (n: number): Promise<void> => {
      try {
        const { created } = await runOnboarding();
        if (!created) return;
        void queryClient.invalidateQueries({ queryKey: queryKeys.trades.all });
        void queryClient.invalidateQueries({ queryKey: queryKeys.tasks.all });
        void queryClient.invalidateQueries({ queryKey: queryKeys.preferences.all });
      } catch {
        // Up to 3 attempts, waiting attempt x 1 s (as the spec's other start-up calls).
        if (cancelled || n >= ONBOARDING_ATTEMPTS) {
          onboardingStarted.delete(userId);
          return;
        }
        await new Promise((resolve) => window.setTimeout(resolve, n * 1000));
        return attempt(n + 1);
      }
    };
    void attempt(1);
    return () => {
      cancelled = true;
    };
  }, [userId, queryClient]);
}

/** Window width, read at start and again 1 s after the last resize. */
function useSettledWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    let timer: number | undefined;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setWidth(window.innerWidth), RESIZE_SETTLE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      window.clearTimeout(timer);
    };
  }, []);
  return width;
}

/**
 * The dashboard anchors: scroll to the section once it has rendered, and keep it in view while
 * the widgets above it grow as their data and chart code arrive (for 5 s, or until the trader scrolls themselves).
 */
function useHashScroll(hash: string, ready: boolean) {
  useEffect(() => {
    if (!hash || !ready) return;
    const id = decodeURIComponent(hash.slice(1));
    const started = Date.now();
    let scrolled = false;
    let lastTop: number | null = null;
    const stop = () => {
      window.clearInterval(timer);
      for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
    };
    for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
    const timer = window.setInterval(() => {
      const element = document.getElementById(id);
      const elapsed = Date.now() - started;
      if (!element) {
        if (elapsed > 3000) stop();
        return;
      }
      const top = element.getBoundingClientRect().top + window.scrollY;
      if (!scrolled) {
        // Wait until the section stops moving (two readings 100 ms apart agree), or 3 s whatever the page is doing.
        if (top === lastTop || elapsed > 3000) {
          element.scrollIntoView({ behavior: 'smooth', block: 'start' });
          scrolled = true;
        }
      } else if (top !== lastTop) {
        element.scrollIntoView({ block: 'start' });
      }
      lastTop = top;
      if (elapsed > 5000) stop();
    }, 100);
    return stop;
  }, [hash, ready]);
}

const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

type Confirm = 'reset' | 'clear' | null;

/** Dashboard home. */
export function DashboardPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const userId = session.data?.user.id;
  useOnboarding(userId);

  // The sidebar is set collapsed at load.
  const [, setSidebarCollapsed] = useLocalStorage<boolean>({
    key: STORAGE_KEYS.sidebarCollapsed,
    defaultValue: false,
    getInitialValueInEffect: false,
    serialize: (value) => (value ? 'true' : 'false'),
    deserialize: (value) => value === 'true',
  });
  useEffect(() => setSidebarCollapsed(true), [setSidebarCollapsed]);

  const preferences = useQuery(preferencesQuery);
  const { timeZone, today: todayAt } = useTraderTime();
  // Renewed each minute, so "today" turns over at midnight on the trader's clock.
  const now = useMinuteClock() ?? new Date();
  const today = todayAt(now);
  // The calendar's picker opens on the default account, and follows it
  // when another is set as default; the trader's own pick lasts the browser session.
  const accounts = useQuery(accountsQuery);
  const [chosenAccount, setAccount] = useAccountChoice('dashboard', accounts.isError ? [] : accounts.data);
  const accountReady = chosenAccount !== null;
  const account: AccountFilter = chosenAccount ?? 'all';
  const daysFrom = dashboardDaysFrom(now);
  const stats = useQuery({ ...tradeStatsQuery(account, {}, '', daysFrom), enabled: accountReady });
  const width = useSettledWidth();
  const columnCount = getColumnCount(width);

  const save = useUpdatePreferences({ errorMessage: 'Failed to save the dashboard layout' });
  const widgets = useMemo(() => {
    const stored = preferences.data?.widgets;
    // Never saved: the default layout. Saved but not a list: the spec's fallback, a calendar alone.
    const base = stored === null || stored === undefined ? defaultWidgets() : readStoredWidgets(stored);
    return forceCalendar(base, width);
  }, [preferences.data?.widgets, width]);
  const saveWidgets = useCallback((next: DashboardWidget[]) => save.mutate({ widgets: next }), [save]);
  // Trading mode is a focus mode: only the widgets that help while trading, no money figures (docs/guide/trade-log.md).
  const { tradingMode } = useUiModes();
  const shownWidgets = useMemo(() => (tradingMode ? widgets.filter((w) => FOCUS_WIDGET_IDS.has(w.id)) : widgets), [tradingMode, widgets]);

  const [dayOpen, setDayOpen] = useState<string | null>(null);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const profileUsed = useOpenedOnce(profileOpen);
  const shareUsed = useOpenedOnce(shareOpen);
  const dayUsed = useOpenedOnce(dayOpen !== null);
  const accountsUsed = useOpenedOnce(accountsOpen);
  const confirmUsed = useOpenedOnce(confirm !== null);

  // Reset Dashboard from the search palette: navigation state on arrival, or an event when already here.
  useEffect(() => {
    const state = location.state as DashboardNavState | null;
    if (state?.resetDashboard) {
      setConfirm('reset');
      navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state: null });
    }
  }, [location.state, location.pathname, location.hash, navigate]);
  useEffect(() => {
    const onReset = () => setConfirm('reset');
    window.addEventListener(RESET_DASHBOARD_EVENT, onReset);
    return () => window.removeEventListener(RESET_DASHBOARD_EVENT, onReset);
  }, []);

  useHashScroll(location.hash, preferences.isSuccess);

  const context: DashboardContextValue = {
    account,
    accountReady,
    setAccount,
    timeZone,
    today,
    now,
    stats: stats.data,
    statsLoading: !accountReady || stats.isPending,
    openDay: setDayOpen,
    openAccounts: () => setAccountsOpen(true),
    openProfile: () => setProfileOpen(true),
    hideWidget: (id) => saveWidgets(setWidgetVisible(widgets, id, false)),
  };

  const renderWidget = (widget: DashboardWidget): ReactNode => {
    const props = { widgetId: widget.id, onRemove: () => context.hideWidget(widget.id) };
    switch (widget.id) {
      case 'tradelog-pnl-calendar':
        return <PnlCalendarWidget {...props} type={widget.type} />;
      case 'forex-news':
        return <EconomicEventsWidget {...props} />;
      case 'tasks':
        return <TasksWidget {...props} />;
      case 'edgebook-score':
        return <ScoreWidget {...props} />;
      case 'all-time-winrate':
        return <WinRateWidget {...props} />;
      case 'month-winrate':
        return <MonthWinRateWidget {...props} />;
      case 'monthly-pnl-chart':
        return <BalanceWidget {...props} />;
      case 'quick-links':
        return <QuickLinksWidget {...props} />;
      case 'prop-accounts':
        return <PropAccountsWidget {...props} />;
      default:
        return null;
    }
  };

  const addable = hiddenWidgets(widgets);
  const confirmAction = () => {
    if (confirm === 'reset') save.mutate({ widgets: defaultWidgets(), stats_widgets_order: [...STATS_WIDGET_IDS], layout: null });
    if (confirm === 'clear') saveWidgets(hideAllWidgets(widgets));
    setConfirm(null);
  };

  return (
    <DashboardContext.Provider value={context}>
      <DashboardTitleRow>
        <Group gap="xs" wrap="wrap" data-testid="dashboard-toolbar">
          {!tradingMode && <FigureUnitSwitch />}
          {!tradingMode && (
            <Button variant="light" size="xs" leftSection={<IconCamera size={14} aria-hidden="true" />} onClick={() => setShareOpen(true)}>
              Share
            </Button>
          )}
          <LazyMenu
            target={(props) => (
              <Button
                variant="default"
                size="xs"
                leftSection={<IconLayoutGridAdd size={14} aria-hidden="true" />}
                disabled={addable.length === 0}
                {...props}
              >
                Add widget
              </Button>
            )}
            choices={addable.map((w) => ({ key: w.id, label: w.title, onClick: () => saveWidgets(setWidgetVisible(widgets, w.id, true)) }))}
          />
          <Button variant="default" size="xs" leftSection={<IconTrash size={14} aria-hidden="true" />} onClick={() => setConfirm('clear')}>
            Clear widgets
          </Button>
          <Button variant="default" size="xs" leftSection={<IconRefresh size={14} aria-hidden="true" />} onClick={() => setConfirm('reset')}>
            Reset Dashboard
          </Button>
        </Group>
      </DashboardTitleRow>

      <div id={CAPTURE_ID} className={classes.capture}>
        {tradingMode ? (
          <Alert variant="light" color="blue" mt="md" data-testid="trading-mode-notice">
            Trading mode: your PnL, balance and statistics are hidden until you exit it. Your tasks, notes and the day&apos;s events stay.
          </Alert>
        ) : (
          <HeaderStats />
        )}
        <WidgetGrid
          widgets={shownWidgets}
          columnCount={columnCount}
          pinned={<QuickNotes />}
          renderWidget={renderWidget}
          onArrange={(columns) => {
            // A drag while some widgets are set aside would push them to the ends of their columns.
            if (!tradingMode) saveWidgets(applyArrangement(widgets, columns));
          }}
        />
      </div>

      {dayUsed && (
        <Suspense fallback={null}>
          <DayTradesDialog date={dayOpen} account={account} onClose={() => setDayOpen(null)} />
        </Suspense>
      )}
      {accountsUsed && (
        <Suspense fallback={null}>
          <AccountsPanel opened={accountsOpen} onClose={() => setAccountsOpen(false)} account={account} onSelect={setAccount} />
        </Suspense>
      )}
      {/* The crop (react-easy-crop) and the capture (html-to-image) load the first time their dialog opens. */}
      {profileUsed && (
        <Suspense fallback={null}>
          <ProfileSettingsDialog opened={profileOpen} onClose={() => setProfileOpen(false)} />
        </Suspense>
      )}
      {shareUsed && (
        <Suspense fallback={null}>
          <ScreenshotDialog opened={shareOpen} onClose={() => setShareOpen(false)} targetId={CAPTURE_ID} />
        </Suspense>
      )}
      {confirmUsed && (
        <Suspense fallback={null}>
          <LayoutConfirmDialog confirm={confirm} onCancel={() => setConfirm(null)} onConfirm={confirmAction} />
        </Suspense>
      )}
    </DashboardContext.Provider>
  );
}
