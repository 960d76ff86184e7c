import { ActionIcon, Button, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatUsd, toCents } from '../../../domain/money';
import { accountsQuery, riskDefaultsQuery, useDeleteRiskDefault, usePutRiskDefault, type RiskDefaultDto } from '../../shared/api';
import { describeError, toastError, toastSuccess } from './toast';

const ALL_ACCOUNTS = 'all';

/** '20 points', '$200.00 a trade'. */
function describeDefault(d: RiskDefaultDto): string {
  if (d.risk_amount !== null) return `${formatUsd(toCents(d.risk_amount))} a trade`;
  const points = Number(d.stop_points);
  return `${points} point${points === 1 ? '' : 's'} to the stop`;
}

/**
 * Risk defaults: what a trade without its own stop or dollar risk is planned at, per account (or
 * every account) and instrument root (or any). The most specific applies: the account's root, the account, the root,
 * then any.
 */
export function RiskDefaultsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const defaults = useQuery({ ...riskDefaultsQuery, enabled: opened });
  const accounts = useQuery({ ...accountsQuery, enabled: opened });
  const put = usePutRiskDefault();
  const remove = useDeleteRiskDefault();
  const [account, setAccount] = useState(ALL_ACCOUNTS);
  const [root, setRoot] = useState('');
  const [kind, setKind] = useState<'points' | 'amount'>('points');
  const [value, setValue] = useState('');
  const accountName = (id: string | null) => (id === null ? 'All accounts' : (accounts.data?.find((a) => a.id === id)?.name ?? 'Unknown account'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = value.trim().replace(/[$,]/g, '');
    put.mutate(
      {
        account_id: account === ALL_ACCOUNTS ? null : account,
        root: root.trim() || null,
        ...(kind === 'points' ? { stop_points: amount } : { risk_amount: amount }),
      },
      {
        onSuccess: () => {
          toastSuccess('Risk default saved');
          setValue('');
          setRoot('');
        },
        onError: (error) => toastError('Failed to save the risk default', describeError(error)),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Risk defaults" size="lg" centered data-testid="risk-defaults-modal">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          A trade without its own stop or dollar risk is planned at the default of its account and instrument; the most specific one applies. Its
          R-multiple is its net P&L over that risk.
        </Text>
        {defaults.data && defaults.data.length > 0 ? (
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing="xs" data-testid="risk-defaults-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Account</Table.Th>
                  <Table.Th>Instrument</Table.Th>
                  <Table.Th>Default</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {defaults.data.map((d) => (
                  <Table.Tr key={d.id} data-testid="risk-default-row">
                    <Table.Td>{accountName(d.account_id)}</Table.Td>
                    <Table.Td>{d.root ?? 'Any'}</Table.Td>
                    <Table.Td>{describeDefault(d)}</Table.Td>
                    <Table.Td ta="right">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove the default for ${accountName(d.account_id)}, ${d.root ?? 'any instrument'}`}
                        onClick={() =>
                          remove.mutate(d.id, {
                            onSuccess: () => toastSuccess('Risk default removed'),
                            onError: (error) => toastError('Failed to remove the risk default', describeError(error)),
                          })
                        }
                      >
                        <IconTrash size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text size="sm" data-testid="risk-defaults-empty">
            No risk defaults yet: trades without their own plan have no R-multiple.
          </Text>
        )}
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Select
                label="Account"
                data={[{ value: ALL_ACCOUNTS, label: 'All accounts' }, ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))]}
                value={account}
                onChange={(v) => setAccount(v ?? ALL_ACCOUNTS)}
                allowDeselect={false}
                data-testid="risk-default-account"
              />
              <TextInput
                label="Instrument"
                placeholder="Any"
                description="A root such as NQ or MES; empty for any"
                value={root}
                onChange={(e) => setRoot(e.currentTarget.value)}
                maxLength={20}
                data-testid="risk-default-root"
              />
              <SegmentedControl
                fullWidth
                value={kind}
                onChange={(k) => setKind(k as 'points' | 'amount')}
                data={[
                  { value: 'points', label: 'Stop in points' },
                  { value: 'amount', label: 'Dollars a trade' },
                ]}
                aria-label="Default kind"
                data-testid="risk-default-kind"
                style={{ alignSelf: 'end' }}
              />
              <TextInput
                label={kind === 'points' ? 'Points' : 'Dollars'}
                leftSection={kind === 'amount' ? '$' : undefined}
                value={value}
                onChange={(e) => setValue(e.currentTarget.value)}
                inputMode="decimal"
                data-testid="risk-default-value"
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={put.isPending} disabled={value.trim() === ''} data-testid="risk-default-save">
                Save default
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}
