import { useQuery } from '@tanstack/react-query';
import { DEFAULT_TAGS, FALLBACK_SESSIONS, FALLBACK_TRADE_TYPES } from '../../../domain/trades';
import { tradePreferencesQuery, type TradePreferences } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';

/** If preferences cannot be fetched, the defaults are used. */
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

/** Today on the trader's clock (their zone, never the browser's). */
export function useToday(): string {
  return useTraderTime().today(new Date());
}
