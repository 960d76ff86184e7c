import { Alert, Button, Checkbox, Group, Loader, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { BAR_FORMATS, guessContractFromFileName, type BarMapping } from '../../../domain/importers/bars/bar-formats';
import { RESOLUTION_LABELS, type Resolution } from '../../../domain/market/bars';
import { queryKeys } from '../../shared/api';
import { BarsRequestError, previewBars, useImportBars, type BarsOptions } from './api';
import { formatInstant } from './format';

const ZONES = ['', 'UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

/**
 * A bar file from its preview to the trader's own bars: the server reads it (format, resolution, contract, the zone of
 * naive times, checked against the exchange's hours as trade files are), says how many bars are new, already stored,
 * or stored with other values (kept unless the trader replaces them), which of the trader's fills the bars contradict
 * (then nothing is stored unless the trader insists), and lists unreadable rows by number. A source known to leave
 * out minutes without trades (Databento) may be confirmed so: its missing minutes then count as minutes without trades.
 */
export function BarsDialog({
  file,
  contract: initialContract,
  timeZone,
  onClose,
}: {
  file: File;
  contract: string;
  timeZone: string;
  onClose: () => void;
}) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const [bytes, setBytes] = useState<ArrayBuffer | null>(null);
  const [contract, setContract] = useState(() => guessContractFromFileName(file.name) || initialContract);
  const [zone, setZone] = useState('');
  const [resolution, setResolution] = useState<'0' | '1' | '60'>('0');
  const [mapping, setMapping] = useState<BarMapping | null>(null);
  const [skipUnreadable, setSkipUnreadable] = useState(false);
  const [replace, setReplace] = useState(false);
  const [insist, setInsist] = useState(false);
  const [quietMinutes, setQuietMinutes] = useState(false);
  const [debouncedContract] = useDebouncedValue(contract, 400);
  const importBars = useImportBars();

  useEffect(() => {
    void file.arrayBuffer().then(setBytes);
  }, [file]);

  const options: BarsOptions = useMemo(
    () => ({ contract: debouncedContract, timeZone: zone, resolution: Number(resolution) as BarsOptions['resolution'], mapping }),
    [debouncedContract, zone, resolution, mapping],
  );
  const preview = useQuery({
    queryKey: queryKeys.market.barsPreview(file, options),
    // A copy: the request's body is sent as it is, and the same bytes serve the next preview and the import.
    queryFn: () => previewBars(bytes!.slice(0), options),
    enabled: bytes !== null,
    retry: false,
    staleTime: Infinity,
  });
  const error = preview.error instanceof BarsRequestError ? preview.error : null;
  const headers = error?.headers ?? (preview.data?.format.id === 'mapped-bars' ? preview.data.headers : null);
  const data = preview.data;
  const total = data?.series.reduce((sum, s) => sum + s.bars, 0) ?? 0;
  const conflicting = data ? data.series.reduce((sum, s) => sum + s.conflicting, 0) : 0;
  const fresh = data ? total - data.series.reduce((sum, s) => sum + s.already_stored + s.conflicting, 0) : 0;
  const writes = fresh + (replace ? conflicting : 0);
  const unreadable = data?.unreadable_rows ?? 0;
  const contradicted = (data?.contradictions.length ?? 0) > 0;

  const confirm = () => {
    if (!bytes) return;
    importBars.mutate(
      { bytes: bytes.slice(0), options, choices: { skipUnreadable, replace, insist, quietMinutes } },
      {
        onSuccess: (outcome) => {
          const parts = [`Added ${outcome.added} ${outcome.added === 1 ? 'bar' : 'bars'}`];
          if (outcome.unchanged > 0) parts.push(`${outcome.unchanged} already stored`);
          if (outcome.replaced > 0) parts.push(`${outcome.replaced} replaced`);
          if (outcome.conflicting > 0) parts.push(`${outcome.conflicting} stored with other prices, kept`);
          if (outcome.trades_updated > 0) parts.push(`MAE and MFE of ${outcome.trades_updated} of your trades updated`);
          notifications.show({ color: 'teal', message: parts.join('; ') });
          onClose();
        },
        onError: (e) =>
          notifications.show({
            color: 'red',
            title: 'Failed to import bars',
            message: e instanceof Error ? e.message : 'The bars could not be imported',
          }),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={`Import bars: ${file.name}`} size="xl" fullScreen={Boolean(narrow)} data-testid="bars-dialog">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label="Contract"
            description="Used when the file has no symbol column"
            placeholder="e.g. MNQH5"
            value={contract}
            onChange={(e) => setContract(e.currentTarget.value)}
            data-testid="bars-contract"
          />
          <Select
            label="Time zone of the file's times"
            description="Automatic: NinjaTrader's exports are UTC"
            data={ZONES.map((z) => ({ value: z, label: z === '' ? 'Automatic' : z }))}
            value={zone}
            onChange={(value) => setZone(value ?? '')}
            searchable
            allowDeselect={false}
            data-testid="bars-zone"
          />
          <Select
            label="Bars"
            data={[
              { value: '0', label: 'Read from the file' },
              { value: '1', label: '1-second bars' },
              { value: '60', label: '1-minute bars' },
            ]}
            value={resolution}
            onChange={(value) => setResolution((value ?? '0') as '0' | '1' | '60')}
            allowDeselect={false}
          />
        </SimpleGrid>

        {headers && headers.length > 0 && <BarMappingForm headers={headers} mapping={mapping} onChange={setMapping} />}

        {preview.isFetching && !data && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">Reading the file…</Text>
          </Group>
        )}
        {preview.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} data-testid="bars-error">
            {preview.error instanceof Error ? preview.error.message : 'The file could not be read'}
          </Alert>
        )}
        {data && (
          <Stack gap="xs" data-testid="bars-preview">
            <Text size="sm">
              {data.format.label}: {RESOLUTION_LABELS[data.resolution as Resolution]} bars, {data.row_count} rows
              {data.naive_times ? `, times read in ${data.time_zone}` : ''}.
            </Text>
            {data.time_zone_check && (
              <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} data-testid="bars-zone-warning">
                <Stack gap={6}>
                  <Text size="sm">{data.time_zone_check.message}</Text>
                  {data.time_zone_check.suggested && (
                    <Button size="xs" variant="light" w="fit-content" onClick={() => setZone(data.time_zone_check!.suggested!.zone)}>
                      Read as {data.time_zone_check.suggested.zone}
                    </Button>
                  )}
                </Stack>
              </Alert>
            )}
            <Table withTableBorder fz="sm" data-testid="bars-series">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Contract</Table.Th>
                  <Table.Th ta="right">Bars</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th ta="right">Already stored</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.series.map((s) => (
                  <Table.Tr key={s.contract}>
                    <Table.Td>{s.contract}</Table.Td>
                    <Table.Td ta="right">{s.bars}</Table.Td>
                    <Table.Td>{formatInstant(s.first, timeZone)}</Table.Td>
                    <Table.Td>{formatInstant(s.last, timeZone)}</Table.Td>
                    <Table.Td ta="right">
                      {s.already_stored}
                      {s.conflicting > 0 ? ` (+${s.conflicting} with other prices)` : ''}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {data.conflicts.length > 0 && (
              <Alert color="yellow" variant="light" title="Bars stored with other prices" data-testid="bars-conflicts">
                <Text size="sm">
                  Bars already stored keep their prices; the file’s differ for {data.series.reduce((sum, s) => sum + s.conflicting, 0)} of them, e.g.{' '}
                  {data.conflicts
                    .slice(0, 3)
                    .map((c) => `${c.contract} ${formatInstant(c.start, timeZone)}: stored close ${c.stored.close}, file ${c.file.close}`)
                    .join('; ')}
                  .
                </Text>
              </Alert>
            )}
            {data.issues.length > 0 && (
              <Stack gap={2} data-testid="bars-issues">
                {data.issues.slice(0, 20).map((issue, i) => (
                  <Text key={i} size="xs" c={issue.severity === 'error' ? 'red' : 'dimmed'}>
                    {issue.row > 0 ? `Row ${issue.row}: ` : ''}
                    {issue.message}
                  </Text>
                ))}
                {data.issues.length > 20 && <Text size="xs">…and {data.issues.length - 20} more</Text>}
              </Stack>
            )}
            {data.contradictions.length > 0 && (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden="true" />}
                title="These bars contradict your fills"
                data-testid="bars-contradictions"
              >
                <Stack gap={6}>
                  {data.contradictions.map((c) => (
                    <Text key={c.contract} size="sm">
                      {c.contract}: {c.fills_outside} of your {c.fills_checked} fills with a bar in this file lie outside their minute’s range by more
                      than a tick, e.g.{' '}
                      {c.first
                        .slice(0, 3)
                        .map((f) => `${f.side} ${f.quantity} at ${f.price} on ${formatInstant(f.time, timeZone)} (bar ${f.bar_low}–${f.bar_high})`)
                        .join('; ')}
                      .
                    </Text>
                  ))}
                  <Text size="sm">
                    They may be of another contract month, or a back-adjusted continuous series (named like MNQ1!). Nothing is stored unless you
                    insist.
                  </Text>
                  <Checkbox
                    label="Store these bars anyway"
                    checked={insist}
                    onChange={(e) => setInsist(e.currentTarget.checked)}
                    data-testid="bars-insist"
                  />
                </Stack>
              </Alert>
            )}
            {conflicting > 0 && (
              <Checkbox
                label={`Replace my ${conflicting} stored ${conflicting === 1 ? 'bar' : 'bars'} with this file’s prices`}
                checked={replace}
                onChange={(e) => setReplace(e.currentTarget.checked)}
                data-testid="bars-replace"
              />
            )}
            {data.omits_quiet_minutes && (
              <Checkbox
                label="This source leaves out minutes without trades: a minute without a bar in this file had no trades"
                description="Then MAE, MFE and the exit analysis count such minutes as quiet, and say so; otherwise they read incomplete."
                checked={quietMinutes}
                onChange={(e) => setQuietMinutes(e.currentTarget.checked)}
                data-testid="bars-quiet"
              />
            )}
            {unreadable > 0 && (
              <Checkbox
                label={`Import the other bars, leaving out ${unreadable} unreadable ${unreadable === 1 ? 'row' : 'rows'}`}
                checked={skipUnreadable}
                onChange={(e) => setSkipUnreadable(e.currentTarget.checked)}
              />
            )}
          </Stack>
        )}
        <Text size="xs" c="dimmed">
          Bars you add are yours alone: no other trader sees or uses them. Formats:{' '}
          {BAR_FORMATS.slice(0, 3)
            .map((f) => f.label)
            .join(', ')}
          , or any CSV by mapping its columns.
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={confirm}
            loading={importBars.isPending}
            disabled={!data || (writes === 0 && !quietMinutes) || (unreadable > 0 && !skipUnreadable) || (contradicted && !insist)}
            data-testid="bars-confirm"
          >
            {data
              ? replace && conflicting > 0
                ? `Import ${fresh} new and replace ${conflicting}`
                : `Import ${fresh} new ${fresh === 1 ? 'bar' : 'bars'}`
              : 'Import'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The columns of a bar file we do not know: time (and whether it is the bar's start or end), prices, volume, symbol. */
function BarMappingForm({
  headers,
  mapping,
  onChange,
}: {
  headers: string[];
  mapping: BarMapping | null;
  onChange: (mapping: BarMapping | null) => void;
}) {
  const guess = (names: string[]) => headers.find((h) => names.includes(h.trim().toLowerCase())) ?? '';
  const [draft, setDraft] = useState<Record<string, string>>(() => ({
    time: mapping?.time ?? guess(['time', 'date', 'datetime', 'timestamp']),
    timeIs: mapping?.timeIs ?? 'start',
    open: mapping?.open ?? guess(['open', 'o']),
    high: mapping?.high ?? guess(['high', 'h']),
    low: mapping?.low ?? guess(['low', 'l']),
    close: mapping?.close ?? guess(['close', 'c', 'last']),
    volume: mapping?.volume ?? guess(['volume', 'vol', 'v']),
    symbol: mapping?.symbol ?? guess(['symbol', 'contract', 'instrument']),
  }));
  const columns = [{ value: '', label: '—' }, ...headers.map((h) => ({ value: h, label: h }))];
  const field = (key: string, label: string) => (
    <Select
      key={key}
      label={label}
      data={columns}
      value={draft[key] ?? ''}
      onChange={(value) => setDraft({ ...draft, [key]: value ?? '' })}
      allowDeselect={false}
      size="xs"
      aria-label={`Column for ${label}`}
    />
  );
  const apply = () => {
    const pick = (key: string) => (draft[key] ? { [key]: draft[key] } : {});
    onChange({
      time: draft.time!,
      timeIs: draft.timeIs as 'start' | 'end',
      open: draft.open!,
      high: draft.high!,
      low: draft.low!,
      close: draft.close!,
      ...pick('volume'),
      ...pick('symbol'),
    });
  };
  return (
    <Stack gap="xs" data-testid="bars-mapping">
      <Text size="sm">Which column holds what:</Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {field('time', 'Time')}
        <Select
          label="The time is the bar's"
          data={[
            { value: 'start', label: 'start' },
            { value: 'end', label: 'end' },
          ]}
          value={draft.timeIs ?? 'start'}
          onChange={(value) => setDraft({ ...draft, timeIs: value ?? 'start' })}
          allowDeselect={false}
          size="xs"
        />
        {field('open', 'Open')}
        {field('high', 'High')}
        {field('low', 'Low')}
        {field('close', 'Close')}
        {field('volume', 'Volume')}
        {field('symbol', 'Symbol')}
      </SimpleGrid>
      <Button
        size="xs"
        variant="light"
        w="fit-content"
        onClick={apply}
        disabled={!draft.time || !draft.open || !draft.high || !draft.low || !draft.close}
      >
        Read with these columns
      </Button>
    </Stack>
  );
}
