import { ActionIcon, Badge, Button, Card, Group, Modal, Paper, Stack, Text, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconPencil, IconPlus, IconShieldCheck, IconStar, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatUsd, toCents } from '../../../domain/cents';
import { ACCOUNT_KIND_LABELS } from '../../../domain/prop/labels';
import type { AccountFilter, TradingAccount } from '../../shared/api';
import { AccountFormModal } from './account-form-modal';
import { AccountRequestError, pickDefaultAccount, useAccounts, useDeleteAccount, useSetDefaultAccount } from './api';
import { SIGNED_OUT_WORDS } from '../../lib/session-expiry';
import { describeError, toastError, toastSuccess } from './toast';
import classes from './accounts.module.css';

export interface AccountManagerPanelProps {
  /** The account being viewed (or 'all' / 'unassigned'); the Current Account card shows it, else the default. */
  selectedAccount: AccountFilter;
  onSelectAccount: (account: AccountFilter) => void;
  /** More actions on the Current Account card, from the page that shows the panel (the Trade Log's fee schedule). */
  accountActions?: (account: TradingAccount) => ReactNode;
}

/**
 * The trading account manager: a Current Account card with its Default badge and Set Default,
 * Edit and Delete; an All Accounts list when there is more than one; the Create/Edit dialog; the delete confirmation.
 */
export function AccountManagerPanel({ selectedAccount, onSelectAccount, accountActions }: AccountManagerPanelProps) {
  const { data: accounts = [], isPending, isError } = useAccounts();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<TradingAccount | null>(null);
  const [deleting, setDeleting] = useState<TradingAccount | null>(null);
  const setDefault = useSetDefaultAccount();
  const remove = useDeleteAccount();

  const current = accounts.find((a) => a.id === selectedAccount) ?? pickDefaultAccount(accounts);

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };
  const openEdit = (account: TradingAccount) => {
    setEditing(account);
    setFormOpen(true);
  };

  const makeDefault = async (account: TradingAccount) => {
    try {
      await setDefault.mutateAsync(account.id);
      toastSuccess('Default account updated successfully');
    } catch (error) {
      toastError('Failed to set default account', describeError(error));
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const account = deleting;
    try {
      await remove.mutateAsync(account.id);
      toastSuccess('Trading account deleted successfully');
      setDeleting(null);
      if (selectedAccount === account.id) {
        const next = pickDefaultAccount(accounts.filter((a) => a.id !== account.id));
        onSelectAccount(next?.id ?? 'all');
      }
    } catch (error) {
      setDeleting(null);
      // 'Cannot delete account with existing trades' / 'Please delete all trades for this account first'.
      if (error instanceof AccountRequestError && error.status === 409) toastError(error.message, error.description);
      else toastError('Failed to delete trading account', describeError(error, SIGNED_OUT_WORDS.deleteAccount));
    }
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="accounts-panel">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Trading Accounts
        </Title>
        <Button size="xs" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={openCreate} data-testid="account-create">
          New Account
        </Button>
      </Group>

      {isPending ? (
        <Text c="dimmed" size="sm">
          Loading accounts...
        </Text>
      ) : isError ? (
        <Text c="red" size="sm">
          Failed to load trading accounts
        </Text>
      ) : !current ? (
        <Text c="dimmed" size="sm" data-testid="accounts-empty">
          No trading accounts yet. Create one to group your trades.
        </Text>
      ) : (
        <Stack gap="md">
          <Card withBorder radius="md" p="sm" data-testid="current-account">
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              Current Account
            </Text>
            <Group justify="space-between" wrap="wrap" gap="xs" mt={4}>
              <Group gap="xs" wrap="nowrap" miw={0}>
                <Text fw={600} truncate data-testid="current-account-name">
                  {current.name}
                </Text>
                {current.is_default && (
                  <Badge color="yellow" variant="light" size="sm" data-testid="default-badge">
                    Default
                  </Badge>
                )}
                {current.kind !== 'personal' && (
                  <Badge color="blue" variant="light" size="sm" tt="none" data-testid="account-kind-badge">
                    {ACCOUNT_KIND_LABELS[current.kind]}
                  </Badge>
                )}
              </Group>
              <Group gap="xs">
                {!current.is_default && (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconStar size={14} aria-hidden="true" />}
                    onClick={() => void makeDefault(current)}
                    loading={setDefault.isPending}
                    data-testid="account-set-default"
                  >
                    Set Default
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPencil size={14} aria-hidden="true" />}
                  onClick={() => openEdit(current)}
                  data-testid="account-edit"
                >
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  component={Link}
                  to={`/prop/${current.id}`}
                  leftSection={<IconShieldCheck size={14} aria-hidden="true" />}
                  data-testid="account-prop-status"
                >
                  {current.kind === 'personal' ? 'Rules' : 'Rules & Status'}
                </Button>
                {accountActions?.(current)}
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden="true" />}
                  onClick={() => setDeleting(current)}
                  data-testid="account-delete"
                >
                  Delete
                </Button>
              </Group>
            </Group>
            <Text size="sm" c="dimmed" mt={4} data-testid="current-account-balance">
              {[
                current.firm,
                current.size !== null && `${formatUsd(toCents(current.size))} account`,
                `starts at ${formatUsd(toCents(current.starting_balance))}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            {current.description && (
              <Text size="sm" c="dimmed" mt={4}>
                {current.description}
              </Text>
            )}
          </Card>

          {accounts.length > 1 && (
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
                All Accounts
              </Text>
              <Stack gap={4} data-testid="all-accounts">
                {accounts.map((account) => (
                  <Group key={account.id} gap="xs" wrap="nowrap" className={classes.row} data-active={account.id === current.id || undefined}>
                    <UnstyledButton
                      className={classes.rowButton}
                      onClick={() => onSelectAccount(account.id)}
                      aria-current={account.id === current.id ? 'true' : undefined}
                    >
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" truncate>
                          {account.name}
                        </Text>
                        {account.is_default && (
                          <Badge color="yellow" variant="light" size="xs">
                            Default
                          </Badge>
                        )}
                      </Group>
                    </UnstyledButton>
                    <Tooltip label={`Edit ${account.name}`}>
                      <ActionIcon variant="subtle" color="gray" onClick={() => openEdit(account)} aria-label={`Edit ${account.name}`}>
                        <IconPencil size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                ))}
              </Stack>
            </div>
          )}
        </Stack>
      )}

      <AccountFormModal
        opened={formOpen}
        onClose={() => setFormOpen(false)}
        account={editing}
        onSaved={(saved) => {
          if (!editing) onSelectAccount(saved.id);
        }}
      />

      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete Trading Account" centered data-testid="account-delete-modal">
        <Text size="sm">{deleting ? `Are you sure you want to delete "${deleting.name}"? This action cannot be undone.` : ''}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setDeleting(null)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red.8" onClick={() => void confirmDelete()} loading={remove.isPending} data-testid="account-delete-confirm">
            Delete
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
