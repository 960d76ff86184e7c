import { Badge, Button, Drawer, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { accountsQuery, type AccountFilter } from '../../../shared/api';
import classes from '../dashboard.module.css';

/**
 * The account management side panel (spec part 1 §2.4, §2.6): pick the account the dashboard shows. Creating,
 * editing and deleting accounts live with the accounts feature on the Trade Log.
 */
export function AccountsPanel(props: { opened: boolean; onClose: () => void; account: AccountFilter; onSelect: (account: AccountFilter) => void }) {
  const { opened, onClose, account, onSelect } = props;
  const accounts = useQuery({ ...accountsQuery, enabled: opened });
  const choose = (value: AccountFilter) => {
    onSelect(value);
    onClose();
  };
  const entries = [{ id: 'all', name: 'All Trades', is_default: false, description: 'Every trade, in any account' }, ...(accounts.data ?? [])];
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title="Trading Accounts" size="sm">
      {accounts.isPending ? (
        <Loader size="sm" aria-label="Loading accounts" />
      ) : accounts.isError ? (
        <Text c="var(--mantine-color-error)">Failed to load trading accounts</Text>
      ) : (
        <Stack gap="xs">
          {entries.map((a) => (
            <UnstyledButton
              key={a.id}
              className={classes.accountRow}
              data-active={a.id === account || undefined}
              onClick={() => choose(a.id)}
              aria-current={a.id === account || undefined}
            >
              <Group justify="space-between" wrap="nowrap">
                <div>
                  <Text fw={600}>{a.name}</Text>
                  {a.description && (
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      {a.description}
                    </Text>
                  )}
                </div>
                {a.is_default && (
                  <Badge leftSection={<IconStarFilled size={10} aria-hidden="true" />} color="yellow" variant="light">
                    Default
                  </Badge>
                )}
              </Group>
            </UnstyledButton>
          ))}
          <Button component={Link} to="/trade-log" variant="light" mt="sm" onClick={onClose}>
            Manage accounts in the Trade Log
          </Button>
        </Stack>
      )}
    </Drawer>
  );
}
