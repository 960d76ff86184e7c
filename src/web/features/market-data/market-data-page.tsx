import {
  ActionIcon,
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  Loader,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
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
import { BarsBatchDialog } from './bars-batch-dialog';
import { BarsDialog } from './bars-dialog';
import { formatDay, formatTime } from './format';
import { NewsEventsCard } from './news-events-card';

const MAX_BYTES = 50 * 1024 * 1024;
type Day = BarsCoverage['days'][number];

/**
 * Market Data: import price bars (a file, several, or a folder of them), see the bars you have per contract and day,
 * delete them. Bars a trader uploads are theirs alone: no other trader's figures read them. Below, past economic
 * calendar events for the news filter (news-events-card.tsx).
 */
export function MarketDataPage() {
  const [params] = useSearchParams();
  const { timeZone } = useTraderTime();
  const coverage = useQuery(coverageQuery);
  const [picked, setPicked] = useState<{ file: File; token: number } | null>(null);
  const [batch, setBatch] = useState<{ files: File[]; token: number } | null>(null);
  const resetRef = useRef<() => void>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const [contract, setContract] = useState<string | null>(params.get('contract')?.toUpperCase() ?? null);
  const [deleting, setDeleting] = useState<Day | null>(null);
  const remove = useDeleteBars();

  const contracts = useMemo(() => [...new Set((coverage.data?.days ?? []).map((d) => d.contract))].sort(), [coverage.data]);
  const days = (coverage.data?.days ?? []).filter((d) => !contract || d.contract === contract);

  const choose = (chosen: File[] | null) => {
    resetRef.current?.();
    const files = (chosen ?? []).filter((file) => /\.(csv|txt)$/i.test(file.name) || chosen?.length === 1);
    if (files.length === 0) return;
    const tooLarge = files.filter((file) => file.size > MAX_BYTES);
    if (tooLarge.length > 0) {
      notifications.show({
        color: 'red',
        title: 'Failed to import bars',
        message: `${tooLarge.map((f) => f.name).join(', ')}: too large to import (limit 50 MB)`,
      });
      return;
    }
    if (files.length === 1) setPicked({ file: files[0]!, token: Date.now() });
    else setBatch({ files, token: Date.now() });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(
      { contract: deleting.contract, resolution: deleting.resolution, day: deleting.day },
      {
        onSuccess: (result) => {
          notifications.show({
            color: 'teal',
            message: `Deleted ${result.deleted} ${result.deleted === 1 ? 'bar' : 'bars'}`,
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
            Price bars draw your trades’ charts and give their MAE, MFE and exit analysis. The bars you add are yours alone: no other trader sees
            them, and you can replace or delete them whenever you like. Bars your broker connection fetches come from your broker.
          </Text>
          <Group gap="sm" wrap="wrap">
            <FileButton
              onChange={choose}
              accept=".csv,.txt,text/csv,text/plain"
              multiple
              resetRef={resetRef}
              inputProps={{ 'aria-label': 'Import bars files', 'data-testid': 'bars-file-input' } as ComponentProps<'input'>}
            >
              {(props) => (
                <Button leftSection={<IconUpload size={16} aria-hidden="true" />} {...props} data-testid="import-bars">
                  Import bars
                </Button>
              )}
            </FileButton>
            <Button variant="light" onClick={() => folderRef.current?.click()} data-testid="import-bars-folder">
              Import a folder
            </Button>
            <input
              ref={folderRef}
              type="file"
              hidden
              multiple
              aria-label="Import a folder of bar files"
              data-testid="bars-folder-input"
              {...{ webkitdirectory: '', directory: '' }}
              onChange={(e) => {
                choose(e.currentTarget.files ? [...e.currentTarget.files] : null);
                e.currentTarget.value = '';
              }}
            />
            <Text size="xs" c="dimmed">
              1-second or 1-minute bars:{' '}
              {BAR_FORMATS.slice(0, 3)
                .map((f) => f.label)
                .join(', ')}
              , or any CSV by mapping its columns.
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
                  <Table.Th ta="right">Yours</Table.Th>
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
                      <Tooltip label="Delete these bars">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete your ${RESOLUTION_LABELS[day.resolution as Resolution]} bars of ${day.contract} on ${formatDay(day.day)}`}
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

      <NewsEventsCard />

      {picked && <BarsDialog key={picked.token} file={picked.file} contract={contract ?? ''} timeZone={timeZone} onClose={() => setPicked(null)} />}
      {batch && <BarsBatchDialog key={batch.token} files={batch.files} onClose={() => setBatch(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
        loading={remove.isPending}
        title="Delete bars"
        confirmLabel="Delete"
        danger
      >
        {deleting
          ? `Delete your ${deleting.bars} ${RESOLUTION_LABELS[deleting.resolution as Resolution]} ${deleting.bars === 1 ? 'bar' : 'bars'} of ${deleting.contract} on ${formatDay(deleting.day)}? The MAE and MFE of your trades that used them are computed again.`
          : ''}
      </ConfirmDialog>
    </Stack>
  );
}
