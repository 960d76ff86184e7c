import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { ShellLayout } from './app/shell/shell-layout';
import { cssVariablesResolver, theme } from './app/theme';
import { DashboardTitleRow } from './features/dashboard/dashboard-title-row';
import { IntroPage } from './features/intro/intro-page';

/**
 * Pages drawn as HTML at build time (scripts/prerender.mjs), so that the first screen paints with its own styles
 * before any script has loaded (on Lighthouse's slow 4G the JavaScript-drawn pages first painted after 3-4 s).
 * The app then draws the real page over them. Dark, the default scheme; a light-theme trader's page turns light at
 * once (the boot module sets the scheme before the first paint).
 */
function draw(location: string, page: ReactNode): string {
  return renderToString(
    <MantineProvider theme={theme} forceColorScheme="dark" cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={new QueryClient()}>
        <StaticRouter location={location}>{page}</StaticRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** The intro page, whole: it shows no trader's data. */
export function renderIntro(): string {
  return draw('/intro', <IntroPage />);
}

/**
 * The signed-in dashboard's frame: the shell (top bar, sidebar) and the page's heading, without the trader's figures,
 * which arrive with the app. Sent for / to a browser holding a session cookie (src/server/http/static.ts).
 */
export function renderDashboardFrame(): string {
  return draw(
    '/',
    <Routes>
      <Route element={<ShellLayout />}>
        <Route path="/" element={<DashboardTitleRow />} />
      </Route>
    </Routes>,
  );
}
