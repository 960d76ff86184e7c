/**
 * Every page of the signed-in app, once: the router draws a route for each entry and the search palette
 * derives its page entries from the same list, so a page added here is in the palette without a second edit.
 * A page at an address with an id (a trade, a playbook, a prop account) is found by name in the palette instead,
 * from the group `found` names.
 */
export type FoundKind = 'trades' | 'playbooks' | 'prop-accounts';

export interface ShellPage {
  path: string;
  title: string;
  description: string;
  found?: FoundKind;
}

export const SHELL_PAGES = {
  dashboard: { path: '/', title: 'Dashboard', description: 'Your trading overview' },
  tradeLog: { path: '/trade-log', title: 'Trade Log', description: 'All your trades, statistics and charts' },
  reports: { path: '/reports/*', title: 'Reports', description: 'Every report of your trading, filtered as you choose' },
  playbooks: { path: '/playbooks', title: 'Playbooks', description: 'Your setups, their rules and how each performs' },
  playbook: { path: '/playbooks/:id', title: 'Playbook', description: 'One playbook', found: 'playbooks' },
  reflect: { path: '/reflect', title: 'Trade Reflections', description: 'Review your trades by day, week or month' },
  reflectAi: { path: '/reflect-ai', title: 'ReflectAI', description: 'Chat with the AI trading analyst' },
  notebook: { path: '/notebook', title: 'Notebook', description: 'Notes in folders, with tags and linked trades' },
  journal: { path: '/journal', title: 'Daily Journal', description: 'One note per trading day' },
  tradeDetails: { path: '/trade/:id', title: 'Trade', description: 'One trade', found: 'trades' },
  tutorials: { path: '/tutorials', title: 'Tutorials', description: 'Guides to the Trade Log, Reflect and ReflectAI' },
  marketData: { path: '/market-data', title: 'Market Data', description: 'Price bars for charts and MAE / MFE' },
  propAccount: { path: '/prop/:id', title: 'Prop Account', description: 'A prop firm account and its rules', found: 'prop-accounts' },
  connections: { path: '/connections', title: 'Broker Connections', description: 'Sync trades from your broker accounts' },
  mentoring: { path: '/mentor', title: 'Mentoring', description: "Your mentors' comments, and the traders you mentor" },
  // An invitation (/mentor/accept) and a mentored trader's Trade Log (/mentor/<their id>): the same page reads which.
  mentorView: { path: '/mentor/*', title: 'Mentor View', description: "A trader's shared Trade Log" },
} as const satisfies Record<string, ShellPage>;

export type ShellPageId = keyof typeof SHELL_PAGES;

/** The reports, each at its own address under /reports: the Reports page's tabs and the palette's report entries. */
export const REPORT_VIEWS = [
  { id: 'overview', path: '', label: 'Overview' },
  { id: 'equity', path: 'equity', label: 'Equity' },
  { id: 'breakdowns', path: 'breakdowns', label: 'Breakdowns' },
  { id: 'heatmap', path: 'heatmap', label: 'Heatmap' },
  { id: 'calendar', path: 'calendar', label: 'Calendar' },
  { id: 'distributions', path: 'distributions', label: 'Distributions' },
  { id: 'depth', path: 'depth', label: 'Depth' },
  { id: 'excursions', path: 'mae-mfe', label: 'MAE / MFE' },
  { id: 'mistakes', path: 'mistakes', label: 'Mistakes' },
  { id: 'playbooks', path: 'playbooks', label: 'Playbooks' },
  { id: 'compare', path: 'compare', label: 'Compare' },
] as const;

export type ReportViewId = (typeof REPORT_VIEWS)[number]['id'];

/** The address of a report tab (the Overview is /reports itself). */
export const reportPath = (path: string) => `/reports${path ? `/${path}` : ''}`;

/** Where a saved report view opens: the Reports page with the view's filter (its URL text). */
export const savedViewHref = (filter: string) => `${reportPath('')}${filter ? `?${filter}` : ''}`;
