import type { QueryClient } from '@tanstack/react-query';
import { addMonths, formatCalendarDay, getDaysInMonth, getTodayInZone, parseCalendarDay } from '../../../domain/dates';
import { appConfigQuery } from '../../lib/app-config';
import { accountsQuery, preferencesQuery, profileQuery, tasksByDateQuery, taskStatusQuery, tradeStatsQuery } from '../../shared/api';
import { DEFAULT_TIME_ZONE } from '../../shared/trader-clock';
import { readAccountChoice } from '../accounts/use-account-choice';

/**
 * The first day whose per-day statistics the dashboard asks for: the widgets look back at most six months (Monthly
 * Win Rate) and 90 days (balance), so only those days' rows travel and the earlier ones are summed by the server.
 * Counted from UTC with a month to spare, so the key does not wait for the trader's time zone.
 */
export function dashboardDaysFrom(now: Date): string {
  return addMonths(formatCalendarDay(now.getUTCFullYear(), now.getUTCMonth() + 1, 1), -7);
}

/** The calendar month holding `day`, as the PnL calendar asks for it. */
export function monthRange(day: string): { from: string; to: string } {
  const { year, month } = parseCalendarDay(day) ?? { year: 2000, month: 1 };
  return { from: formatCalendarDay(year, month, 1), to: formatCalendarDay(year, month, getDaysInMonth(year, month)) };
}

/**
 * Starts the dashboard's data requests while the session check and the page's code are still on their way (data
 * requests in parallel with the session check). The page then finds them in the cache, under the same keys it
 * asks with. Requests that need the trader's time zone follow the preferences. Settles once all have answered.
 */
export function prefetchDashboard(queryClient: QueryClient, now = new Date()): Promise<void> {
  // The dashboard opens on the default account (or the session's pick): its statistics follow the accounts list.
  const account = queryClient
    .fetchQuery(accountsQuery)
    .then((accounts) => readAccountChoice('dashboard', accounts))
    .catch(() => 'all');
  const first = [
    account.then((chosen) => queryClient.prefetchQuery(tradeStatsQuery(chosen, {}, '', dashboardDaysFrom(now)))),
    queryClient.prefetchQuery(profileQuery),
    queryClient.prefetchQuery(appConfigQuery),
  ];
  const inZone = Promise.all([queryClient.fetchQuery(preferencesQuery), account])
    .then(([preferences, chosen]) => {
      const today = getTodayInZone(now, preferences.time_zone ?? DEFAULT_TIME_ZONE);
      const range = monthRange(today);
      return Promise.all([
        queryClient.prefetchQuery(tradeStatsQuery(chosen, range)),
        queryClient.prefetchQuery(taskStatusQuery(range.from, range.to)),
        queryClient.prefetchQuery(tasksByDateQuery(today)),
      ]);
    })
    .catch(() => {
      // The page asks again itself and shows the failure.
    });
  // Settles when every request has (prefetchQuery never rejects).
  return Promise.all([...first, inZone]).then(() => undefined);
}
