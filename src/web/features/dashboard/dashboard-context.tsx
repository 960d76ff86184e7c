import { createContext, useContext } from 'react';
import type { AccountFilter, TradeStats } from '../../shared/api';

/** What every widget needs: the chosen account, the trader's zone and today in it, the all-time statistics. */
export interface DashboardContextValue {
  account: AccountFilter;
  /** False while the account the dashboard opens on waits for the accounts list (its default account). */
  accountReady: boolean;
  setAccount: (account: AccountFilter) => void;
  timeZone: string;
  /** Today in the trader's zone, yyyy-MM-dd. */
  today: string;
  now: Date;
  /** All-time statistics of the chosen account (summary; by_day for the last seven months, by_day_before the rest). */
  stats: TradeStats | undefined;
  statsLoading: boolean;
  openDay: (date: string) => void;
  openAccounts: () => void;
  openProfile: () => void;
  hideWidget: (id: string) => void;
}

export const DashboardContext = createContext<DashboardContextValue | null>(null);

export function useDashboard(): DashboardContextValue {
  const value = useContext(DashboardContext);
  if (!value) throw new Error('useDashboard must be used inside the dashboard');
  return value;
}
