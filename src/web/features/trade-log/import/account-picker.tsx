import { Anchor, Button, Checkbox, Group, Paper, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys, type TradingAccount } from '../../../shared/api';
import { createAccount } from './api';
import { describeError, toastError, toastSuccess } from './notify';

export const SELECT_ACCOUNT_MESSAGE = 'Please select a trading account';

interface AccountPickerProps {
  accounts: TradingAccount[];
  loading: boolean;
  value: string | null;
  onChange: (accountId: string | null) => void;
  /** Told the id of an account created (and selected) here. */
  onCreated?: (accountId: string) => void;
  error: string | null;
}

/**
 * The import's account picker can switch to a create-account form and back; without a choice it says 'Please select
 * a trading account', and a new account says 'Trading account created and selected'.
 */
export function AccountPicker({ accounts, loading, value, onChange, onCreated, error }: AccountPickerProps) {
  const [creating, setCreating] = useState(false);

  if (creating) {
    return (
      <CreateAccountForm
        onCancel={() => setCreating(false)}
        onCreated={(account) => {
          onChange(account.id);
          onCreated?.(account.id);
          setCreating(false);
        }}
      />
    );
  }
  return (
    <Stack gap={4}>
      <Select
        label="Trading account"
        placeholder={loading ? 'Loading accounts...' : 'Select a trading account'}
        data={accounts.map((a) => ({ value: a.id, label: a.is_default ? `${a.name} ★` : a.name }))}
        value={value}
        onChange={(next) => onChange(next)}
        error={error}
        withAsterisk
        allowDeselect={false}
        nothingFoundMessage="No trading accounts yet"
        data-testid="import-account"
      />
      <Anchor component="button" type="button" size="sm" onClick={() => setCreating(true)} data-testid="import-new-account" w="fit-content">
        <Group gap={4}>
          <IconPlus size={14} aria-hidden />
          Create a new trading account
        </Group>
      </Anchor>
    </Stack>
  );
}

function CreateAccountForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (account: TradingAccount) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: createAccount,
    onSuccess: async (account) => {
      // The new account is in the list before the picker shows it selected.
      client.setQueryData<TradingAccount[]>(queryKeys.accounts.all, (list) => [...(list ?? []).filter((a) => a.id !== account.id), account]);
      await client.invalidateQueries({ queryKey: queryKeys.accounts.all });
    },
  });

  const submit = async () => {
    if (name.trim() === '') {
      setNameError('Account name is required');
      return;
    }
    try {
      const account = await create.mutateAsync({ name, description, is_default: isDefault });
      toastSuccess('Trading account created and selected');
      onCreated(account);
    } catch (error) {
      toastError('Failed to create trading account', describeError(error));
    }
  };

  // Not a <form>: the dialog is one form already; Enter in the name field creates the account.
  return (
    <Paper withBorder p="sm" data-testid="import-create-account">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Create Trading Account
        </Text>
        <TextInput
          label="Account Name"
          value={name}
          onChange={(e) => {
            const next = e.currentTarget.value;
            setName(next);
            if (nameError && next.trim() !== '') setNameError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void submit();
            }
          }}
          error={nameError}
          maxLength={100}
          data-autofocus
          data-testid="import-account-name"
        />
        <Textarea
          label="Description (Optional)"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          autosize
          minRows={1}
          maxLength={500}
        />
        <Checkbox label="Set as default account" checked={isDefault} onChange={(e) => setIsDefault(e.currentTarget.checked)} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" size="xs" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button size="xs" onClick={() => void submit()} loading={create.isPending} data-testid="import-account-create">
            Create
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
