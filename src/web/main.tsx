import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './app/global.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadFirstPage } from './app/router';
import { queryClient } from './app/providers';
import { sessionQuery } from './lib/session';
import { STORAGE_KEYS, readStorage } from './lib/storage-keys';

// Set the colour scheme before the first paint. The server's CSP forbids inline scripts, so Mantine's
// ColorSchemeScript cannot be used; this module runs before React renders anything. Dark is the default.
document.documentElement.setAttribute(
  'data-mantine-color-scheme',
  readStorage(STORAGE_KEYS.theme) === 'light' ? 'light' : 'dark',
);

// The session check starts now, while the page's code loads, rather than when the protected route first renders.
void queryClient.prefetchQuery(sessionQuery);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

const render = () =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// A prerendered page (dist/web/intro.html) stays on screen until its code is here, then is drawn over as it was.
if (document.documentElement.dataset.prerendered) void preloadFirstPage().then(render, render);
else render();
