// Navigation state understood by pages that later issues build. The shell and the search palette send them.
export interface DashboardNavState {
  /** Ask the dashboard to run its Reset Dashboard confirmation. */
  resetDashboard?: boolean;
}

export interface TradeLogNavState {
  /** Open the Add New Trade dialog on arrival. */
  openAddTrade?: boolean;
  /** The account the dialog starts on: the one the dashboard's calendar shows, when it shows one. */
  addToAccount?: string;
}

/** Also dispatched on window when Reset Dashboard is chosen while the dashboard is already open. */
export const RESET_DASHBOARD_EVENT = 'edgebook:reset-dashboard';
