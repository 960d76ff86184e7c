import { ActionIcon, Alert, Button, Card, FileButton, Group, Loader, ScrollArea, Select, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState, type ComponentProps } from 'react';
import { useSearchParams } from 'react-router';
import { BAR_FORMATS } from '../../../domain/importers/bars/bar-formats';
import { RESOLUTION_LABELS, type Resolution } from '../../../domain/market/bars';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { type BarsCoverage } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { coverageQuery, useDeleteBars } from './api';
import { BarsDialog } from './bars-dialog';
import { formatDay, formatTime } from './format';

const MAX_BYTES = 50 * 1024 * 1024;
type Day = BarsCoverage['days'][number];

/**
 * Market Data: import price bars, see which bars exist per contract and day, delete one's own. Bars
 * are market data, shared by every trader on the server; each trader deletes only what they added.
 */
export function MarketDataPage() {
  const [params] = useSearchParams();
  const { timeZone } = useTraderTime();
  const coverage = useQuery(coverageQuery);
  const [picked, setPicked] = useState<{ file: File; token: number } | null>(null);
  const resetRef = useRef<() => void>(null);
  const [contract, setContract] = useState<string | null>(params.get('contract')?.toUpperCase() ?? null);
  const [deleting, setDeleting] = useState<Day | null>(null);
  const remove = useDeleteBars();

  const contracts = useMemo(() => [...new Set((coverage.data?.days ?? []).map((d) => d.contract))].sort(), [coverage.data]);
  const days = (coverage.data?.days ?? []).filter((d) => !contract || d.contract === contract);

  const choose = (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    if (file.size > MAX_BYTES) {
      notifications.show({ color: 'red', title: 'Failed to import bars', message: 'The file is too large to import (limit 50 MB)' });
      return;
    }
    setPicked({ file, token: Date.now() });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(
      { contract: deleting.contract, resolution: deleting.resolution, day: deleting.day },
      {
        onSuccess: (result) => {
          notifications.show({
            color: 'teal',
            message: `Deleted ${result.deleted} ${result.deleted === 1 ? 'bar' : 'bars'}${result.kept > 0 ? `; ${result.kept} added by other traders stay` : ''}`,
          });
          setDeleting(null);
        },
        onError: () => notifications.show({ color: 'red', message: 'Failed to delete bars' }),
      },
    );
  };

  return (
    <Stack gap="md" data-testid="market-data-page">
      <PageHeader title="Market Data" />
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Text size="sm">
            Price bars draw your trades’ charts and give their MAE, MFE and exit analysis. They are market data, shared by every trader on this server: anyone
            signed in uses the bars you add, and you can delete only the bars you added.
          </Text>
          <Group gap="sm" wrap="wrap">
            <FileButton
              onChange={choose}
              accept=".csv,.txt,text/csv,text/plain"
              resetRef={resetRef}
              inputProps={{ 'aria-label': 'Import bars file', 'data-testid': 'bars-file-input' } as ComponentProps<'input'>}
            >
              {(props) => (
                <Button leftSection={<IconUpload size={16} aria-hidden="true" />} {...props} data-testid="import-bars">
                  Import bars
                </Button>
              )}
            </FileButton>
            <Text size="xs" c="dimmed">
              1-second or 1-minute bars: {BAR_FORMATS.slice(0, 3).map((f) => f.label).join(', ')}, or any CSV by mapping its columns.
            </Text>
          </Group>
        </Stack>
      </Card>

      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" align="center" mb="sm" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            Bars stored
          </Title>
          {contracts.length > 0 && (
            <Select
              aria-label="Contract"
              placeholder="All contracts"
              data={contracts}
              value={contract && contracts.includes(contract) ? contract : null}
              onChange={setContract}
              clearable
              size="xs"
              w={160}
              data-testid="coverage-contract"
            />
          )}
        </Group>
        {coverage.isPending ? (
          <Loader size="sm" role="status" aria-label="Loading bars" />
        ) : coverage.isError ? (
          <Alert color="red" variant="light">
            The bars could not be loaded.
          </Alert>
        ) : days.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="coverage-empty">
            {contract ? `No bars of ${contract} yet.` : 'No bars yet.'} Import a file of 1-second or 1-minute bars to see your trades on their charts.
          </Text>
        ) : (
          <ScrollArea type="auto">
            <Table striped withTableBorder fz="sm" miw={520} data-testid="coverage-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Contract</Table.Th>
                  <Table.Th>Day</Table.Th>
                  <Table.Th>Bars</Table.Th>
                  <Table.Th>From – to</Table.Th>
                  <Table.Th ta="right">Added by you</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Delete</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {days.map((day) => (
                  <Table.Tr key={`${day.contract}|${day.resolution}|${day.day}`} data-testid="coverage-row">
                    <Table.Td>{day.contract}</Table.Td>
                    <Table.Td>{formatDay(day.day)}</Table.Td>
                    <Table.Td>
                      {day.bars} × {RESOLUTION_LABELS[day.resolution as Resolution]}
                    </Table.Td>
                    <Table.Td>
                      {formatTime(day.first, timeZone)} – {formatTime(day.last, timeZone)}
                    </Table.Td>
                    <Table.Td ta="right">{day.mine}</Table.Td>
                    <Table.Td>
                      <Tooltip label={day.mine > 0 ? 'Delete the bars you added' : 'Only the bars you added can be deleted'}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete your ${RESOLUTION_LABELS[day.resolution as Resolution]} bars of ${day.contract} on ${formatDay(day.day)}`}
                          disabled={day.mine === 0}
                          onClick={() => setDeleting(day)}
                          data-testid="delete-bars"
                        >
                          <IconTrash size={16} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        <Text size="xs" c="dimmed" mt="xs">
          Days and times in {timeZone}.
        </Text>
      </Card>

      {picked && <BarsDialog key={picked.token} file={picked.file} contract={contract ?? ''} timeZone={timeZone} onClose={() => setPicked(null)} />}
      <ConfirmDialog opened={deleting !== null} onCancel={() => setDeleting(null)} onConfirm={confirmDelete} loading={remove.isPending} title="Delete bars" confirmLabel="Delete" danger>
        {deleting
          ? `Delete the ${deleting.mine} ${RESOLUTION_LABELS[deleting.resolution as Resolution]} ${deleting.mine === 1 ? 'bar' : 'bars'} of ${deleting.contract} on ${formatDay(deleting.day)} that you added? Bars other traders added stay; the MAE and MFE of trades that used these bars are computed again.`
          : ''}
      </ConfirmDialog>
    </Stack>
  );
}
