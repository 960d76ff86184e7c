import { MantineProvider } from '@mantine/core';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { cssVariablesResolver, theme } from './app/theme';
import { IntroPage } from './features/intro/intro-page';

/**
 * The intro page as HTML, written into dist/web/intro.html at build time (scripts/prerender.mjs), so that a visitor's
 * first screen paints with the page's own styles before any script has loaded (issue 14: Lighthouse mobile scored the
 * JavaScript-drawn /intro 0.83, its first paint waiting 3 s for the code on slow 4G). The app then renders the same
 * page over it. Dark, the default scheme; a light-theme visitor's page turns light as soon as the code runs.
 */
export function renderIntro(): string {
  return renderToString(
    <MantineProvider theme={theme} forceColorScheme="dark" cssVariablesResolver={cssVariablesResolver}>
      <StaticRouter location="/intro">
        <IntroPage />
      </StaticRouter>
    </MantineProvider>,
  );
}
