import { ActionIcon, Alert, Button, Card, Group, ScrollArea, SegmentedControl, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatUsd, toCents } from '../../../domain/money';
import { PriceText } from '../../components/price-text';
import type { Fill, TradeDetails } from '../../shared/api';
import { useSaveFills, type FillDraft } from './api';
import { fromWallClockText, toWallClockText } from '../../../domain/dates';
import { formatClock, zoneLabel } from './zone-time';

const trim = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

/**
 * A trade's fills in the order traded. An imported trade's come from the broker's file; a manual
 * trade's are the trader's to add, change and remove, and the trade's prices, quantity, times and gross P&L then follow
 * from them (the server checks they make one round trip and says which fill is wrong).
 */
export function FillsCard({ details, timeZone, symbol }: { details: TradeDetails; timeZone: string; symbol: string }) {
  const [editing, setEditing] = useState<FillDraft[] | null>(null);
  const fills = details.fills;
  const first = fills.length > 0 ? Date.parse(fills[0]!.time) : undefined;

  return (
    <Card withBorder radius="md" padding="md" data-testid="trade-fills">
      <Group justify="space-between" align="center" mb="sm">
        <Title order={2} size="h4">
          Fills
        </Title>
        {details.fills_editable && editing === null && (
          <Button
            size="xs"
            variant="light"
            onClick={() =>
              setEditing(
                fills.length > 0
                  ? fills.map((f) => draftOf(f, timeZone))
                  : [emptyDraft(details, timeZone, 'Buy'), emptyDraft(details, timeZone, 'Sell')],
              )
            }
            data-testid="edit-fills"
          >
            {fills.length > 0 ? 'Edit fills' : 'Add fills'}
          </Button>
        )}
      </Group>
      {editing !== null ? (
        <FillsEditor tradeId={details.trade.id} drafts={editing} onChange={setEditing} onDone={() => setEditing(null)} timeZone={timeZone} />
      ) : fills.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="fills-empty">
          {details.fills_editable
            ? 'No fills yet. Add the trade’s fills to see them on the chart: its prices, quantity, times and gross P&L will follow from them.'
            : 'This trade was imported before Edgebook kept fills. Import its file again to add them: no trade is duplicated.'}
        </Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped withTableBorder fz="sm" miw={340} data-testid="fills-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time ({zoneLabel(timeZone)})</Table.Th>
                <Table.Th>Side</Table.Th>
                <Table.Th ta="right">Qty</Table.Th>
                <Table.Th ta="right">Price</Table.Th>
                <Table.Th ta="right">Fees</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fills.map((fill, index) => (
                <Table.Tr key={index} data-testid="fill-row">
                  <Table.Td ff="monospace">{formatClock(Date.parse(fill.time), timeZone, { sameDayAs: first })}</Table.Td>
                  <Table.Td>{fill.side}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {trim(fill.quantity)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    <PriceText price={fill.price} symbol={symbol} />
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace" c={fill.commission === null ? 'dimmed' : undefined}>
                    {fill.commission === null ? '—' : formatUsd(toCents(fill.commission))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Card>
  );
}

function draftOf(fill: Fill, timeZone: string): FillDraft {
  return {
    time: toWallClockText(Date.parse(fill.time), timeZone),
    side: fill.side,
    quantity: trim(fill.quantity),
    price: trim(fill.price),
    commission: fill.commission ?? '',
  };
}

/** A new fill on the trade's day, at its entry (or exit) time when it has one. */
function emptyDraft(details: TradeDetails, timeZone: string, side: 'Buy' | 'Sell'): FillDraft {
  const at = side === 'Buy' ? details.trade.entry_time : details.trade.exit_time;
  const time = at ? toWallClockText(Date.parse(at), timeZone) : `${details.trade.date} 09:30:00`;
  return { time, side, quantity: '1', price: '', commission: '' };
}

function FillsEditor({
  tradeId,
  drafts,
  onChange,
  onDone,
  timeZone,
}: {
  tradeId: string;
  drafts: FillDraft[];
  onChange: (drafts: FillDraft[]) => void;
  onDone: () => void;
  timeZone: string;
}) {
  const save = useSaveFills(tradeId);
  const [error, setError] = useState<string | null>(null);
  const set = (index: number, patch: Partial<FillDraft>) => onChange(drafts.map((d, i) => (i === index ? { ...d, ...patch } : d)));

  const submit = () => {
    const fills = [];
    for (const [index, draft] of drafts.entries()) {
      const ms = fromWallClockText(draft.time, timeZone);
      if (ms === null) {
        setError(`Fill ${index + 1}: write the time as yyyy-MM-dd HH:mm:ss`);
        return;
      }
      fills.push({
        time: new Date(ms).toISOString(),
        side: draft.side,
        quantity: draft.quantity.trim(),
        price: draft.price.trim(),
        commission: draft.commission.trim() === '' ? null : draft.commission.trim(),
      });
    }
    setError(null);
    save.mutate(fills, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: 'Fills saved' });
        onDone();
      },
      // The server names the fill: 'fills.1.price: ...' reads as fill 2.
      onError: (e) =>
        setError(
          e instanceof Error
            ? e.message.replace(/^fills\.(\d+)\.(\w+)/, (_m, n: string, field: string) => `Fill ${Number(n) + 1}, ${field}`)
            : 'Failed to save fills',
        ),
    });
  };

  return (
    <Stack gap="sm" data-testid="fills-editor">
      {drafts.map((draft, index) => (
        <Group key={index} gap="xs" align="flex-end" wrap="wrap" data-testid="fill-draft">
          <TextInput
            label={index === 0 ? `Time (${zoneLabel(timeZone)})` : undefined}
            aria-label={`Fill ${index + 1} time`}
            placeholder="yyyy-MM-dd HH:mm:ss"
            value={draft.time}
            onChange={(e) => set(index, { time: e.currentTarget.value })}
            w={170}
            size="xs"
          />
          <SegmentedControl
            size="xs"
            aria-label={`Fill ${index + 1} side`}
            value={draft.side}
            onChange={(value) => set(index, { side: value as FillDraft['side'] })}
            data={['Buy', 'Sell']}
          />
          <TextInput
            label={index === 0 ? 'Qty' : undefined}
            aria-label={`Fill ${index + 1} quantity`}
            value={draft.quantity}
            onChange={(e) => set(index, { quantity: e.currentTarget.value })}
            w={60}
            size="xs"
            inputMode="decimal"
          />
          <TextInput
            label={index === 0 ? 'Price' : undefined}
            aria-label={`Fill ${index + 1} price`}
            value={draft.price}
            onChange={(e) => set(index, { price: e.currentTarget.value })}
            w={100}
            size="xs"
            inputMode="decimal"
          />
          <TextInput
            label={index === 0 ? 'Fees' : undefined}
            aria-label={`Fill ${index + 1} fees`}
            placeholder="optional"
            value={draft.commission}
            onChange={(e) => set(index, { commission: e.currentTarget.value })}
            w={80}
            size="xs"
            inputMode="decimal"
          />
          <Tooltip label="Remove fill">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove fill ${index + 1}`}
              onClick={() => onChange(drafts.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      {error && (
        <Alert color="red" variant="light" data-testid="fills-error">
          {error}
        </Alert>
      )}
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() =>
            onChange([...drafts, { ...(drafts.at(-1) ?? { time: '', side: 'Sell', quantity: '1', price: '', commission: '' }), price: '' }])
          }
          data-testid="add-fill"
        >
          Add fill
        </Button>
        <Button size="xs" onClick={submit} loading={save.isPending} data-testid="save-fills">
          {drafts.length === 0 ? 'Remove all fills' : 'Save fills'}
        </Button>
        <Button size="xs" variant="subtle" onClick={onDone}>
          Cancel
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        The fills must go from flat back to flat once. The trade’s side, quantity, average prices, times and gross P&amp;L follow from them; with fees
        given, its commission too.
      </Text>
    </Stack>
  );
}
