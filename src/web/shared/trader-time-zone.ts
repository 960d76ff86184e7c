import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getTodayInZone, isValidTimeZone, type CalendarDay } from '../../domain/dates';
import { preferencesQuery } from './api';

/** The product's default zone (DESIGN.md), used until the trader's preference has arrived. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/**
 * The trader's time zone (their preference, `time_zone`) and today's day in it: the zone every execution time is
 * shown in, and the 'today' that decides whether a date needs its year.
 */
export function useTraderTimeZone(): { timeZone: string; today: CalendarDay; ready: boolean } {
  const { data } = useQuery({ ...preferencesQuery, staleTime: 60_000 });
  const zone = data?.time_zone;
  const timeZone = useMemo(() => (zone && isValidTimeZone(zone) ? zone : DEFAULT_TIME_ZONE), [zone]);
  return { timeZone, today: getTodayInZone(new Date(), timeZone), ready: data !== undefined };
}
