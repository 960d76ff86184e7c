import {
  ActionIcon,
  Button,
  Card,
  Group,
  NumberInput,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LEDGER_KINDS, type LedgerKind, type LedgerSummary } from '../../../domain/prop/ledger';
import { LEDGER_KIND_LABELS } from '../../../domain/prop/labels';
import { toCents } from '../../../domain/cents';
import { propLedgerQuery, type LedgerEntry } from '../../shared/api';
import { pnlColor } from '../../lib/tone';
import { useAddLedgerEntry, useDeleteLedgerEntry } from './api';
import { formatLongDay, formatSignedUsd, formatUsd } from './format';

const roi = (summary: LedgerSummary) => (summary.roiPct === null ? 'no costs yet' : `${summary.roiPct > 0 ? '+' : ''}${summary.roiPct}% ROI`);

function SummaryLine({ label, summary, testId }: { label: string; summary: LedgerSummary; testId: string }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid={testId}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="sm">
        {formatUsd(summary.payoutsCents)} paid out − {formatUsd(summary.costsCents)} spent ={' '}
        <Text span fw={700} ff="monospace" c={pnlColor(summary.netCents)}>
          {formatSignedUsd(summary.netCents)}
        </Text>{' '}
        <Text span c="dimmed">
          ({roi(summary)})
        </Text>
      </Text>
    </Group>
  );
}

/**
 * What the account cost and paid: evaluation, reset, activation and other fees, and payouts; the
 * prop ROI (payouts minus costs) of this account, of its firm and of every firm.
 */
export function LedgerCard(props: {
  accountId: string;
  firm: string | null;
  entries: readonly LedgerEntry[];
  summary: LedgerSummary;
  today: string;
}) {
  const { accountId, firm, entries, summary, today } = props;
  const all = useQuery(propLedgerQuery);
  const add = useAddLedgerEntry(accountId);
  const remove = useDeleteLedgerEntry();
  const [kind, setKind] = useState<LedgerKind>('evaluation-fee');
  const [amount, setAmount] = useState<string | number>('');
  const [day, setDay] = useState(today);
  const [note, setNote] = useState('');
  const firmSummary = all.data?.firms.find((f) => f.firm === (firm ?? ''));

  const submit = () => {
    add.mutate(
      { kind, amount: typeof amount === 'number' ? amount : amount.trim(), occurred_on: day.trim(), note: note.trim() },
      {
        onSuccess: () => {
          setAmount('');
          setNote('');
          notifications.show({ color: 'teal', message: `${LEDGER_KIND_LABELS[kind]} added` });
        },
        onError: (error) => notifications.show({ color: 'red', title: 'Failed to add the entry', message: error.message }),
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="md" data-testid="prop-ledger">
      <Title order={2} size="h4" mb="sm">
        Costs and Payouts
      </Title>
      <Stack gap={6} mb="md">
        <SummaryLine label="This account" summary={summary} testId="prop-roi-account" />
        {firmSummary && firm && <SummaryLine label={firm} summary={firmSummary} testId="prop-roi-firm" />}
        {all.data && <SummaryLine label="All prop firms" summary={all.data.total} testId="prop-roi-total" />}
      </Stack>

      {entries.length === 0 ? (
        <Text size="sm" c="dimmed" mb="sm">
          Nothing recorded yet.
        </Text>
      ) : (
        <ScrollArea type="auto" mb="sm">
          <Table striped miw={420} data-testid="prop-ledger-entries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Note</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((e) => {
                const cents = toCents(e.amount) * (e.kind === 'payout' ? 1 : -1);
                return (
                  <Table.Tr key={e.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatLongDay(e.occurred_on)}</Table.Td>
                    <Table.Td>{LEDGER_KIND_LABELS[e.kind]}</Table.Td>
                    <Table.Td ta="right" ff="monospace" c={pnlColor(cents)}>
                      {formatSignedUsd(cents)}
                    </Table.Td>
                    <Table.Td>{e.note}</Table.Td>
                    <Table.Td>
                      <Tooltip label="Delete entry" withArrow>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={`Delete ${LEDGER_KIND_LABELS[e.kind].toLowerCase()} of ${formatLongDay(e.occurred_on)}`}
                          onClick={() => remove.mutate(e.id)}
                        >
                          <IconTrash size={16} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}

      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        data-testid="prop-ledger-form"
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Select
            label="Kind"
            value={kind}
            onChange={(v) => setKind((v ?? 'evaluation-fee') as LedgerKind)}
            allowDeselect={false}
            data={LEDGER_KINDS.map((k) => ({ value: k, label: LEDGER_KIND_LABELS[k] }))}
          />
          <NumberInput label="Amount" value={amount} onChange={setAmount} prefix="$" thousandSeparator="," decimalScale={2} min={0} />
          <TextInput label="Day" description="yyyy-MM-dd" value={day} onChange={(e) => setDay(e.currentTarget.value)} />
          <TextInput label="Note (optional)" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={add.isPending} disabled={amount === ''} data-testid="prop-ledger-add">
            Add Entry
          </Button>
        </Group>
      </form>
    </Card>
  );
}
