import { useEffect, useState } from 'react';

// Spec part 1 §9: "Clock update 60 s".
const CLOCK_REFRESH_MS = 60_000;

/** The time now, refreshed each minute; null when drawn at build time (src/web/prerender.tsx), which knows no time. */
export function useClock(): Date | null {
  const [now, setNow] = useState(() => (typeof window === 'undefined' ? null : new Date()));
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), CLOCK_REFRESH_MS);
    return () => window.clearInterval(id);
  }, []);
  return now;
}
