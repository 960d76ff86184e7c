import type { To } from 'react-router';
import type { DashboardNavState, TradeLogNavState } from '../../lib/events';
import { REPORT_VIEWS, reportPath, SHELL_PAGES, type ShellPage } from '../../lib/pages';

export type SearchGroup = 'Pages' | 'Reports' | 'Dashboard' | 'Actions';

export type SearchTarget =
  { kind: 'navigate'; to: To; state?: DashboardNavState | TradeLogNavState } | { kind: 'reset-dashboard' } | { kind: 'sign-out' };

export interface SearchEntry {
  id: string;
  title: string;
  description: string;
  group: SearchGroup;
  target: SearchTarget;
}

/** A page's entry, named as the page list names it. */
const page = (id: string, { title, description, path }: ShellPage): SearchEntry => ({
  id,
  title,
  description,
  group: 'Pages',
  target: { kind: 'navigate', to: path },
});

/**
 * The Reports page and each of its reports, under their own group, added to the fixed list of 18. No title says
 * "trade", so a search for the first pages finds what it found before.
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
  report('reports', SHELL_PAGES.reports.title, SHELL_PAGES.reports.description, ''),
  report('report-overview', 'Performance Overview', 'Reports: net P&L, win rate, profit factor, expectancy, drawdown', ''),
  report('report-equity', 'Equity Curve and Drawdown', 'Reports: cumulative P&L by trade or by day, under water below it', '/equity'),
  ...BREAKDOWN_ENTRIES.map(([id, name, what]) =>
    report(`report-by-${id}`, `PnL by ${name}`, `Reports: net P&L, win rate and profit factor of ${what}`, `/breakdowns/${id}`),
  ),
  report('report-heatmap', 'Day and Hour Heatmap', 'Reports: net P&L and win rate by weekday and hour of entry', '/heatmap'),
  report('report-calendar', 'Year Calendar', 'Reports: every day of a year in profit or loss', '/calendar'),
  report('report-distributions', 'PnL and Hold Time Distributions', 'Reports: how your results and hold times spread', '/distributions'),
  report('report-compare', 'Compare Reports', 'Reports: two to four filters side by side, every figure and their equity curves', '/compare'),
  report(
    'report-monthly-review',
    'Monthly Review',
    'Reports: one month on a printable page, with its calendar, curve and best and worst',
    '/monthly-review',
  ),
];

// A fixed list of 18 entries (pages, the dashboard's sections, and the actions
// Reset Dashboard, Sign Out, AI Trade Analysis, Trading Coach), and the reports after the pages.
export const SEARCH_ENTRIES: readonly SearchEntry[] = [
  page('dashboard', SHELL_PAGES.dashboard),
  page('trade-log', SHELL_PAGES.tradeLog),
  {
    id: 'add-trade',
    title: 'Add Trade',
    description: 'Open the Trade Log with the add-trade dialog',
    group: 'Pages',
    target: { kind: 'navigate', to: '/trade-log', state: { openAddTrade: true } },
  },
  page('reflect', SHELL_PAGES.reflect),
  page('reflect-ai', SHELL_PAGES.reflectAi),
  page('notebook', SHELL_PAGES.notebook),
  page('journal', SHELL_PAGES.journal),
  page('tutorials', SHELL_PAGES.tutorials),
  ...REPORT_SEARCH_ENTRIES,
  {
    id: 'pnl-calendar',
    title: 'PnL Calendar',
    description: 'Dashboard: profit and loss by day',
    group: 'Dashboard',
    target: { kind: 'navigate', to: { pathname: '/', hash: '#pnl-calendar' } },
  },
  {
    id: 'trading-tasks',
    title: 'Trading Tasks',
    description: 'Dashboard: your tasks for today',
    group: 'Dashboard',
    target: { kind: 'navigate', to: { pathname: '/', hash: '#trading-tasks' } },
  },
  {
    id: 'quick-notes',
    title: 'Quick Notes',
    description: 'Dashboard: your scratch pad',
    group: 'Dashboard',
    target: { kind: 'navigate', to: { pathname: '/', hash: '#quick-notes' } },
  },
  {
    id: 'winrate-stats',
    title: 'Win Rate Stats',
    description: 'Dashboard: win rate by week, month and all time',
    group: 'Dashboard',
    target: { kind: 'navigate', to: { pathname: '/', hash: '#winrate-stats' } },
  },
  {
    id: 'economic-events',
    title: 'Economic Events',
    description: 'Dashboard: USD economic calendar',
    group: 'Dashboard',
    target: { kind: 'navigate', to: { pathname: '/', hash: '#economic-events' } },
  },
  {
    id: 'user-profile',
    title: 'User Profile',
    description: 'Dashboard: your profile and settings',
    group: 'Dashboard',
    target: { kind: 'navigate', to: { pathname: '/', hash: '#user-profile' } },
  },
  {
    id: 'reset-dashboard',
    title: 'Reset Dashboard',
    description: 'Restore the default widget layout',
    group: 'Actions',
    target: { kind: 'reset-dashboard' },
  },
  { id: 'sign-out', title: 'Sign Out', description: 'Log out of Edgebook', group: 'Actions', target: { kind: 'sign-out' } },
  {
    id: 'ai-trade-analysis',
    title: 'AI Trade Analysis',
    description: 'Analyze your trades on the Reflect page',
    group: 'Actions',
    target: { kind: 'navigate', to: '/reflect?action=analyze' },
  },
  {
    id: 'trading-coach',
    title: 'Trading Coach',
    description: 'Ask ReflectAI about your trading',
    group: 'Actions',
    target: { kind: 'navigate', to: '/reflect-ai' },
  },
];

const pathOf = (to: To) => (typeof to === 'string' ? to : (to.pathname ?? '/')).split(/[?#]/)[0] ?? '/';

/**
 * The pages and reports the fixed list above does not reach, each derived from the page list and the Reports tabs:
 * a page or tab added there is found here with nothing else to edit. A page at an address with an id is found by
 * name instead (`foundEntryHref`).
 */
export function derivedPageEntries(fixed: readonly SearchEntry[] = SEARCH_ENTRIES): SearchEntry[] {
  const paths = fixed.flatMap((entry) => (entry.target.kind === 'navigate' ? [pathOf(entry.target.to)] : []));
  // A tab is reached by an entry for it or for a report inside it (a breakdown reaches Breakdowns).
  const reached = (path: string) => paths.some((p) => p === path || p.startsWith(`${path}/`));
  const pages = Object.entries(SHELL_PAGES)
    .filter(([, p]) => !('found' in p) && !p.path.endsWith('/*') && !reached(p.path))
    .map(([id, p]) => page(`${id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, p));
  const reports = REPORT_VIEWS.filter((view) => !reached(reportPath(view.path))).map((view) =>
    report(`report-tab-${view.id}`, `${view.label} Report`, `Reports: the ${view.label} tab`, view.path ? `/${view.path}` : ''),
  );
  return [...pages, ...reports];
}

export const DERIVED_PAGE_ENTRIES: readonly SearchEntry[] = derivedPageEntries();

/** Where a found playbook, prop account or trade opens: its page's address with the id in it. */
export function foundEntryHref(kind: 'playbooks' | 'prop-accounts' | 'trades', id: string): string {
  const page = kind === 'playbooks' ? SHELL_PAGES.playbook : kind === 'prop-accounts' ? SHELL_PAGES.propAccount : SHELL_PAGES.tradeDetails;
  return page.path.replace(':id', encodeURIComponent(id));
}

/** Filter by title, case-insensitive. An empty query matches nothing (the palette asks to type). */
export function filterSearchEntries(query: string, entries: readonly SearchEntry[] = SEARCH_ENTRIES): SearchEntry[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return entries.filter((entry) => entry.title.toLowerCase().includes(needle));
}
