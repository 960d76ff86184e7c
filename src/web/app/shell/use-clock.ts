import { useEffect, useState } from 'react';

// Spec part 1 §9: "Clock update 60 s".
const CLOCK_REFRESH_MS = 60_000;

export function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), CLOCK_REFRESH_MS);
    return () => window.clearInterval(id);
  }, []);
  return now;
}
