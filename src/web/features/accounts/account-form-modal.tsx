import { Button, Checkbox, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { TradingAccount } from '../../shared/api';
import { useCreateAccount, useUpdateAccount, type AccountFormValues } from './api';
import { SIGNED_OUT_WORDS } from '../../lib/session-expiry';
import { describeError, toastError, toastSuccess } from './toast';

interface AccountFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The account to edit; without it the dialog creates one. */
  account?: TradingAccount | null;
  /** What a new account starts with (a broker connection names it after the broker's account). */
  initial?: Partial<AccountFormValues>;
  onSaved?: (account: TradingAccount) => void;
}

const EMPTY: AccountFormValues = { name: '', description: '', is_default: false };

/** Spec part 1 §2.6: 'Create Trading Account' / 'Edit Trading Account'. */
export function AccountFormModal({ opened, onClose, account, initial, onSaved }: AccountFormModalProps) {
  const editing = Boolean(account);
  const [values, setValues] = useState<AccountFormValues>(EMPTY);
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const busy = create.isPending || update.isPending;

  useEffect(() => {
    if (!opened) return;
    setValues(
      account ? { name: account.name, description: account.description ?? '', is_default: account.is_default } : { ...EMPTY, ...initial },
    );
    setNameError(null);
    // `initial` is read when the dialog opens, not on every render of its caller.
  }, [opened, account]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Part 1 §5: 'Account name is required' (the server says the same).
    if (values.name.trim() === '') {
      setNameError('Account name is required');
      return;
    }
    try {
      const saved = account
        ? await update.mutateAsync({ id: account.id, values })
        : await create.mutateAsync(values);
      toastSuccess(account ? 'Trading account updated successfully' : 'Trading account created successfully');
      onSaved?.(saved);
      onClose();
    } catch (error) {
      toastError(
        account ? 'Failed to update trading account' : 'Failed to create trading account',
        describeError(error, account ? SIGNED_OUT_WORDS.updateAccount : SIGNED_OUT_WORDS.createAccount),
      );
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? 'Edit Trading Account' : 'Create Trading Account'}
      centered
      data-testid="account-form-modal"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Account Name"
            value={values.name}
            onChange={(e) => {
              const name = e.currentTarget.value;
              setValues((v) => ({ ...v, name }));
              if (nameError && name.trim() !== '') setNameError(null);
            }}
            error={nameError}
            maxLength={100}
            data-autofocus
            data-testid="account-name"
          />
          <Textarea
            label="Description (Optional)"
            value={values.description}
            onChange={(e) => {
              const description = e.currentTarget.value;
              setValues((v) => ({ ...v, description }));
            }}
            autosize
            minRows={2}
            maxLength={500}
            data-testid="account-description"
          />
          <Checkbox
            label="Set as default account"
            checked={values.is_default}
            onChange={(e) => {
              const checked = e.currentTarget.checked;
              setValues((v) => ({ ...v, is_default: checked }));
            }}
            data-testid="account-default"
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} data-testid="account-submit">
              {editing ? 'Update' : 'Create'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
