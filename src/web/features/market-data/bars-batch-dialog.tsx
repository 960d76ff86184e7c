import { Alert, Badge, Button, Checkbox, Group, Loader, Modal, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { guessContractFromFileName } from '../../../domain/importers/bars/bar-formats';
import { queryKeys, type BarsPreview } from '../../shared/api';
import { importBars, previewBars, type BarsOptions } from './api';

/**
 * Bar files of many contracts at once (a folder of NinjaTrader exports, one file per contract, each named after its
 * instrument): every file is read in turn with the contract its name gives (the trader may correct it), then imported
 * in turn. A file whose bars the trader's fills contradict is left out unless the trader ticks it; unreadable rows
 * are left out and counted.
 */
interface Entry {
  file: File;
  contract: string;
  state: 'waiting' | 'reading' | 'read' | 'failed' | 'importing' | 'imported';
  preview: BarsPreview | null;
  error: string | null;
  insist: boolean;
  added: number;
}

const optionsOf = (entry: Entry): BarsOptions => ({ contract: entry.contract, timeZone: '', resolution: 0, mapping: null });

export function BarsBatchDialog({ files, onClose }: { files: File[]; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const client = useQueryClient();
  const [entries, setEntries] = useState<Entry[]>(() =>
    files.map((file) => ({
      file,
      contract: guessContractFromFileName(file.name),
      state: 'waiting',
      preview: null,
      error: null,
      insist: false,
      added: 0,
    })),
  );
  const [running, setRunning] = useState(false);
  const latest = useRef(entries);
  latest.current = entries;
  const update = (index: number, change: Partial<Entry>) =>
    setEntries((list) => list.map((entry, i) => (i === index ? { ...entry, ...change } : entry)));

  // Each file read in turn, and again when its contract is corrected.
  useEffect(() => {
    const next = entries.findIndex((entry) => entry.state === 'waiting');
    if (next === -1 || running || entries.some((entry) => entry.state === 'reading')) return;
    const entry = entries[next]!;
    update(next, { state: 'reading' });
    void entry.file
      .arrayBuffer()
      .then((bytes) => previewBars(bytes, optionsOf(entry)))
      .then((preview) => update(next, { state: 'read', preview, error: null }))
      .catch((error: unknown) =>
        update(next, { state: 'failed', preview: null, error: error instanceof Error ? error.message : 'The file could not be read' }),
      );
  }, [entries, running]);

  const ready = (entry: Entry) => entry.state === 'read' && entry.preview !== null && (entry.preview.contradictions.length === 0 || entry.insist);
  const importAll = async () => {
    setRunning(true);
    let added = 0;
    let done = 0;
    for (const [index, entry] of latest.current.entries()) {
      if (!ready(entry)) continue;
      update(index, { state: 'importing' });
      try {
        const outcome = await importBars(await entry.file.arrayBuffer(), optionsOf(entry), {
          skipUnreadable: true,
          replace: false,
          insist: entry.insist,
          quietMinutes: false,
        });
        added += outcome.added;
        done++;
        update(index, { state: 'imported', added: outcome.added });
      } catch (error) {
        update(index, { state: 'failed', error: error instanceof Error ? error.message : 'The bars could not be imported' });
      }
    }
    void client.invalidateQueries({ queryKey: queryKeys.market.all });
    void client.invalidateQueries({ queryKey: queryKeys.trades.all });
    setRunning(false);
    notifications.show({ color: 'teal', message: `Added ${added} ${added === 1 ? 'bar' : 'bars'} from ${done} ${done === 1 ? 'file' : 'files'}` });
  };

  const reading = entries.some((entry) => entry.state === 'waiting' || entry.state === 'reading');
  const finished = entries.every((entry) => entry.state === 'imported' || entry.state === 'failed');
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Import bars: ${files.length} files`}
      size="xl"
      fullScreen={Boolean(narrow)}
      data-testid="bars-batch-dialog"
    >
      <Stack gap="sm">
        <Text size="sm">Each file is read with the contract its name gives; correct any the name does not tell.</Text>
        <ScrollArea type="auto">
          <Table withTableBorder fz="sm" miw={560} data-testid="bars-batch">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Contract</Table.Th>
                <Table.Th>Bars</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry, index) => {
                const p = entry.preview;
                const bars = p ? p.series.reduce((sum, s) => sum + s.bars, 0) : null;
                const fresh = p ? bars! - p.series.reduce((sum, s) => sum + s.already_stored + s.conflicting, 0) : null;
                return (
                  <Table.Tr key={`${entry.file.name}|${index}`} data-testid="bars-batch-row">
                    <Table.Td>{entry.file.name}</Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        aria-label={`Contract of ${entry.file.name}`}
                        value={entry.contract}
                        disabled={running || entry.state === 'imported'}
                        onChange={(e) => update(index, { contract: e.currentTarget.value.toUpperCase(), state: 'waiting', preview: null })}
                      />
                    </Table.Td>
                    <Table.Td>{p ? `${bars} (${fresh} new)` : '—'}</Table.Td>
                    <Table.Td>
                      {entry.state === 'reading' || entry.state === 'importing' ? (
                        <Loader size="xs" aria-label={entry.state === 'reading' ? 'Reading' : 'Importing'} />
                      ) : entry.state === 'imported' ? (
                        <Badge color="teal" variant="light">
                          Added {entry.added}
                        </Badge>
                      ) : entry.state === 'failed' ? (
                        <Text size="xs" c="red">
                          {entry.error}
                        </Text>
                      ) : p && p.contradictions.length > 0 ? (
                        <Checkbox
                          size="xs"
                          label={`Contradicts ${p.contradictions[0]!.fills_outside} of your fills: store anyway`}
                          checked={entry.insist}
                          onChange={(e) => update(index, { insist: e.currentTarget.checked })}
                        />
                      ) : p ? (
                        <Text size="xs" c="dimmed">
                          {p.unreadable_rows > 0 ? `Ready; ${p.unreadable_rows} unreadable rows left out` : 'Ready'}
                        </Text>
                      ) : (
                        <Text size="xs" c="dimmed">
                          Waiting
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {entries.some((entry) => entry.preview?.contradictions.length) && (
          <Alert color="red" variant="light">
            Files whose bars lie outside your own fills’ prices may be of another contract month or a back-adjusted series: they are left out unless
            you tick them.
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {finished ? 'Close' : 'Cancel'}
          </Button>
          <Button
            onClick={() => void importAll()}
            loading={running}
            disabled={reading || finished || !entries.some(ready)}
            data-testid="bars-batch-confirm"
          >
            Import {entries.filter(ready).length} {entries.filter(ready).length === 1 ? 'file' : 'files'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
