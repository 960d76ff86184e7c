import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

let screenShown = false;
const waitingForScreen = new Set<() => void>();

/**
 * Rendered by the layouts after a page's own content (inside the same Suspense boundary), so that its effect runs
 * once a page has first been put on screen, its code loaded.
 */
export function ScreenShown() {
  useEffect(() => {
    // A prerendered page (scripts/prerender.mjs) is now the app's: its effects have run.
    delete document.documentElement.dataset.prerendered;
    if (screenShown) return;
    screenShown = true;
    for (const notify of waitingForScreen) notify();
    waitingForScreen.clear();
  }, []);
  return null;
}

function useScreenShown(): boolean {
  const [shown, setShown] = useState(screenShown);
  useEffect(() => {
    if (shown) return;
    const notify = () => setShown(true);
    waitingForScreen.add(notify);
    return () => {
      waitingForScreen.delete(notify);
    };
  }, [shown]);
  return shown;
}

/**
 * False on the first render, true once the first page is on screen, its data has arrived and the browser is idle
 * after showing it: code a screen does not need to show itself (drag and drop, the toasts) loads then, not before the
 * screen's first render. Once true it stays true.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  const shown = useScreenShown();
  const loading = useIsFetching() > 0;
  useEffect(() => {
    if (ready || loading || !shown) return;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(timer);
  }, [ready, loading, shown]);
  return ready;
}
