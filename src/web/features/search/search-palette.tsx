import { Modal, VisuallyHidden } from '@mantine/core';
import { Spotlight } from '@mantine/spotlight';
import {
  IconBrain,
  IconCalendar,
  IconChartBar,
  IconChartPie,
  IconFileText,
  IconLayoutDashboard,
  IconListCheck,
  IconLogout,
  IconRefresh,
  IconSearch,
  IconUser,
  IconWorld,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { QuickLinkIcon } from '../../components/quick-link-icon';
import { RESET_DASHBOARD_EVENT, type DashboardNavState } from '../../lib/events';
import { quickLinksQuery } from '../../shared/api';
import { filterSearchEntries, type SearchEntry, type SearchGroup } from './search-entries';

const GROUP_ORDER: SearchGroup[] = ['Pages', 'Reports', 'Dashboard', 'Actions'];

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

/** The Ctrl/Cmd+K palette (spec part 1 §2.2). Escape closes it (the Spotlight modal's own behaviour). */
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
  const groups = GROUP_ORDER.map((group) => ({
    group,
    entries: results.filter((entry) => entry.group === group),
  })).filter((g) => g.entries.length > 0);
  // The trader's quick links (issue 10), after the spec's fixed entries, matched by title the same way; read only
  // once the trader types.
  const needle = query.trim().toLowerCase();
  const quickLinks = useQuery({ ...quickLinksQuery, enabled: needle !== '' });
  const links = needle ? (quickLinks.data ?? []).filter((link) => link.title.toLowerCase().includes(needle)) : [];

  return (
    <Spotlight.Root
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      scrollable
      maxHeight={440}
      data-testid="search-palette"
    >
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
        ) : groups.length === 0 && links.length === 0 ? (
          <Spotlight.Empty>No results found.</Spotlight.Empty>
        ) : (
          <>
            {groups.map(({ group, entries }) => (
              <Spotlight.ActionsGroup key={group} label={group}>
                {entries.map((entry) => (
                  <Spotlight.Action
                    key={entry.id}
                    label={entry.title}
                    description={entry.description}
                    leftSection={ICONS[entry.id] ?? (entry.group === 'Reports' ? <IconChartBar size={18} aria-hidden="true" /> : <IconLayoutDashboard size={18} aria-hidden="true" />)}
                    onClick={() => run(entry)}
                    data-testid={`search-entry-${entry.id}`}
                  />
                ))}
              </Spotlight.ActionsGroup>
            ))}
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
          </>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
