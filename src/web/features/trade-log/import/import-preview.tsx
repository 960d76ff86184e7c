import { Alert, Badge, Button, Group, List, ScrollArea, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { formatInZone } from '../../../../domain/dates';
import { formatUsd, toCents } from '../../../../domain/money';
import { PriceText } from '../../../components/price-text';
import type { ImportIssue, ImportPreview, OpenPosition, PreviewTrade, TimeZoneCheck } from './api';

const money = (value: string) => formatUsd(toCents(value));
const pnlColor = (value: string) => {
  const cents = toCents(value);
  return cents > 0 ? 'teal' : cents < 0 ? 'red' : 'dimmed';
};

/** Times as the file's own clock shows them (the chosen zone), so the trader can check them against the export. */
function timeFormatter(timeZone: string) {
  return (iso: string | null) => (iso ? (formatInZone(Date.parse(iso), timeZone, 'MM/dd/yyyy HH:mm:ss') ?? '') : '');
}

const rowsLabel = (rows: number[]) => (rows.length === 0 ? '' : rows.length <= 3 ? rows.join(', ') : `${rows[0]}-${rows[rows.length - 1]}`);

export function PreviewSummary({ preview }: { preview: ImportPreview }) {
  const ignored = Object.entries(preview.ignored).filter(([, n]) => n > 0);
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" data-testid="import-summary">
        <Stat label="Trades to import" value={preview.new_trades} testId="import-new-count" />
        <Stat label="Duplicates skipped" value={preview.duplicates} testId="import-duplicate-count" />
        <Stat label="Open positions" value={preview.open_positions.length} testId="import-open-count" />
        <Stat label="Unreadable rows" value={preview.unreadable_rows} testId="import-error-count" alert={preview.unreadable_rows > 0} />
      </SimpleGrid>
      <Group gap="lg">
        <Text size="sm">
          Net PnL of the new trades:{' '}
          <Text span fw={600} c={pnlColor(preview.totals.net_pnl)} data-testid="import-net-total">
            {money(preview.totals.net_pnl)}
          </Text>
        </Text>
        <Text size="sm" c="dimmed">
          Gross {money(preview.totals.gross_pnl)}, commissions {money(preview.totals.commission)}, {preview.row_count}{' '}
          {preview.format.id === 'json-backup' ? 'entries' : 'rows'} read
        </Text>
      </Group>
      {ignored.length > 0 && (
        <Text size="sm" c="dimmed" data-testid="import-ignored">
          Ignored: {ignored.map(([reason, n]) => `${n} ${reason}`).join(', ')}
        </Text>
      )}
      {preview.duplicates_from_other_exports > 0 && (
        <Text size="sm" c="dimmed" data-testid="import-other-export-duplicates">
          {preview.duplicates_from_other_exports} of the duplicates are trades the account already has from another export (same contract, side,
          quantity, prices and times).
        </Text>
      )}
      {preview.skipped_trades > 0 && (
        <Text size="sm" c="dimmed">
          {preview.skipped_trades} {preview.skipped_trades === 1 ? 'trade' : 'trades'} of accounts left out.
        </Text>
      )}
    </Stack>
  );
}

function Stat({ label, value, testId, alert = false }: { label: string; value: number; testId: string; alert?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" c={alert ? 'red' : undefined} data-testid={testId}>
        {value.toLocaleString('en-US')}
      </Text>
    </Stack>
  );
}

export function PreviewTrades({ preview }: { preview: ImportPreview }) {
  const time = timeFormatter(preview.time_zone);
  if (preview.trades.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="import-no-new-trades">
        {preview.duplicates > 0
          ? `No new trades: all ${preview.duplicates} trades of this file are already in this account.`
          : 'No trades to import.'}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Title order={3} size="h6">
        Trades to be created
      </Title>
      <ScrollArea.Autosize mah={320} type="auto">
        <Table striped highlightOnHover withTableBorder fz="xs" miw={900} stickyHeader data-testid="import-trades">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Row</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Instrument</Table.Th>
              <Table.Th>Side</Table.Th>
              <Table.Th>Session</Table.Th>
              <Table.Th ta="right">Qty</Table.Th>
              <Table.Th>Entry</Table.Th>
              <Table.Th>Exit</Table.Th>
              <Table.Th ta="right">Gross</Table.Th>
              <Table.Th ta="right">Comm.</Table.Th>
              <Table.Th ta="right">PnL</Table.Th>
              <Table.Th>Result</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.trades.map((t) => (
              <TradeRow key={t.import_key} trade={t} time={time} />
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {preview.trades_truncated && (
        <Text size="xs" c="dimmed">
          Showing the first {preview.trades.length} of {preview.new_trades.toLocaleString('en-US')} trades; all of them will be imported.
        </Text>
      )}
    </Stack>
  );
}

function TradeRow({ trade: t, time }: { trade: PreviewTrade; time: (iso: string | null) => string }) {
  return (
    <Table.Tr>
      <Table.Td>{rowsLabel(t.rows)}</Table.Td>
      <Table.Td>
        {t.date}{' '}
        <Text span c="dimmed" fz="xs">
          {t.day_of_week.slice(0, 3)}
        </Text>
      </Table.Td>
      <Table.Td>
        {t.symbol}
        {t.contract && t.contract !== t.symbol && (
          <Text span c="dimmed" fz="xs">
            {' '}
            {t.contract}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{t.side ?? ''}</Table.Td>
      <Table.Td>{t.period}</Table.Td>
      <Table.Td ta="right">{t.quantity ?? ''}</Table.Td>
      <Table.Td>
        <PriceText price={t.entry_price} symbol={t.contract || t.symbol} />
        {t.entry_time && (
          <Text c="dimmed" fz="xs">
            {time(t.entry_time)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <PriceText price={t.exit_price} symbol={t.contract || t.symbol} />
        {t.exit_time && (
          <Text c="dimmed" fz="xs">
            {time(t.exit_time)}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right">{money(t.gross_pnl)}</Table.Td>
      <Table.Td ta="right">{money(t.commission)}</Table.Td>
      <Table.Td ta="right" c={pnlColor(t.pnl)} fw={600}>
        {money(t.pnl)}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Badge size="xs" variant="light" color={t.status === 'Win' ? 'teal' : t.status === 'Loss' ? 'red' : 'gray'}>
            {t.status}
          </Badge>
          {t.ambiguity && (
            <Tooltip label={t.ambiguity} multiline w={260} withArrow>
              <Badge size="xs" variant="outline" color="yellow" data-testid="import-ambiguous" tabIndex={0}>
                Ambiguous
              </Badge>
            </Tooltip>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function PreviewOpenPositions({ positions, timeZone }: { positions: OpenPosition[]; timeZone: string }) {
  if (positions.length === 0) return null;
  const time = timeFormatter(timeZone);
  return (
    <Stack gap={4} data-testid="import-open-positions">
      <Title order={3} size="h6">
        Open positions (not imported)
      </Title>
      <Table withTableBorder fz="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Contract</Table.Th>
            <Table.Th>Side</Table.Th>
            <Table.Th ta="right">Qty</Table.Th>
            <Table.Th ta="right">Avg price</Table.Th>
            <Table.Th>Opened</Table.Th>
            <Table.Th>Rows</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {positions.map((p, i) => (
            <Table.Tr key={`${p.file_account}-${p.contract}-${i}`}>
              <Table.Td>{p.contract || p.symbol}</Table.Td>
              <Table.Td>{p.side}</Table.Td>
              <Table.Td ta="right">{p.quantity}</Table.Td>
              <Table.Td ta="right">
                <PriceText price={p.average_price} symbol={p.contract || p.symbol} />
              </Table.Td>
              <Table.Td>{time(p.opened_at)}</Table.Td>
              <Table.Td>{rowsLabel(p.rows)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** Every unreadable row with its number and reason (errors), then the caveats (warnings). */
export function PreviewIssues({ issues, hide = [] }: { issues: ImportIssue[]; hide?: string[] }) {
  issues = issues.filter((i) => !hide.includes(i.message));
  if (issues.length === 0) return null;
  const errors = issues.filter((i) => i.severity === 'error');
  const warnings = issues.filter((i) => i.severity === 'warning');
  return (
    <Stack gap="xs">
      {errors.length > 0 && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={`${errors.length} ${errors.length === 1 ? 'row' : 'rows'} could not be read`}
          data-testid="import-errors"
        >
          <ScrollArea.Autosize mah={160} type="auto">
            <List size="xs" spacing={2}>
              {errors.map((issue, i) => (
                <List.Item key={i}>{issueText(issue)}</List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
        </Alert>
      )}
      {warnings.length > 0 && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} title="Check these" data-testid="import-warnings">
          <ScrollArea.Autosize mah={120} type="auto">
            <List size="xs" spacing={2}>
              {warnings.map((issue, i) => (
                <List.Item key={i}>{issueText(issue)}</List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
        </Alert>
      )}
    </Stack>
  );
}

const issueText = (issue: ImportIssue) => (issue.row > 0 ? `Row ${issue.row}: ${issue.message}` : issue.message);

/**
 * The file's times do not fit the chosen zone. The zones that fit are offered as buttons: one click
 * reads the file again in that zone.
 */
export function TimeZoneWarning({ check, onChoose }: { check: TimeZoneCheck; onChoose: (zone: string) => void }) {
  const zones = [check.suggested, ...check.alternatives].filter((f): f is NonNullable<typeof f> => f !== null).map((f) => f.zone);
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Check the file's time zone" data-testid="import-time-zone-warning">
      <Stack gap="xs">
        <Text size="sm">{check.message}</Text>
        {zones.length > 0 && (
          <Group gap="xs">
            {zones.map((zone) => (
              <Button key={zone} size="compact-sm" variant="light" color="orange" onClick={() => onChoose(zone)}>
                Read as {zone}
              </Button>
            ))}
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
