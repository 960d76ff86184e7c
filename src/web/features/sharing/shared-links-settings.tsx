import { Badge, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ShareLink } from '../../../contract/share-links';
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
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={520}>
        <Table verticalSpacing="xs" data-testid="shared-links">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Shared</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Views</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.data.map((link) => {
              const state = stateOf(link, now);
              return (
                <Table.Tr key={link.id} data-testid="shared-link">
                  <Table.Td>
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
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={state.live ? undefined : 'dimmed'} data-testid="shared-link-status">
                      {state.label}
                    </Text>
                  </Table.Td>
                  <Table.Td data-testid="shared-link-views">{link.views}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{link.last_viewed_at ? clock.format(link.last_viewed_at, 'MMM d, yyyy, h:mm a') : 'Never'}</Text>
                  </Table.Td>
                  <Table.Td>
                    {state.live && (
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        loading={revoke.isPending && revoke.variables === link.id}
                        onClick={() => revoke.mutate(link.id)}
                        data-testid="shared-link-revoke"
                      >
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
