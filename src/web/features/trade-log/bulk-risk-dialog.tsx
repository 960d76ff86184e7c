import { Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useBulkRisk } from '../../shared/api';
import { describeError, toastError, toastSuccess } from './toast';

type Kind = 'amount' | 'stop_points' | 'clear';

/**
 * Set Risk on the selected trades, all or none: a dollar risk, a stop that many points from each
 * trade's entry on its losing side, or none of their own so that the defaults apply again.
 */
export function BulkRiskDialog({
  ids,
  opened,
  onClose,
  onDone,
}: {
  ids: readonly string[];
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [kind, setKind] = useState<Kind>('amount');
  const [value, setValue] = useState('');
  const bulk = useBulkRisk();
  const count = ids.length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = value.trim().replace(/[$,]/g, '');
    const risk = kind === 'clear' ? { kind } : kind === 'amount' ? { kind, amount } : { kind, points: amount };
    bulk.mutate(
      { ids: [...ids], risk },
      {
        onSuccess: ({ updated }) => {
          toastSuccess(kind === 'clear' ? `Planned risk cleared on ${updated} trade(s)` : `Planned risk set on ${updated} trade(s)`);
          setValue('');
          onDone();
        },
        onError: (error) => toastError('Failed to set the planned risk', describeError(error)?.replace(/^risk(\.\w+)?: /, '')),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Set Risk" centered data-testid="bulk-risk-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{`The planned risk of the ${count} selected trade(s), all or none. Their R-multiples follow from it.`}</Text>
          <SegmentedControl
            fullWidth
            value={kind}
            onChange={(k) => setKind(k as Kind)}
            data={[
              { value: 'amount', label: 'Dollar risk' },
              { value: 'stop_points', label: 'Stop distance' },
              { value: 'clear', label: 'Use defaults' },
            ]}
            aria-label="How the risk is set"
            data-testid="bulk-risk-kind"
          />
          {kind === 'clear' ? (
            <Text size="sm" c="dimmed">
              Their own stop or dollar risk is removed; your default for each account and instrument applies.
            </Text>
          ) : (
            <TextInput
              label={kind === 'amount' ? 'Risk per trade' : 'Points from the entry'}
              description={
                kind === 'stop_points'
                  ? 'Each stop goes below a long’s entry and above a short’s; every trade needs its side, entry price and quantity.'
                  : undefined
              }
              leftSection={kind === 'amount' ? '$' : undefined}
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
              inputMode="decimal"
              required
              data-autofocus
              data-testid="bulk-risk-value"
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={bulk.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={bulk.isPending}
              disabled={count === 0 || (kind !== 'clear' && value.trim() === '')}
              data-testid="bulk-risk-confirm"
            >
              Apply to {count} trade(s)
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
