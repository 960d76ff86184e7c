import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { formatInZone, getTodayInZone, getZoneAbbreviation, isValidTimeZone, type CalendarDay } from '../../domain/dates';
import { preferencesQuery } from './api';

/** A trader's zone is America/New_York until they choose another. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

export interface TraderTime {
  /** The trader's IANA zone (Profile Settings), New York until their preferences arrive. */
  timeZone: string;
  /** False until the trader's preferences have been read (or failed): a clock drawn before could show the wrong zone. */
  ready: boolean;
  /** An instant on the trader's clock, as a date-fns pattern; '' for anything that is not an instant. */
  format(instant: Date | string, pattern: string): string;
  /** The zone's short name at that instant, shown beside times (EST, EDT, GMT+9). */
  zoneName(instant: Date | string): string;
  /** The trader's calendar day at `now`. */
  today(now: Date): CalendarDay;
}

/**
 * One clock for every screen: every displayed time and every "today" of the web app comes from
 * here, in the trader's zone, never the browser's (the header said 07:39 while Chat History said 2:39 AM for the same
 * moment when the two disagreed).
 */
export function useTraderTime(): TraderTime {
  const preferences = useQuery(preferencesQuery);
  const stored = preferences.data?.time_zone;
  const timeZone = stored && isValidTimeZone(stored) ? stored : DEFAULT_TIME_ZONE;
  const ready = preferences.isSuccess || preferences.isError;
  return useMemo(
    () => ({
      timeZone,
      ready,
      format: (instant, pattern) => formatInZone(instant, timeZone, pattern) ?? '',
      zoneName: (instant) => getZoneAbbreviation(instant, timeZone) ?? timeZone,
      today: (now) => getTodayInZone(now, timeZone),
    }),
    [timeZone, ready],
  );
}

/** "Clock update 60 s", on the minute, so a clock turns over when the minute does. */
const MINUTE_MS = 60_000;

/**
 * The time now, renewed at each new minute (so "today" turns over at the trader's midnight). Null when drawn at build
 * time (src/web/prerender.tsx), which knows no time.
 */
export function useMinuteClock(): Date | null {
  const [now, setNow] = useState(() => (typeof window === 'undefined' ? null : new Date()));
  useEffect(() => {
    let interval: number | undefined;
    const timeout = window.setTimeout(
      () => {
        setNow(new Date());
        interval = window.setInterval(() => setNow(new Date()), MINUTE_MS);
      },
      MINUTE_MS - (Date.now() % MINUTE_MS),
    );
    return () => {
      window.clearTimeout(timeout);
      window.clearInterval(interval);
    };
  }, []);
  return now;
}
