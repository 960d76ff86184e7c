import { Component, createElement, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { prefetchDashboard } from '../features/dashboard/prefetch';
import { sessionQuery } from '../lib/session';
import { withAllStyles } from '../lib/all-styles';
import { SHELL_PAGES, type ShellPageId } from '../lib/pages';
import { wasSignedIn } from '../lib/storage-keys';
import { ProtectedRoute } from './protected-route';
import { queryClient } from './providers';
import { PublicLayout } from './public-layout';
import { RouteError } from './route-error';
import { ShellLayout } from './shell/shell-layout';

/**
 * Each page is its own chunk, loaded when its route is first visited. A page whose code was loaded before the first
 * render (`preload`) renders at once instead of suspending: the prerendered /intro is drawn over without a loader.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K, firstScreen = false) {
  let loaded: ComponentType | undefined;
  // A page other than the first screens' waits for the rest of Mantine's styles (they are not in the entry).
  const loadWithStyles = firstScreen ? load : withAllStyles(load);
  const fetchPage = async () => {
    loaded = (await loadWithStyles())[name];
    return { default: loaded };
  };
  const Lazy = lazy(fetchPage);
  const Page = () => createElement(loaded ?? Lazy);
  Page.preload = fetchPage;
  return Page;
}

const IntroPage = page(() => import('../features/intro/intro-page'), 'IntroPage', true);
const LoginPage = page(() => import('../features/auth/login-page'), 'LoginPage');
const RegisterPage = page(() => import('../features/auth/register-page'), 'RegisterPage');
const ForgotPasswordPage = page(() => import('../features/auth/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('../features/auth/reset-password-page'), 'ResetPasswordPage');
const NotFoundPage = page(() => import('../features/not-found/not-found-page'), 'NotFoundPage');
const DashboardPage = page(() => import('../features/dashboard/dashboard-page'), 'DashboardPage', true);
const TradeLogPage = page(() => import('../features/trade-log/trade-log-page'), 'TradeLogPage');
const ReportsPage = page(() => import('../features/reports/reports-page'), 'ReportsPage');
const ReflectPage = page(() => import('../features/reflect/reflect-page'), 'ReflectPage');
const ReflectAiPage = page(() => import('../features/reflect-ai/reflect-ai-page'), 'ReflectAiPage');
const NotebookPage = page(() => import('../features/notebook/notebook-page'), 'NotebookPage');
const JournalPage = page(() => import('../features/journal/journal-page'), 'JournalPage');
const TradeDetailsPage = page(() => import('../features/trade-details/trade-details-page'), 'TradeDetailsPage');
const TutorialsPage = page(() => import('../features/tutorials/tutorials-page'), 'TutorialsPage');
const MarketDataPage = page(() => import('../features/market-data/market-data-page'), 'MarketDataPage');
const PropAccountPage = page(() => import('../features/prop/prop-account-page'), 'PropAccountPage');
const PlaybooksPage = page(() => import('../features/playbooks/playbooks-page'), 'PlaybooksPage');
const PlaybookPage = page(() => import('../features/playbooks/playbook-page'), 'PlaybookPage');
const ConnectionsPage = page(() => import('../features/connections/connections-page'), 'ConnectionsPage');
const MentoringPage = page(() => import('../features/mentors/mentoring-page'), 'MentoringPage');

/** The page drawn at each address of the signed-in app (the addresses, with their palette entries, are SHELL_PAGES). */
const SHELL_PAGE_COMPONENTS: Record<ShellPageId, ComponentType> = {
  dashboard: DashboardPage,
  tradeLog: TradeLogPage,
  reports: ReportsPage,
  playbooks: PlaybooksPage,
  playbook: PlaybookPage,
  reflect: ReflectPage,
  reflectAi: ReflectAiPage,
  notebook: NotebookPage,
  journal: JournalPage,
  tradeDetails: TradeDetailsPage,
  tutorials: TutorialsPage,
  marketData: MarketDataPage,
  propAccount: PropAccountPage,
  connections: ConnectionsPage,
  mentoring: MentoringPage,
  mentorView: MentoringPage,
};

/** How long the prerendered dashboard frame waits for the session check and data before the app draws over it anyway. */
const FIRST_PAGE_WAIT_MS = 3000;

/**
 * Loads what the page the app opens on needs to render at once over its prerendered drawing (scripts/prerender.mjs):
 * the page's code, and for the dashboard's frame the session check and the dashboard's data too. No loader then
 * replaces the drawn page, and the first render is not cut short by data arriving in the middle of it: React renders
 * a store's change at once, in one long task, when it comes during a transition (~0.5 s on a phone).
 */
export async function preloadFirstPage(): Promise<void> {
  const drawn = document.documentElement.dataset.prerendered;
  if (drawn === 'intro' && window.location.pathname === '/intro') await IntroPage.preload();
  if (drawn === 'dashboard' && window.location.pathname === '/') {
    const ready = Promise.all([queryClient.fetchQuery(sessionQuery).catch(() => undefined), dashboardData]);
    const wait = new Promise((resolve) => window.setTimeout(resolve, FIRST_PAGE_WAIT_MS));
    await Promise.all([DashboardPage.preload(), Promise.race([ready, wait])]);
  }
}

// The dashboard's data requests start with the page's code and the session check, not after them.
const dashboardData = window.location.pathname === '/' && wasSignedIn() ? prefetchDashboard(queryClient) : null;

/**
 * The app's routes. /test-tags and /animation-demo are not built.
 * Declared as elements (BrowserRouter) rather than a data router: the app loads no route data through the router,
 * and the data router's code was half the router's bytes before the first screen.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Suspense fallback={<FullPageLoader />}>
          <Routes>
            <Route element={<PublicLayout />}>
              <Route path="/intro" element={<IntroPage />} />
              <Route path="/login" element={<LoginPage />} />
              <Route path="/register" element={<RegisterPage />} />
              <Route path="/forgot-password" element={<ForgotPasswordPage />} />
              <Route path="/reset-password" element={<ResetPasswordPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
            <Route element={<ProtectedRoute />}>
              <Route element={<ShellLayout />}>
                {(Object.keys(SHELL_PAGES) as ShellPageId[]).map((id) => (
                  <Route key={id} path={SHELL_PAGES[id].path} element={createElement(SHELL_PAGE_COMPONENTS[id])} />
                ))}
              </Route>
            </Route>
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}

/** An error thrown while a route renders (or its code fails to load) shows RouteError until the trader moves on. */
function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <ErrorBoundary pathname={useLocation().pathname}>{children}</ErrorBoundary>;
}

class ErrorBoundary extends Component<{ pathname: string; children: ReactNode }, { error: unknown; at: string | null }> {
  override state = { error: null as unknown, at: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: { error: unknown; at: string | null }) {
    if (state.error === null) return null;
    // Remember where it failed; once the location changes, render the routes again.
    if (state.at === null) return { at: props.pathname };
    return state.at === props.pathname ? null : { error: null, at: null };
  }

  override render() {
    return this.state.error === null ? this.props.children : <RouteError error={this.state.error} />;
  }
}
