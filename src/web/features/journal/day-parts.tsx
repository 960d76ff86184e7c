import { Anchor, Badge, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconNotes } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDay } from '../../../domain/dates';
import { formatUsd, toCents } from '../../../domain/money';
import { formatExecutionTime, formatPrice, formatQuantity, grossPnlCentsOf } from '../../../domain/trades';
import { PnlValue } from '../../components/pnl-value';
import { TradeExecutionLine } from '../../components/trade-execution';
import type { JournalDay, JournalDayDetail } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { accountLabel } from '../accounts';
import classes from './journal.module.css';

/**
 * The journal's day list row and a day's trades, from the data as it is: the trader's own journal and a mentor's
 * read-only view of it show them alike.
 */

export function DayRow({ day, selected, onSelect }: { day: JournalDay; selected: boolean; onSelect: () => void }) {
  return (
    <UnstyledButton
      className={classes.dayRow}
      data-selected={selected || undefined}
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      data-testid="journal-day"
      data-date={day.date}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        {/* EEE MMM d; the list says the year above the days of other years. */}
        <Text size="sm" fw={600} data-testid="journal-day-date">
          {formatDay(day.date, 'EEE MMM d')}
        </Text>
        <PnlValue value={day.pnl} size="sm" data-testid="journal-day-pnl" />
      </Group>
      <Group gap={6} mt={2}>
        <Text size="xs" c="dimmed">
          {day.trades === 0 ? 'No trades' : `${day.trades} ${day.trades === 1 ? 'trade' : 'trades'}`}
        </Text>
        {day.has_note && (
          <Badge size="xs" variant="light" leftSection={<IconNotes size={10} aria-hidden="true" />} tt="none">
            Journal
          </Badge>
        )}
      </Group>
    </UnstyledButton>
  );
}

function TradeSymbol({ id, symbol, linked }: { id: string; symbol: string; linked: boolean }) {
  return linked ? (
    <Anchor component={Link} to={`/trade/${id}`} size="sm" fw={600}>
      {symbol}
    </Anchor>
  ) : (
    <Text span size="sm" fw={600}>
      {symbol}
    </Text>
  );
}

const priceOf = (t: JournalDayDetail['trades'][number], value: string | null) =>
  value === null ? '—' : formatPrice(value, t.contract || t.symbol).text;

/**
 * The day's trades beside its journal: each with its entry and exit time in the trader's zone, quantity,
 * prices, gross and fees where it has them. On a phone, one line of execution under each trade. With every account
 * shown, each trade says whose it is: a trade copied into two accounts is two rows that would otherwise read the same.
 */
export function DayTrades({
  date,
  trades,
  withAccount,
  linked = true,
}: {
  date: string;
  trades: JournalDayDetail['trades'];
  withAccount: boolean;
  /** Each symbol opens the trade's page (the trader's own journal; a mentor has no such page). */
  linked?: boolean;
}) {
  const { timeZone } = useTraderTime();
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  if (phone) {
    return (
      <Stack gap={6} data-testid="journal-trades">
        {trades.map((t) => (
          <div key={t.id} data-testid="journal-trade">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <TradeSymbol id={t.id} symbol={t.symbol} linked={linked} />
              <PnlValue value={t.pnl} size="sm" data-testid="journal-trade-pnl" />
            </Group>
            {withAccount && (
              <Text size="xs" c="dimmed" data-testid="journal-trade-account">
                {accountLabel(t)}
              </Text>
            )}
            <TradeExecutionLine trade={{ ...t, date }} timeZone={timeZone} />
          </div>
        ))}
      </Stack>
    );
  }
  const cell = (text: string | null) => (
    <Text span size="sm" ff="monospace" c={text === null ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {text ?? '—'}
    </Text>
  );
  return (
    <Table.ScrollContainer minWidth={700} type="native">
      <Table verticalSpacing={4} highlightOnHover data-testid="journal-trades">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Symbol</Table.Th>
            {withAccount && <Table.Th>Trade Account</Table.Th>}
            <Table.Th>Entry</Table.Th>
            <Table.Th>Exit</Table.Th>
            <Table.Th ta="right">Qty</Table.Th>
            <Table.Th ta="right">Entry price</Table.Th>
            <Table.Th ta="right">Exit price</Table.Th>
            <Table.Th ta="right">Gross</Table.Th>
            <Table.Th ta="right">Fees</Table.Th>
            <Table.Th ta="right">PnL</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {trades.map((t) => (
            <Table.Tr key={t.id} data-testid="journal-trade">
              <Table.Td>
                <TradeSymbol id={t.id} symbol={t.symbol} linked={linked} />
              </Table.Td>
              {withAccount && (
                <Table.Td data-testid="journal-trade-account">
                  <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {accountLabel(t)}
                  </Text>
                </Table.Td>
              )}
              <Table.Td data-testid="journal-trade-entry">{cell(formatExecutionTime(t.entry_time, timeZone, date))}</Table.Td>
              <Table.Td data-testid="journal-trade-exit">{cell(formatExecutionTime(t.exit_time, timeZone, date))}</Table.Td>
              <Table.Td ta="right" data-testid="journal-trade-quantity">
                {cell(formatQuantity(t.quantity))}
              </Table.Td>
              <Table.Td ta="right">{cell(t.entry_price === null ? null : priceOf(t, t.entry_price))}</Table.Td>
              <Table.Td ta="right">{cell(t.exit_price === null ? null : priceOf(t, t.exit_price))}</Table.Td>
              <Table.Td ta="right" data-testid="journal-trade-gross">
                {cell(formatUsd(grossPnlCentsOf(t)))}
              </Table.Td>
              <Table.Td ta="right" data-testid="journal-trade-fees">
                {cell(formatUsd(toCents(t.commission)))}
              </Table.Td>
              <Table.Td ta="right">
                <PnlValue value={t.pnl} span size="sm" data-testid="journal-trade-pnl" />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
