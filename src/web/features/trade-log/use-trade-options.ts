import { useQuery } from '@tanstack/react-query';
import { getTodayInZone } from '../../../domain/dates';
import { DEFAULT_TAGS, FALLBACK_SESSIONS, FALLBACK_TRADE_TYPES } from '../../../domain/trades';
import { preferencesQuery, tradePreferencesQuery, type TradePreferences } from '../../shared/api';

/** Spec part 2 §8: if preferences cannot be fetched, the defaults are used. */
const FALLBACK: TradePreferences = {
  trade_type: [...FALLBACK_TRADE_TYPES],
  session: [...FALLBACK_SESSIONS],
  tag: [...DEFAULT_TAGS],
};

export function useTradeOptions(): TradePreferences & { isFallback: boolean } {
  const { data, isError } = useQuery({ ...tradePreferencesQuery, staleTime: 60_000 });
  if (data) return { ...data, isFallback: false };
  return { ...FALLBACK, isFallback: isError };
}

/** Today in the trader's time zone (their preference, else the browser's). */
export function useToday(): string {
  const { data } = useQuery({ ...preferencesQuery, staleTime: 60_000 });
  const zone = data?.time_zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    return getTodayInZone(new Date(), zone);
  } catch {
    return getTodayInZone(new Date(), 'UTC');
  }
}
