import type { To } from 'react-router';
import type { DashboardNavState, TradeLogNavState } from '../../lib/events';

export type SearchGroup = 'Pages' | 'Reports' | 'Dashboard' | 'Actions';

export type SearchTarget =
  | { kind: 'navigate'; to: To; state?: DashboardNavState | TradeLogNavState }
  | { kind: 'reset-dashboard' }
  | { kind: 'sign-out' };

export interface SearchEntry {
  id: string;
  title: string;
  description: string;
  group: SearchGroup;
  target: SearchTarget;
}

/**
 * The Reports page and each of its reports, under their own group: an addition to the spec's list (DESIGN
 * "Beyond the spec"). No title says "trade", so a search for the spec's pages finds what it found before.
 */
const report = (id: string, title: string, description: string, path: string): SearchEntry => ({
  id,
  title,
  description,
  group: 'Reports',
  target: { kind: 'navigate', to: `/reports${path}` },
});
const BREAKDOWN_ENTRIES: Array<[id: string, name: string, what: string]> = [
  ['instrument', 'Instrument', 'each instrument root (NQ, ES)'],
  ['contract', 'Contract', 'each contract month'],
  ['side', 'Side', 'longs and shorts'],
  ['setup', 'Setup', 'each setup or type'],
  ['session', 'Session', 'each session of the day'],
  ['tag', 'Tag', 'each tag'],
  ['account', 'Account', 'each trading account'],
  ['weekday', 'Day of Week', 'each day of the week'],
  ['hour', 'Hour of Entry', 'each hour of entry, on your clock'],
  ['hold', 'Hold Time', 'how long positions were held'],
  ['size', 'Position Size', 'each position size'],
  ['month', 'Month', 'each month'],
  ['year', 'Year', 'each year'],
];
export const REPORT_SEARCH_ENTRIES: readonly SearchEntry[] = [
  report('reports', 'Reports', 'Every report of your trading, filtered as you choose', ''),
  report('report-overview', 'Performance Overview', 'Reports: net P&L, win rate, profit factor, expectancy, drawdown', ''),
  report('report-equity', 'Equity Curve and Drawdown', 'Reports: cumulative P&L by trade or by day, under water below it', '/equity'),
  ...BREAKDOWN_ENTRIES.map(([id, name, what]) => report(`report-by-${id}`, `PnL by ${name}`, `Reports: net P&L, win rate and profit factor of ${what}`, `/breakdowns/${id}`)),
  report('report-heatmap', 'Day and Hour Heatmap', 'Reports: net P&L and win rate by weekday and hour of entry', '/heatmap'),
  report('report-calendar', 'Year Calendar', 'Reports: every day of a year in profit or loss', '/calendar'),
  report('report-distributions', 'PnL and Hold Time Distributions', 'Reports: how your results and hold times spread', '/distributions'),
  report('report-compare', 'Compare Reports', 'Reports: two filters side by side, every figure and its difference', '/compare'),
];

// A fixed list of 18 entries (pages, the dashboard's sections, and the actions
// Reset Dashboard, Sign Out, AI Trade Analysis, Trading Coach), and the reports after the pages.
export const SEARCH_ENTRIES: readonly SearchEntry[] = [
  { id: 'dashboard', title: 'Dashboard', description: 'Your trading overview', group: 'Pages', target: { kind: 'navigate', to: '/' } },
  { id: 'trade-log', title: 'Trade Log', description: 'All your trades, statistics and charts', group: 'Pages', target: { kind: 'navigate', to: '/trade-log' } },
  {
    id: 'add-trade',
    title: 'Add Trade',
    description: 'Open the Trade Log with the add-trade dialog',
    group: 'Pages',
    target: { kind: 'navigate', to: '/trade-log', state: { openAddTrade: true } },
  },
  { id: 'reflect', title: 'Trade Reflections', description: 'Review your trades by day, week or month', group: 'Pages', target: { kind: 'navigate', to: '/reflect' } },
  { id: 'reflect-ai', title: 'ReflectAI', description: 'Chat with the AI trading analyst', group: 'Pages', target: { kind: 'navigate', to: '/reflect-ai' } },
  { id: 'notebook', title: 'Notebook', description: 'Notes in folders, with tags and linked trades', group: 'Pages', target: { kind: 'navigate', to: '/notebook' } },
  { id: 'journal', title: 'Daily Journal', description: 'One note per trading day', group: 'Pages', target: { kind: 'navigate', to: '/journal' } },
  { id: 'tutorials', title: 'Tutorials', description: 'Guides to the Trade Log, Reflect and ReflectAI', group: 'Pages', target: { kind: 'navigate', to: '/tutorials' } },
  ...REPORT_SEARCH_ENTRIES,
  { id: 'pnl-calendar', title: 'PnL Calendar', description: 'Dashboard: profit and loss by day', group: 'Dashboard', target: { kind: 'navigate', to: { pathname: '/', hash: '#pnl-calendar' } } },
  { id: 'trading-tasks', title: 'Trading Tasks', description: 'Dashboard: your tasks for today', group: 'Dashboard', target: { kind: 'navigate', to: { pathname: '/', hash: '#trading-tasks' } } },
  { id: 'quick-notes', title: 'Quick Notes', description: 'Dashboard: your scratch pad', group: 'Dashboard', target: { kind: 'navigate', to: { pathname: '/', hash: '#quick-notes' } } },
  { id: 'winrate-stats', title: 'Win Rate Stats', description: 'Dashboard: win rate by week, month and all time', group: 'Dashboard', target: { kind: 'navigate', to: { pathname: '/', hash: '#winrate-stats' } } },
  { id: 'economic-events', title: 'Economic Events', description: 'Dashboard: USD economic calendar', group: 'Dashboard', target: { kind: 'navigate', to: { pathname: '/', hash: '#economic-events' } } },
  { id: 'user-profile', title: 'User Profile', description: 'Dashboard: your profile and settings', group: 'Dashboard', target: { kind: 'navigate', to: { pathname: '/', hash: '#user-profile' } } },
  { id: 'reset-dashboard', title: 'Reset Dashboard', description: 'Restore the default widget layout', group: 'Actions', target: { kind: 'reset-dashboard' } },
  { id: 'sign-out', title: 'Sign Out', description: 'Log out of Edgebook', group: 'Actions', target: { kind: 'sign-out' } },
  {
    id: 'ai-trade-analysis',
    title: 'AI Trade Analysis',
    description: 'Analyze your trades on the Reflect page',
    group: 'Actions',
    target: { kind: 'navigate', to: '/reflect?action=analyze' },
  },
  { id: 'trading-coach', title: 'Trading Coach', description: 'Ask ReflectAI about your trading', group: 'Actions', target: { kind: 'navigate', to: '/reflect-ai' } },
];

/** Filter by title, case-insensitive. An empty query matches nothing (the palette asks to type). */
export function filterSearchEntries(query: string, entries: readonly SearchEntry[] = SEARCH_ENTRIES): SearchEntry[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return entries.filter((entry) => entry.title.toLowerCase().includes(needle));
}
