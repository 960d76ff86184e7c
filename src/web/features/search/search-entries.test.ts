import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { REPORT_VIEWS, reportPath, SHELL_PAGES } from '../../lib/pages';
import { DERIVED_PAGE_ENTRIES, derivedPageEntries, filterSearchEntries, foundEntryHref, SEARCH_ENTRIES, type SearchEntry } from './search-entries';

const ALL = [...SEARCH_ENTRIES, ...DERIVED_PAGE_ENTRIES];
const pathnameOf = (entry: SearchEntry) => {
  if (entry.target.kind !== 'navigate') return null;
  const { to } = entry.target;
  return (typeof to === 'string' ? to : (to.pathname ?? '/')).split(/[?#]/)[0] ?? '/';
};
const targets = ALL.map(pathnameOf).filter((p): p is string => p !== null);

describe('the palette reaches every page of the app', () => {
  it.each(Object.entries(SHELL_PAGES))('the route of %s', (_id, page) => {
    const found = 'found' in page ? page.found : undefined;
    const reachable = found ? [foundEntryHref(found, 'b7e2c4a0-0000-4000-8000-000000000001')] : targets;
    expect(reachable.some((path) => matchPath({ path: page.path, end: true }, path) !== null)).toBe(true);
  });

  it.each(REPORT_VIEWS.map((view) => [view.label, view.path] as const))('the Reports tab %s', (_label, path) => {
    const tab = reportPath(path);
    expect(targets.some((p) => p === tab || p.startsWith(`${tab}/`))).toBe(true);
  });

  it('finds the pages that were missing by name: Playbooks, Broker Connections, Market Data and the Depth tab', () => {
    const titles = (q: string) => filterSearchEntries(q, ALL).map((e) => e.title);
    expect(titles('playbook')).toContain('Playbooks');
    expect(titles('connections')).toContain('Broker Connections');
    expect(titles('market')).toContain('Market Data');
    expect(titles('depth')).toContain('Depth Report');
    expect(titles('mae')).toContain('MAE / MFE Report');
    expect(titles('monthly')).toContain('Monthly Review');
    expect(ALL.find((e) => e.title === 'Monthly Review')?.target).toEqual({ kind: 'navigate', to: '/reports/monthly-review' });
  });

  it('adds a page added to the list, and nothing the fixed list already reaches', () => {
    expect(derivedPageEntries([]).map(pathnameOf)).toContain('/trade-log');
    expect(DERIVED_PAGE_ENTRIES.map(pathnameOf)).not.toContain('/trade-log');
    // A breakdown entry reaches the Breakdowns tab: no second entry for it.
    expect(DERIVED_PAGE_ENTRIES.map(pathnameOf)).not.toContain('/reports/breakdowns');
    expect(new Set(ALL.map((e) => e.id)).size).toBe(ALL.length);
  });

  it('opens a found playbook, prop account or trade at its own page', () => {
    expect(foundEntryHref('playbooks', 'p1')).toBe('/playbooks/p1');
    expect(foundEntryHref('prop-accounts', 'a1')).toBe('/prop/a1');
    expect(foundEntryHref('trades', 't1')).toBe('/trade/t1');
  });
});
