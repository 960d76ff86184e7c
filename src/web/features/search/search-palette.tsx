import { Modal, VisuallyHidden } from '@mantine/core';
import { Spotlight } from '@mantine/spotlight';
import {
  IconBookmark,
  IconBrain,
  IconBuildingBank,
  IconClipboardCheck,
  IconCalendar,
  IconChartBar,
  IconListDetails,
  IconChartPie,
  IconFileText,
  IconLayoutDashboard,
  IconListCheck,
  IconLogout,
  IconNotes,
  IconRefresh,
  IconSearch,
  IconUser,
  IconWorld,
} from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { formatUsd, toCents } from '../../../domain/cents';
import { formatDay, parseDayQuery } from '../../../domain/dates';
import { QuickLinkIcon } from '../../components/quick-link-icon';
import { RESET_DASHBOARD_EVENT, type DashboardNavState } from '../../lib/events';
import { savedViewHref } from '../../lib/pages';
import { accountsQuery, quickLinksQuery, savedViewsQuery } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { playbooksQuery } from '../playbooks/api';
import { paletteNotesQuery, paletteTradesQuery } from './api';
import { DERIVED_PAGE_ENTRIES, filterSearchEntries, foundEntryHref, type SearchEntry, type SearchGroup } from './search-entries';

const GROUP_ORDER: SearchGroup[] = ['Pages', 'Reports', 'Dashboard', 'Actions'];
const SEARCH_DEBOUNCE_MS = 250;
/** One letter would list every trade with an 'N' in it: the server is asked from two on. */
const MIN_SEARCH_LENGTH = 2;

const ICONS: Partial<Record<string, ReactNode>> = {
  'pnl-calendar': <IconCalendar size={18} aria-hidden="true" />,
  'trading-tasks': <IconListCheck size={18} aria-hidden="true" />,
  'quick-notes': <IconFileText size={18} aria-hidden="true" />,
  'winrate-stats': <IconChartPie size={18} aria-hidden="true" />,
  'economic-events': <IconWorld size={18} aria-hidden="true" />,
  'user-profile': <IconUser size={18} aria-hidden="true" />,
  'reset-dashboard': <IconRefresh size={18} aria-hidden="true" />,
  'sign-out': <IconLogout size={18} aria-hidden="true" />,
  'ai-trade-analysis': <IconBrain size={18} aria-hidden="true" />,
  'trading-coach': <IconBrain size={18} aria-hidden="true" />,
};

interface SearchPaletteProps {
  /** Sign Out opens the logout confirmation; the shell owns it. */
  onSignOut: () => void;
}

/** The Ctrl/Cmd+K palette. Escape closes it (the Spotlight modal's own behaviour). */
export function SearchPalette({ onSignOut }: SearchPaletteProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [query, setQuery] = useState('');

  const run = (entry: SearchEntry) => {
    const { target } = entry;
    switch (target.kind) {
      case 'navigate':
        navigate(target.to, target.state ? { state: target.state } : undefined);
        break;
      case 'reset-dashboard': {
        const state: DashboardNavState = { resetDashboard: true };
        if (location.pathname === '/') window.dispatchEvent(new CustomEvent(RESET_DASHBOARD_EVENT));
        navigate('/', { state });
        break;
      }
      case 'sign-out':
        onSignOut();
        break;
    }
  };

  const results = filterSearchEntries(query);
  // The pages and reports the page list adds to the fixed list, shown in the same groups after its entries.
  const derived = filterSearchEntries(query, DERIVED_PAGE_ENTRIES);
  const groups = GROUP_ORDER.map((group) => ({
    group,
    entries: results.filter((entry) => entry.group === group),
    more: derived.filter((entry) => entry.group === group),
  })).filter((g) => g.entries.length + g.more.length > 0);
  // The trader's quick links, after the spec's fixed entries, matched by title the same way; read only
  // once the trader types.
  const needle = query.trim().toLowerCase();
  const quickLinks = useQuery({ ...quickLinksQuery, enabled: needle !== '' });
  const links = needle ? (quickLinks.data ?? []).filter((link) => link.title.toLowerCase().includes(needle)) : [];
  // Playbooks and prop firm accounts by name: each has a page of its own.
  const playbookList = useQuery({ ...playbooksQuery, enabled: needle !== '' });
  const accounts = useQuery({ ...accountsQuery, enabled: needle !== '' });
  const foundPlaybooks = needle ? (playbookList.data ?? []).filter((p) => p.name.toLowerCase().includes(needle)) : [];
  const foundProp = needle ? (accounts.data ?? []).filter((a) => a.kind !== 'personal' && a.name.toLowerCase().includes(needle)) : [];
  // Saved report views by name: each opens the Reports page with its filter.
  const savedViews = useQuery({ ...savedViewsQuery, enabled: needle !== '' });
  const foundViews = needle ? (savedViews.data ?? []).filter((v) => v.name.toLowerCase().includes(needle)) : [];
  // Trades and notes come from the server's own searches, asked once the trader pauses typing.
  const [typed] = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const searching = typed.length >= MIN_SEARCH_LENGTH;
  const clock = useTraderTime();
  const day = searching ? parseDayQuery(typed, clock.today(new Date())) : null;
  const trades = useQuery({ ...paletteTradesQuery(typed, day), enabled: searching });
  const notes = useQuery({ ...paletteNotesQuery(typed), enabled: searching && !day });
  const foundTrades = searching && typed === query.trim() ? (trades.data?.trades ?? []) : [];
  const foundNotes = searching && !day && typed === query.trim() ? (notes.data?.notes ?? []) : [];
  const pending = query.trim().length >= MIN_SEARCH_LENGTH && (typed !== query.trim() || trades.isFetching || (!day && notes.isFetching));
  const nothing =
    groups.length === 0 &&
    links.length === 0 &&
    foundTrades.length === 0 &&
    foundNotes.length === 0 &&
    foundPlaybooks.length === 0 &&
    foundProp.length === 0 &&
    foundViews.length === 0;

  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} scrollable maxHeight={440} data-testid="search-palette">
      {/* Names the dialog for assistive technology (the palette has no visible title). */}
      <VisuallyHidden>
        <Modal.Title>Search</Modal.Title>
      </VisuallyHidden>
      <Spotlight.Search
        placeholder="Search for anything..."
        aria-label="Search for anything"
        leftSection={<IconSearch size={18} aria-hidden="true" />}
        data-testid="search-input"
      />
      <Spotlight.ActionsList aria-label="Search results">
        {query.trim() === '' ? (
          <Spotlight.Empty>Start typing to search...</Spotlight.Empty>
        ) : nothing && pending ? (
          <Spotlight.Empty>Searching your trades and notes…</Spotlight.Empty>
        ) : nothing ? (
          <Spotlight.Empty>No results found.</Spotlight.Empty>
        ) : (
          <>
            {groups.map(({ group, entries, more }) => (
              <Spotlight.ActionsGroup key={group} label={group}>
                {[...entries, ...more].map((entry) => (
                  <Spotlight.Action
                    key={entry.id}
                    label={entry.title}
                    description={entry.description}
                    leftSection={
                      ICONS[entry.id] ??
                      (entry.group === 'Reports' ? (
                        <IconChartBar size={18} aria-hidden="true" />
                      ) : (
                        <IconLayoutDashboard size={18} aria-hidden="true" />
                      ))
                    }
                    onClick={() => run(entry)}
                    // The fixed list's entries keep their own test ids; the derived ones are told apart.
                    data-testid={more.includes(entry) ? `search-page-${entry.id}` : `search-entry-${entry.id}`}
                  />
                ))}
              </Spotlight.ActionsGroup>
            ))}
            {foundViews.length > 0 && (
              <Spotlight.ActionsGroup label="Saved Views">
                {foundViews.map((view) => (
                  <Spotlight.Action
                    key={view.id}
                    label={view.name}
                    description="Saved report view"
                    leftSection={<IconBookmark size={18} aria-hidden="true" />}
                    onClick={() => navigate(savedViewHref(view.filter))}
                    data-testid="search-saved-view"
                  />
                ))}
              </Spotlight.ActionsGroup>
            )}
            {foundPlaybooks.length > 0 && (
              <Spotlight.ActionsGroup label="Playbooks">
                {foundPlaybooks.map((playbook) => (
                  <Spotlight.Action
                    key={playbook.id}
                    label={playbook.name}
                    description="Playbook"
                    leftSection={<IconClipboardCheck size={18} aria-hidden="true" />}
                    onClick={() => navigate(foundEntryHref('playbooks', playbook.id))}
                    data-testid="search-playbook"
                  />
                ))}
              </Spotlight.ActionsGroup>
            )}
            {foundProp.length > 0 && (
              <Spotlight.ActionsGroup label="Prop Accounts">
                {foundProp.map((account) => (
                  <Spotlight.Action
                    key={account.id}
                    label={account.name}
                    description={account.firm ? `Prop account · ${account.firm}` : 'Prop account'}
                    leftSection={<IconBuildingBank size={18} aria-hidden="true" />}
                    onClick={() => navigate(foundEntryHref('prop-accounts', account.id))}
                    data-testid="search-prop-account"
                  />
                ))}
              </Spotlight.ActionsGroup>
            )}
            {links.length > 0 && (
              <Spotlight.ActionsGroup label="Quick Links">
                {links.map((link) => (
                  <Spotlight.Action
                    key={link.id}
                    label={link.title}
                    description={link.url}
                    leftSection={<QuickLinkIcon icon={link.icon} size={18} />}
                    // A new tab without access to this one (the link is the trader's, but the site is not ours).
                    onClick={() => window.open(link.url, '_blank', 'noopener,noreferrer')}
                    data-testid="search-quick-link"
                  />
                ))}
              </Spotlight.ActionsGroup>
            )}
            {foundTrades.length > 0 && (
              <Spotlight.ActionsGroup label={day ? `Trades on ${formatDay(day, 'MMM d, yyyy')}` : 'Trades'}>
                {foundTrades.map((trade) => (
                  <Spotlight.Action
                    key={trade.id}
                    label={`${trade.symbol}${trade.contract && trade.contract !== trade.symbol ? ` ${trade.contract}` : ''} · ${formatDay(trade.date, 'MMM d, yyyy')}`}
                    description={`${trade.status} ${formatUsd(toCents(trade.pnl))} · ${trade.account_name ?? 'Unassigned'}`}
                    leftSection={<IconListDetails size={18} aria-hidden="true" />}
                    onClick={() => navigate(foundEntryHref('trades', trade.id))}
                    data-testid="search-trade"
                  />
                ))}
              </Spotlight.ActionsGroup>
            )}
            {foundNotes.length > 0 && (
              <Spotlight.ActionsGroup label="Notes">
                {foundNotes.map((note) => (
                  <Spotlight.Action
                    key={note.id}
                    label={note.title || 'Untitled note'}
                    description={note.journal_date ? `Daily Journal · ${formatDay(note.journal_date, 'MMM d, yyyy')}` : 'Notebook'}
                    leftSection={<IconNotes size={18} aria-hidden="true" />}
                    onClick={() => navigate(`/notebook?note=${note.id}`)}
                    data-testid="search-note"
                  />
                ))}
              </Spotlight.ActionsGroup>
            )}
          </>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
