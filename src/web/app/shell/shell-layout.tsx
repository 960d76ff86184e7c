import { AppShell } from '@mantine/core';
import { useDisclosure, useHotkeys, useMediaQuery } from '@mantine/hooks';
import { partialMatchKey, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Outlet, useLocation } from 'react-router';
import { pageFadeClass } from '../../lib/page-fade';
import { ScreenShown } from '../../lib/use-after-first-paint';
import { sessionQuery } from '../../lib/session';
import { isSigningOut } from '../../lib/sign-out-state';
import { STORAGE_KEYS, readStorage, writeStorage } from '../../lib/storage-keys';
import { setUiModes, useUiModes } from '../../lib/ui-modes';
import { EditModeOverlay, TradingModeOverlay } from './mode-overlays';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import classes from './shell.module.css';
import { useLegacyQuickLinksMigration } from './use-legacy-quick-links';
import { useSidebarCollapsed } from './use-sidebar-collapsed';
import { withAllStyles } from '../../lib/all-styles';

// The search palette (Mantine Spotlight) and the logout confirmation load when first opened, not with the first screen.
const LogoutModal = lazy(withAllStyles(() => import('./logout-modal').then((m) => ({ default: m.LogoutModal }))));
const SearchPalette = lazy(withAllStyles(() => import('../../features/search/search-palette').then((m) => ({ default: m.SearchPalette }))));

// "Mobile width under 768 px" (Mantine's sm breakpoint is 48em = 768 px).
const MOBILE_QUERY = '(max-width: 47.99em)';
const TRADING_OVERLAY_MS = 1000;
const MAIN_ID = 'main-content';

/** Moves the focus to the page itself, without a '#main-content' in the address (the router would take it as a route). */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  event.preventDefault();
  main.focus({ preventScroll: true });
  main.scrollIntoView({ block: 'start' });
}

export function ShellLayout() {
  const { pathname } = useLocation();
  // The dashboard collapses the sidebar at load. Opened on the dashboard, the shell starts collapsed,
  // rather than painting open and then moving the whole page when the dashboard arrives (layout shift).
  useState(() => pathname === '/' && writeStorage(STORAGE_KEYS.sidebarCollapsed, 'true'));
  const [collapsed, setCollapsed] = useSidebarCollapsed(pathname === '/');
  const [mobileOpened, mobile] = useDisclosure(false);
  const [logoutOpened, logout] = useDisclosure(false);
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const { tradingMode, editMode } = useUiModes();
  const [tradingMessage, setTradingMessage] = useState<string | null>(null);
  const [editOverlay, setEditOverlay] = useState(false);
  const overlayTimer = useRef<number | undefined>(undefined);
  const queryClient = useQueryClient();
  // Signing out clears the cached data, once the signed-in screens have left: removed while they are
  // still mounted, their queries would be fetched again and refused by the ended session.
  // A session that ended under the trader leaves the same way: whoever signs in next must not see their data.
  useEffect(
    () => () => {
      if (isSigningOut()) queryClient.clear();
      else if (queryClient.getQueryData(sessionQuery.queryKey) === null)
        queryClient.removeQueries({ predicate: (query) => !partialMatchKey(query.queryKey, sessionQuery.queryKey) });
    },
    [queryClient],
  );
  useLegacyQuickLinksMigration();

  // The sidebar is collapsed on the Trade Log page.
  useEffect(() => {
    if (pathname === '/trade-log') setCollapsed(true);
  }, [pathname, setCollapsed]);

  // A route change closes the mobile drawer.
  useEffect(() => {
    mobile.close();
  }, [pathname]);

  useEffect(() => () => window.clearTimeout(overlayTimer.current), []);

  // Escape closes the phone's menu drawer, as it closes every other overlay.
  useEffect(() => {
    if (!mobileOpened) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) mobile.close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mobileOpened]);

  const [searchUsed, setSearchUsed] = useState(false);
  const [logoutUsed, setLogoutUsed] = useState(false);
  if (logoutOpened && !logoutUsed) setLogoutUsed(true);
  const openSearch = () => {
    setSearchUsed(true);
    void import('@mantine/spotlight').then(({ spotlight }) => spotlight.open());
  };

  // Ctrl/Cmd + [ toggles the sidebar on desktop; on mobile the drawer has its own burger.
  useHotkeys([
    [
      'mod+[',
      () => {
        if (!isMobile) setCollapsed((value) => !value);
      },
    ],
  ]);
  // Ctrl/Cmd + K opens the search palette from anywhere, a text field or editor included (// in the notebook it did nothing there); once loaded, the palette answers the same keys itself outside text fields.
  useHotkeys([['mod+K', openSearch]], []);

  const toggleTradingMode = () => {
    const next = !tradingMode;
    setUiModes({ tradingMode: next });
    setTradingMessage(next ? 'Entering Trading Mode' : 'Exiting Trading Mode');
    window.clearTimeout(overlayTimer.current);
    overlayTimer.current = window.setTimeout(() => setTradingMessage(null), TRADING_OVERLAY_MS);
  };

  const toggleEditMode = () => {
    const next = !editMode;
    setUiModes({ editMode: next });
    setEditOverlay(next && readStorage(STORAGE_KEYS.editOverlayDismissed) !== 'true');
  };

  const dismissEditOverlayForever = () => {
    writeStorage(STORAGE_KEYS.editOverlayDismissed, 'true');
    setEditOverlay(false);
  };

  const desktopCollapsed = collapsed && !isMobile;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: { base: 260, sm: desktopCollapsed ? 72 : 240 },
        breakpoint: 'sm',
        collapsed: { mobile: !mobileOpened },
      }}
      padding={{ base: 'sm', sm: 'lg' }}
      data-sidebar-collapsed={desktopCollapsed || undefined}
    >
      {/* The first stop of the Tab key (it took 14 Tabs to reach the page past the bar and the sidebar). */}
      <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={skipToMain} data-testid="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <TopBar
          collapsed={desktopCollapsed}
          onToggleCollapsed={() => setCollapsed((value) => !value)}
          mobileOpened={mobileOpened}
          onToggleMobile={mobile.toggle}
          onToggleTradingMode={toggleTradingMode}
          onToggleEditMode={toggleEditMode}
          onOpenSearch={openSearch}
        />
      </AppShell.Header>
      <AppShell.Navbar
        data-testid="sidebar"
        data-collapsed={desktopCollapsed ? 'true' : 'false'}
        aria-label="Sidebar"
        inert={isMobile && !mobileOpened}
      >
        <Sidebar collapsed={desktopCollapsed} onNavigate={mobile.close} onLogout={logout.open} />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        {/* The shell paints while a page's code loads; moving between pages keeps the old one until the new is ready. */}
        <Suspense fallback={null}>
          <div key={pathname} className={pageFadeClass(pathname)}>
            <Outlet />
            <ScreenShown />
          </div>
        </Suspense>
      </AppShell.Main>

      {searchUsed && (
        <Suspense fallback={null}>
          <SearchPalette onSignOut={logout.open} />
        </Suspense>
      )}
      {logoutUsed && (
        <Suspense fallback={null}>
          <LogoutModal opened={logoutOpened} onClose={logout.close} />
        </Suspense>
      )}
      <TradingModeOverlay message={tradingMessage} />
      {editMode && editOverlay && <EditModeOverlay onDismiss={() => setEditOverlay(false)} onDismissForever={dismissEditOverlayForever} />}
    </AppShell>
  );
}
