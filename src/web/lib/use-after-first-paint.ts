import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/**
 * False on the first render, true once the screen's data has arrived and the browser is idle after showing it: code
 * a screen does not need to show itself (drag and drop, the toasts) loads then, not before the screen's first render
 * (issue 14). Once true it stays true.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  const loading = useIsFetching() > 0;
  useEffect(() => {
    if (ready || loading) return;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(timer);
  }, [ready, loading]);
  return ready;
}
