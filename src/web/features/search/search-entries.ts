import type { To } from 'react-router';
import type { DashboardNavState, TradeLogNavState } from '../../lib/events';

export type SearchGroup = 'Pages' | 'Dashboard' | 'Actions';

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

// Spec part 1 §2.2 and §9: a fixed list of 18 entries (pages, the dashboard sections of §2.1, and the actions
// Reset Dashboard, Sign Out, AI Trade Analysis, Trading Coach).
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

/** Spec part 1 §2.2: filter by title, case-insensitive. An empty query matches nothing (the palette asks to type). */
export function filterSearchEntries(query: string, entries: readonly SearchEntry[] = SEARCH_ENTRIES): SearchEntry[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return entries.filter((entry) => entry.title.toLowerCase().includes(needle));
}
