import { Badge, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ShareLink } from '../../../contract/share-links';
import { RevocableTable } from '../../components/revocable-table';
import { useTraderTime } from '../../shared/trader-clock';
import { shareLinksQuery, useRevokeShareLink } from './api';

/** Whether a link answers now, and in words. */
function stateOf(link: ShareLink, now: number): { label: string; live: boolean } {
  if (link.revoked_at) return { label: 'Revoked', live: false };
  if (link.expires_at && new Date(link.expires_at).getTime() <= now) return { label: 'Expired', live: false };
  return { label: link.expires_at ? 'Active' : 'Active, never expires', live: true };
}

/** Settings, Shared Links: every link the trader made, its views and last visit, and Revoke. */
export function SharedLinksSettings() {
  const links = useQuery(shareLinksQuery);
  const revoke = useRevokeShareLink();
  const clock = useTraderTime();
  if (links.isPending) return <Loader role="status" aria-label="Loading shared links" />;
  if (links.isError) return <Text c="var(--mantine-color-error)">Failed to load shared links</Text>;
  if (links.data.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="shared-links-empty">
        You have not shared anything yet. Use Share on a trade, a day, a playbook or a prop account.
      </Text>
    );
  }
  const now = Date.now();
  return (
    <RevocableTable
      rows={links.data}
      headings={['Shared', 'Status', 'Views', 'Last seen']}
      live={(link) => stateOf(link, now).live}
      revoke={revoke}
      tableTestId="shared-links"
      rowTestId="shared-link"
      cells={(link) => {
        const state = stateOf(link, now);
        return [
          <>
            <Text size="sm" fw={500}>
              {link.title}
            </Text>
            <Group gap={4}>
              {link.hide_amounts && (
                <Badge size="xs" variant="light">
                  No amounts
                </Badge>
              )}
              {link.hide_accounts && (
                <Badge size="xs" variant="light">
                  No accounts
                </Badge>
              )}
              {link.include_notes && (
                <Badge size="xs" variant="light">
                  Notes
                </Badge>
              )}
            </Group>
          </>,
          <Text size="sm" c={state.live ? undefined : 'dimmed'} data-testid="shared-link-status">
            {state.label}
          </Text>,
          <Text size="sm" data-testid="shared-link-views">
            {link.views}
          </Text>,
          <Text size="sm">{link.last_viewed_at ? clock.format(link.last_viewed_at, 'MMM d, yyyy, h:mm a') : 'Never'}</Text>,
        ];
      }}
    />
  );
}
