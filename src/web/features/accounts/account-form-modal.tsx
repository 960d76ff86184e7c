import {
  Autocomplete,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { ACCOUNT_KIND_LABELS } from '../../../domain/prop/labels';
import { PROP_FIRMS } from '../../../domain/prop/templates';
import type { AccountKind } from '../../../domain/prop/types';
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

const EMPTY: AccountFormValues = { name: '', description: '', is_default: false, kind: 'personal', firm: '', size: '', starting_balance: 10000 };

/** 'Create Trading Account' / 'Edit Trading Account'. */
export function AccountFormModal({ opened, onClose, account, initial, onSaved }: AccountFormModalProps) {
  const editing = Boolean(account);
  const [values, setValues] = useState<AccountFormValues>(EMPTY);
  const [nameError, setNameError] = useState<string | null>(null);
  // A new prop account starts at its plan's size until the trader types a balance of their own.
  const [balanceTouched, setBalanceTouched] = useState(false);
  const prop = values.kind !== 'personal';
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const busy = create.isPending || update.isPending;

  useEffect(() => {
    if (!opened) return;
    setValues(
      account
        ? {
            name: account.name,
            description: account.description ?? '',
            is_default: account.is_default,
            kind: account.kind,
            firm: account.firm ?? '',
            size: account.size === null ? '' : Number(account.size),
            starting_balance: Number(account.starting_balance),
          }
        : { ...EMPTY, ...initial },
    );
    setBalanceTouched(Boolean(account));
    setNameError(null);
    // `initial` is read when the dialog opens, not on every render of its caller.
  }, [opened, account]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // 'Account name is required' (the server says the same).
    if (values.name.trim() === '') {
      setNameError('Account name is required');
      return;
    }
    try {
      const saved = account ? await update.mutateAsync({ id: account.id, values }) : await create.mutateAsync(values);
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
          <div>
            <Text component="label" size="sm" fw={500} id="account-kind-label">
              Account Type
            </Text>
            <SegmentedControl
              fullWidth
              aria-labelledby="account-kind-label"
              value={values.kind}
              onChange={(kind) => setValues((v) => ({ ...v, kind: kind as AccountKind }))}
              data={Object.entries(ACCOUNT_KIND_LABELS).map(([value, label]) => ({ value, label }))}
              data-testid="account-kind"
            />
          </div>
          {prop && (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Autocomplete
                label="Prop Firm"
                value={values.firm}
                onChange={(firm) => setValues((v) => ({ ...v, firm }))}
                data={PROP_FIRMS}
                maxLength={100}
                data-testid="account-firm"
              />
              <NumberInput
                label="Account Size"
                value={values.size}
                onChange={(size) => setValues((v) => ({ ...v, size, ...(!balanceTouched && size !== '' && { starting_balance: size }) }))}
                prefix="$"
                thousandSeparator=","
                decimalScale={2}
                min={0}
                data-testid="account-size"
              />
            </SimpleGrid>
          )}
          <NumberInput
            label="Starting Balance"
            description="The balance its equity curve, balance and percentages start from."
            value={values.starting_balance}
            onChange={(starting_balance) => {
              setBalanceTouched(true);
              setValues((v) => ({ ...v, starting_balance }));
            }}
            prefix="$"
            thousandSeparator=","
            decimalScale={2}
            data-testid="account-starting-balance"
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
