import { Alert, Anchor, Button, Checkbox, Code, Group, Loader, Modal, Progress, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer } from 'react';
import { listFormats } from '../../../../domain/importers';
import { TradingDaySetting } from '../../../components/trading-day-setting';
import { ApiError } from '../../../lib/api';
import { accountsQuery, preferencesQuery, queryKeys } from '../../../shared/api';
import { AccountPicker } from './account-picker';
import { busyMessage, commitImport, importQueueQuery, ImportRequestError, invalidateAfterImport, previewImport, type ImportPreview } from './api';
import { ColumnMappingForm, isMappingComplete } from './column-mapping';
import { FeeSchedules } from './fee-schedule';
import { FileAccountsMapping } from './file-accounts';
import {
  accountTargets,
  AUTO,
  chooseImportAccount,
  importBlocks,
  INITIAL_IMPORT_DIALOG,
  MAPPED,
  reduceImportDialog,
  type Upload,
} from './import-dialog-state';
import { PreviewIssues, PreviewOpenPositions, PreviewSummary, PreviewTrades, TimeZoneWarning } from './import-preview';
import { describeError, toastError } from './notify';
import { notifyImported } from './prop-warning';
import { readFileBytes } from './read-file';
import { useTradeOptions } from '../use-trade-options';
import { playbooksQuery } from '../../playbooks/api';

const FORMAT_OPTIONS = [
  { value: AUTO, label: 'Detect automatically' },
  ...listFormats().map((f) => ({ value: f.id, label: f.label })),
  { value: MAPPED, label: 'Map the columns myself' },
];

/** What the zone field says about where its zone came from. */
const ZONE_SOURCE: Record<ImportPreview['time_zone_source'], string> = {
  chosen: 'For times written without a zone',
  account: 'The zone of this account’s last import',
  profile: 'Your time zone (Profile Settings)',
};

/** Every IANA zone the browser knows, plus UTC; the zone in use comes first in the list. */
function timeZoneOptions(preferred: string | null): string[] {
  const zones = new Set<string>(preferred ? [preferred] : []);
  zones.add('UTC');
  for (const zone of Intl.supportedValuesOf('timeZone')) zones.add(zone);
  return [...zones];
}

interface ImportDialogProps {
  file: File;
  /** The account the Trade Log shows, preselected when it is a real account. */
  accountId?: string | null;
  onClose: () => void;
  onImported?: (result: ImportedInto) => void;
  onOpenGuide: () => void;
}

/** Where the confirmed import went, for the page behind the dialog. */
export interface ImportedInto {
  /** A trading account created in this dialog that received the file's trades, else null. */
  createdAccountId: string | null;
}

/**
 * The import's flow: read the file (with progress) -> upload it (with progress) -> the server's preview (format, time
 * zone, accounts, the trades to be created, duplicates, open positions, unreadable rows, fees) -> confirm -> upload and
 * insert -> refresh -> toast. Along the way: the mapping of a file's accounts or columns, the fee schedules, the
 * time-zone check and the trading-day setting. The trader's choices are kept in a reducer (./import-dialog-state.ts).
 */
export function ImportDialog({ file, accountId, onClose, onImported, onOpenGuide }: ImportDialogProps) {
  const client = useQueryClient();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [state, dispatch] = useReducer(reduceImportDialog, INITIAL_IMPORT_DIALOG);
  const { format, zoneChoice, mapping, skipUnreadable, setup, playbookId } = state;
  const bytes = state.file.status === 'read' ? state.file.bytes : null;
  const { data: playbooks } = useQuery(playbooksQuery);
  const tradeOptions = useTradeOptions();
  const [debouncedMapping] = useDebouncedValue(mapping, 300);

  useEffect(() => {
    let cancelled = false;
    readFileBytes(file, (percent) => !cancelled && dispatch({ type: 'read-progress', percent }))
      .then((read) => !cancelled && dispatch({ type: 'read', bytes: read }))
      .catch(() => {
        if (cancelled) return;
        dispatch({ type: 'read-failed' });
        toastError('Failed to read file');
      });
    return () => {
      cancelled = true;
    };
  }, [file]);

  const preferences = useQuery(preferencesQuery);
  const accounts = useQuery(accountsQuery);
  const accountList = useMemo(() => accounts.data ?? [], [accounts.data]);

  // Naive times are read in the zone the trader picks here; until they do, the server reads them in the zone the
  // account's last import was read in, else the trader's own, and the preview says which.
  const account = chooseImportAccount(state, accountId, accountList);

  const targets = accountTargets(state.accountMap);
  const usedMapping = debouncedMapping && isMappingComplete(debouncedMapping) ? debouncedMapping : null;
  const options = {
    format: format === AUTO || format === MAPPED || usedMapping ? undefined : format,
    timeZone: zoneChoice ?? '',
    accountId: account,
    accountMap: targets,
    mapping: usedMapping,
  };
  const waitingForMapping = mapping !== null && usedMapping === null;
  const preview = useQuery({
    queryKey: queryKeys.imports.preview(file, {
      format: options.format ?? AUTO,
      timeZone: zoneChoice,
      accountId: account,
      accountMap: targets,
      mapping: usedMapping,
      tradingDay: preferences.data?.trading_day,
    }),
    queryFn: ({ signal }) =>
      previewImport(
        { name: file.name, bytes: bytes! },
        options,
        (sent, total) => dispatch({ type: 'preview-upload', upload: { sent, total } }),
        signal,
      ).finally(() => dispatch({ type: 'preview-upload', upload: null })),
    enabled: bytes !== null && !accounts.isPending && !waitingForMapping,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  const data = waitingForMapping ? undefined : preview.data;
  const timeZone = zoneChoice ?? data?.time_zone ?? null;
  const zones = useMemo(() => timeZoneOptions(timeZone), [timeZone]);

  // A file no format reads: offer the mapping of its columns, with a first guess from their names.
  const unknownHeaders = preview.error instanceof ImportRequestError && preview.error.code === 'unknown-format' ? preview.error.headers : undefined;
  useEffect(() => {
    if (unknownHeaders) dispatch({ type: 'unknown-format', headers: unknownHeaders });
  }, [mapping, unknownHeaders]);
  const chooseFormat = (value: string) =>
    dispatch({ type: 'choose-format', format: value, known: { headers: data?.headers ?? unknownHeaders, mapping: data?.mapping } });
  // Read with a mapping remembered for these columns: shown so the trader can still change it.
  const shownMapping = mapping ?? (data?.mapping_remembered ? data.mapping : null);
  const shownHeaders = state.mapHeaders ?? (data?.mapping_remembered ? data.headers : null);

  // A one-account file whose account was imported before goes where it went then, unless the trader chose otherwise.
  const remembered = data?.file_accounts.length === 1 ? data.file_accounts[0]!.suggested_account_id : null;
  useEffect(() => {
    if (remembered && remembered !== account && accountList.some((a) => a.id === remembered))
      dispatch({ type: 'remembered-account', accountId: remembered });
  }, [state.accountChoice, remembered, account, accountList]);

  const confirm = useMutation({
    // The zone the preview was read in, whichever chose it: what is stored is what the trader saw.
    mutationFn: (accountId: string) =>
      commitImport(
        { name: file.name, bytes: bytes! },
        {
          ...options,
          timeZone: data?.time_zone ?? options.timeZone,
          accountId,
          skipUnreadable,
          setup: setup ?? undefined,
          playbookId: playbookId ?? undefined,
        },
        (sent, total) => dispatch({ type: 'commit-upload', upload: { sent, total } }),
      ),
    onSuccess: async (outcome) => {
      await invalidateAfterImport(client);
      notifyImported(outcome);
      // Trades imported into an account made here are shown at once (the Trade Log switches to it).
      const { createdAccountId } = state;
      const intoCreated = createdAccountId !== null && outcome.accounts.some((a) => a.account_id === createdAccountId);
      onImported?.({ createdAccountId: intoCreated ? createdAccountId : null });
      onClose();
    },
    onError: (error) => toastError('Failed to import trades', describeError(error)),
    onSettled: () => dispatch({ type: 'commit-upload', upload: null }),
  });

  const { needsSkipConsent, unmapped, blocked } = importBlocks(state, data);
  const submit = () => {
    if (!account) {
      dispatch({ type: 'refuse-without-account' });
      return;
    }
    if (!data || (needsSkipConsent && !skipUnreadable) || unmapped) return;
    confirm.mutate(account);
  };

  return (
    <Modal
      opened
      onClose={confirm.isPending ? () => undefined : onClose}
      title="Import Trades"
      size="min(72rem, 96vw)"
      fullScreen={Boolean(narrow)}
      data-testid="import-dialog"
    >
      <Stack gap="md">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" truncate>
            File:{' '}
            <Text span fw={600}>
              {file.name}
            </Text>{' '}
            ({formatBytes(file.size)})
          </Text>
          <Anchor component="button" type="button" size="sm" onClick={onOpenGuide}>
            Trade Import Guide
          </Anchor>
        </Group>

        {state.file.status === 'reading' && <StepProgress label="Reading file" percent={state.file.percent} testId="import-reading" />}
        {state.file.status === 'failed' && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Failed to read file">
            The browser could not read this file. Check that it is not open in another program and try again.
          </Alert>
        )}

        {bytes !== null && (
          <>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <Select
                label="File format"
                data={FORMAT_OPTIONS}
                value={shownMapping ? MAPPED : format}
                onChange={(v) => chooseFormat(v ?? AUTO)}
                allowDeselect={false}
                description={data ? detectedText(data.format.label, data.detected_format?.label, format === AUTO) : 'Recognised from the header row'}
                data-testid="import-format"
              />
              <Select
                label="Time zone of the file"
                data={zones}
                value={timeZone}
                onChange={(v) => v && dispatch({ type: 'choose-zone', zone: v })}
                searchable
                allowDeselect={false}
                description={ZONE_SOURCE[zoneChoice ? 'chosen' : (data?.time_zone_source ?? 'chosen')]}
                nothingFoundMessage="Unknown time zone"
                data-testid="import-time-zone"
              />
              <AccountPicker
                accounts={accountList}
                loading={accounts.isPending}
                value={account}
                onChange={(id) => dispatch({ type: 'choose-account', accountId: id })}
                onCreated={(id) => dispatch({ type: 'account-created', accountId: id })}
                error={state.accountError}
              />
              <Select
                label="Setup"
                placeholder="Each trade's own (none)"
                description="For every trade of the file; the side comes from the file"
                data={tradeOptions.trade_type}
                value={setup}
                onChange={(value) => dispatch({ type: 'choose-setup', setup: value })}
                searchable
                clearable
                data-testid="import-setup"
              />
              {Boolean(playbooks?.length) && (
                <Select
                  label="Playbook"
                  placeholder="None"
                  description="For every trade of the file"
                  data={(playbooks ?? []).map((p) => ({ value: p.id, label: p.name }))}
                  value={playbookId}
                  onChange={(value) => dispatch({ type: 'choose-playbook', playbookId: value })}
                  searchable
                  clearable
                  data-testid="import-playbook"
                />
              )}
            </SimpleGrid>
            <TradingDaySetting compact />
            {shownMapping && shownHeaders && (
              <ColumnMappingForm
                headers={shownHeaders}
                value={shownMapping}
                remembered={mapping === null && Boolean(data?.mapping_remembered)}
                unknown={state.unknownFile}
                onChange={(next) => dispatch({ type: 'edit-mapping', headers: shownHeaders, mapping: next })}
              />
            )}
            {waitingForMapping && (
              <Text size="sm" c="dimmed" data-testid="import-mapping-incomplete">
                Choose the columns marked * to see the trades.
              </Text>
            )}

            {preview.isFetching && <UploadProgress upload={state.previewUpload} testId="import-previewing" />}
            {preview.isError && !preview.isFetching && !waitingForMapping && !(unknownHeaders && mapping) && <PreviewError error={preview.error} />}
            {data && !preview.isFetching && (
              <Stack gap="md" data-testid="import-preview">
                {data.time_zone_check && (
                  <TimeZoneWarning check={data.time_zone_check} onChoose={(zone) => dispatch({ type: 'choose-zone', zone })} />
                )}
                {data.file_accounts.length > 1 && (
                  <FileAccountsMapping
                    fileAccounts={data.file_accounts}
                    accounts={accountList}
                    onChange={(name, id) => dispatch({ type: 'map-file-account', name, accountId: id })}
                  />
                )}
                <PreviewSummary preview={data} />
                <FeeSchedules schedules={data.fee_schedules} accounts={accountList} onSaved={() => void preview.refetch()} />
                <PreviewIssues issues={data.issues} hide={data.time_zone_check ? [data.time_zone_check.message] : []} />
                <PreviewTrades preview={data} />
                <PreviewOpenPositions positions={data.open_positions} timeZone={data.time_zone} />
                {needsSkipConsent && (
                  <Checkbox
                    label={`Import the other trades and skip the ${data.unreadable_rows} unreadable ${data.unreadable_rows === 1 ? 'row' : 'rows'}`}
                    checked={skipUnreadable}
                    onChange={(e) => dispatch({ type: 'consent-skip', skip: e.currentTarget.checked })}
                    data-testid="import-skip-unreadable"
                  />
                )}
              </Stack>
            )}
          </>
        )}

        {confirm.isPending && <UploadProgress upload={state.commitUpload} testId="import-committing" importing />}
        {unmapped && (
          <Text size="sm" c="red" data-testid="import-unmapped">
            Choose a trading account (or Leave out) for each account of the file.
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={confirm.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} loading={confirm.isPending} disabled={blocked || preview.isFetching} data-testid="import-confirm">
            {data ? `Import ${data.new_trades.toLocaleString('en-US')} ${data.new_trades === 1 ? 'trade' : 'trades'}` : 'Import'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function StepProgress({ label, percent, testId }: { label: string; percent: number; testId: string }) {
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm">
        {label}... {percent}%
      </Text>
      <Progress value={percent} aria-label={label} />
    </Stack>
  );
}

/**
 * While the file goes to the server, how much of it has been sent; then that the server is reading (or storing) the
 * trades, or, when other traders' files are being read first, that it waits its turn.
 */
function UploadProgress({ upload, testId, importing = false }: { upload: Upload; testId: string; importing?: boolean }) {
  const sending = upload !== null && upload.sent < upload.total;
  const queue = useQuery({ ...importQueueQuery, enabled: !sending, refetchInterval: 1000, gcTime: 0, retry: false });
  const ahead = queue.data && queue.data.waiting > 0 ? queue.data.ahead : 0;
  if (sending) {
    const percent = Math.floor((upload.sent / Math.max(1, upload.total)) * 100);
    return (
      <Stack gap={4} data-testid={testId}>
        <Text size="sm" data-testid="import-upload-progress">
          Uploading file... {percent}% ({formatBytes(upload.sent)} of {formatBytes(upload.total)})
        </Text>
        <Progress value={percent} aria-label="Uploading file" />
      </Stack>
    );
  }
  const label = importing ? 'Importing trades...' : 'Reading trades...';
  return (
    <Stack gap={4} data-testid={testId}>
      <Group gap="xs" wrap="nowrap">
        <Loader size="xs" />
        {ahead > 0 ? (
          <Text size="sm" data-testid="import-waiting-turn">
            Your file is waiting its turn: the server is reading {ahead} other {ahead === 1 ? 'file' : 'files'} first...
          </Text>
        ) : (
          <Text size="sm">{label}</Text>
        )}
      </Group>
      <Progress value={100} striped animated aria-label={label} />
    </Stack>
  );
}

function detectedText(label: string, detected: string | undefined, auto: boolean): string {
  if (detected) return `Detected ${detected}; reading as ${label}`;
  return auto ? `Detected: ${label}` : `Reading as ${label}`;
}

/** The server's reason (empty, binary, too large, not an array, unknown format with the columns it saw). */
function PreviewError({ error }: { error: unknown }) {
  const message = busyMessage(error) ?? (error instanceof ApiError && error.status < 500 ? error.message : undefined);
  const columns = message?.match(/Columns found: (.*?)\. Supported:/)?.[1];
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Failed to import trades" data-testid="import-error">
      {columns !== undefined ? (
        <Stack gap={4}>
          <Text size="sm">Unknown file format. The file's columns are:</Text>
          <Group gap={4}>
            {columns.split(', ').map((c, i) => (
              <Code key={i}>{c}</Code>
            ))}
          </Group>
          <Text size="sm">Choose the format above if it is one of ours, or see the Trade Import Guide for the columns each format needs.</Text>
        </Stack>
      ) : (
        <Text size="sm">{message ?? 'The server could not read the file. Please try again.'}</Text>
      )}
    </Alert>
  );
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
