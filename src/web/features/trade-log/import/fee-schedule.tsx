import { ActionIcon, Alert, Anchor, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconPlus, IconReceipt, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys, type TradingAccount } from '../../../shared/api';
import { applyFeeSchedule, feeScheduleQuery, saveFeeSchedule, type FeeSchedule } from './api';
import { describeError, toastError, toastSuccess } from './notify';

const money = (rate: string) => `$${rate}`;

function describe(schedule: FeeSchedule): string {
  const roots = Object.entries(schedule.roots).map(([root, rate]) => `${root} ${money(rate)}`);
  return [`micro ${money(schedule.micro)}`, `E-mini and standard ${money(schedule.mini)}`, ...roots].join(', ');
}

/**
 * The export has no commissions or fees (Tradovate, TopstepX orders), so each trading account's
 * schedule, dollars per contract per side, is applied and shown here; the trader edits it on the spot, which
 * previews the file again, and may apply it again to the account's earlier imported trades.
 */
export function FeeSchedules({ schedules, accounts, onSaved }: { schedules: FeeSchedule[]; accounts: TradingAccount[]; onSaved: () => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  if (schedules.length === 0) return null;
  const nameOf = (id: string) => accounts.find((a) => a.id === id)?.name ?? 'this account';
  return (
    <Alert color="blue" icon={<IconInfoCircle size={18} />} title="Commissions and fees from the account's schedule" data-testid="import-fees">
      <Stack gap={6}>
        <Text size="sm">
          This export has no commissions or fees, so they are taken from each trading account's fee schedule, per contract and side:
        </Text>
        {schedules.map((schedule) => (
          <Stack key={schedule.account_id} gap={4}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm">
                <Text span fw={600}>
                  {nameOf(schedule.account_id)}
                </Text>
                : {describe(schedule)}
                {schedule.stored ? '' : ' (defaults)'}
              </Text>
              {editing !== schedule.account_id && (
                <Anchor component="button" type="button" size="sm" onClick={() => setEditing(schedule.account_id)} data-testid="import-fees-edit">
                  Edit fee schedule
                </Anchor>
              )}
            </Group>
            {editing === schedule.account_id && (
              <FeeScheduleEditor
                accountId={schedule.account_id}
                accountName={nameOf(schedule.account_id)}
                onClose={() => setEditing(null)}
                onSaved={() => {
                  setEditing(null);
                  onSaved();
                }}
              />
            )}
          </Stack>
        ))}
      </Stack>
    </Alert>
  );
}

/**
 * The same schedule from the Trading Accounts panel (each trading account has one), before any
 * import and for re-applying new rates to the account's earlier imports.
 */
export function FeeScheduleButton({ account }: { account: TradingAccount }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconReceipt size={14} aria-hidden="true" />}
        onClick={() => setOpen(true)}
        data-testid="account-fees"
      >
        Fee Schedule
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Commissions and Fees" centered size="lg" data-testid="account-fees-modal">
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            Applied to imported trades of {account.name} whose file has no commissions or fees (Tradovate, TopstepX orders).
          </Text>
          {open && (
            <FeeScheduleEditor accountId={account.id} accountName={account.name} onClose={() => setOpen(false)} onSaved={() => setOpen(false)} />
          )}
        </Stack>
      </Modal>
    </>
  );
}

interface RootRow {
  root: string;
  rate: string;
}

export function FeeScheduleEditor({
  accountId,
  accountName,
  onClose,
  onSaved,
}: {
  accountId: string;
  accountName: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const current = useQuery(feeScheduleQuery(accountId));
  if (!current.data) return <Text size="sm">Loading the fee schedule...</Text>;
  return <EditorForm key={current.data.account_id} schedule={current.data} accountName={accountName} onClose={onClose} onSaved={onSaved} />;
}

function EditorForm({
  schedule,
  accountName,
  onClose,
  onSaved,
}: {
  schedule: FeeSchedule;
  accountName: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const client = useQueryClient();
  const [micro, setMicro] = useState(schedule.micro);
  const [mini, setMini] = useState(schedule.mini);
  const [roots, setRoots] = useState<RootRow[]>(Object.entries(schedule.roots).map(([root, rate]) => ({ root, rate })));
  const [error, setError] = useState<string | null>(null);
  const values = () => ({
    micro: micro.trim(),
    mini: mini.trim(),
    roots: Object.fromEntries(roots.filter((r) => r.root.trim() !== '').map((r) => [r.root.trim().toUpperCase(), r.rate.trim()])),
  });
  const save = useMutation({
    mutationFn: (alsoApply: boolean) =>
      saveFeeSchedule(schedule.account_id, values()).then(async (saved) => ({
        saved,
        applied: alsoApply ? await applyFeeSchedule(schedule.account_id) : null,
      })),
    onSuccess: async ({ applied }) => {
      await client.invalidateQueries({ queryKey: queryKeys.imports.all });
      // Applied, it changed stored trades' fees: their lists and statistics (all under ['trades']).
      if (applied) {
        await client.invalidateQueries({ queryKey: queryKeys.trades.all });
        toastSuccess(`Fee schedule saved and applied to ${applied.updated} imported ${applied.updated === 1 ? 'trade' : 'trades'} of ${accountName}`);
      } else toastSuccess('Fee schedule saved');
      onSaved();
    },
    onError: (e) => {
      setError(describeError(e) ?? 'Failed to save the fee schedule');
      toastError('Failed to save the fee schedule', describeError(e));
    },
  });
  return (
    <Paper withBorder p="sm" data-testid="fee-schedule-editor">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          Fee schedule of {accountName} (dollars per contract per side)
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <TextInput
            label="Micro contracts"
            description="MNQ, MES, MYM, M2K, MGC..."
            value={micro}
            onChange={(e) => setMicro(e.currentTarget.value)}
            inputMode="decimal"
            data-autofocus
            data-testid="fee-micro"
          />
          <TextInput
            label="E-mini and standard contracts"
            description="NQ, ES, YM, RTY, CL, GC..."
            value={mini}
            onChange={(e) => setMini(e.currentTarget.value)}
            inputMode="decimal"
            data-testid="fee-mini"
          />
        </SimpleGrid>
        {roots.map((row, index) => (
          <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label={index === 0 ? 'Instrument root' : undefined}
              aria-label="Instrument root"
              placeholder="MNQ"
              value={row.root}
              maxLength={6}
              flex={1}
              miw={0}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setRoots((rs) => rs.map((r, i) => (i === index ? { ...r, root: v } : r)));
              }}
            />
            <TextInput
              label={index === 0 ? 'Per contract per side' : undefined}
              aria-label={`Rate for ${row.root || 'the root'}`}
              placeholder="0.52"
              value={row.rate}
              inputMode="decimal"
              flex={1}
              miw={0}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setRoots((rs) => rs.map((r, i) => (i === index ? { ...r, rate: v } : r)));
              }}
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Remove ${row.root || 'this root'}`}
              onClick={() => setRoots((rs) => rs.filter((_, i) => i !== index))}
              mb={4}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Anchor component="button" type="button" size="sm" w="fit-content" onClick={() => setRoots((rs) => [...rs, { root: '', rate: '' }])}>
          <Group gap={4}>
            <IconPlus size={14} aria-hidden />
            Add a rate for one instrument
          </Group>
        </Anchor>
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" gap="xs" wrap="wrap">
          <Button variant="default" size="xs" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button
            variant="light"
            size="xs"
            onClick={() => save.mutate(true)}
            loading={save.isPending && save.variables === true}
            data-testid="fee-save-apply"
          >
            Save and apply to earlier imports
          </Button>
          <Button size="xs" onClick={() => save.mutate(false)} loading={save.isPending && save.variables === false} data-testid="fee-save">
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
