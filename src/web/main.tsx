import './app/first-screen-styles';
import './app/global.css';

import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadFirstPage } from './app/router';
import { queryClient } from './app/providers';
import { sessionQuery } from './lib/session';
import { STORAGE_KEYS, readStorage } from './lib/storage-keys';

// Set the colour scheme before the first paint. The server's CSP forbids inline scripts, so Mantine's
// ColorSchemeScript cannot be used; this module runs before React renders anything. Dark is the default.
document.documentElement.setAttribute('data-mantine-color-scheme', readStorage(STORAGE_KEYS.theme) === 'light' ? 'light' : 'dark');

// The session check starts now, while the page's code loads, rather than when the protected route first renders.
void queryClient.prefetchQuery(sessionQuery);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The first render is a transition: React works through the page in slices of a few milliseconds, letting the browser
// paint and answer taps in between, instead of one long task that a phone spent ~0.7 s in.
const render = () => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
};
// A prerendered page (dist/web/intro.html, dashboard.html) stays on screen until what it needs is here, then the app
// draws the same page over it. Asking for the page's chunks is a task of its own: Vite adds a preload link for each
// of them, which on a phone's CPU doubled the long task that runs this module (~75 ms of ~130).
if (document.documentElement.dataset.prerendered) setTimeout(() => void preloadFirstPage().then(render, render), 0);
else render();
