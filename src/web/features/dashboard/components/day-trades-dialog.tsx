import { ActionIcon, Badge, Group, Loader, Modal, ScrollArea, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconNotes } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { formatDay } from '../../../../domain/dates';
import { toCents } from '../../../../domain/money';
import { calculateWinRate } from '../../../../domain/stats';
import { formatExecutionTime, formatPrice, formatQuantity, formatTradeType, grossPnlCentsOf } from '../../../../domain/trades';
import { TradeExecutionLine } from '../../../components/trade-execution';
import { TradeNotesEditor } from '../../../components/trade-notes-editor';
import { dayTradesQuery, type AccountFilter, type Trade } from '../../../shared/api';
import { useTraderTime } from '../../../shared/trader-clock';
import { formatSignedUsd, formatUsd, formatWinRate, pnlColor } from '../format';

const RESULT_COLOR = { Win: 'teal', Loss: 'red', BE: 'gray' } as const;
const PHONE_QUERY = '(max-width: 47.99em)';
const dash = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

function Mono({ children }: { children: string | null }) {
  if (children === null) return dash;
  return (
    <Text span size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
      {children}
    </Text>
  );
}

const priceOf = (trade: Trade, value: string | null) => (value === null ? null : formatPrice(value, trade.contract || trade.symbol).text);

/**
 * The trades of the calendar day the trader clicked, each with its execution (entry
 * and exit time in the trader's zone, quantity, prices, gross and fees, where the trade has them) and its notes,
 * viewed and edited on their own.
 */
export function DayTradesDialog({ date, account, onClose }: { date: string | null; account: AccountFilter; onClose: () => void }) {
  const query = useQuery({ ...dayTradesQuery(account, date ?? ''), enabled: date !== null });
  const trades = query.data?.trades ?? [];
  const totalCents = trades.reduce((sum, t) => sum + toCents(t.pnl), 0);
  const wins = trades.filter((t) => t.status === 'Win').length;
  const losses = trades.filter((t) => t.status === 'Loss').length;
  const { timeZone } = useTraderTime();
  const [notesOpen, setNotesOpen] = useState<ReadonlySet<string>>(new Set());
  // On a phone the session, type, account and execution go under the symbol, so Result and PnL stay in view.
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  // Every column, for the rows under a trade (its execution on a phone, its notes).
  const columns = phone ? 3 : 11;

  const notesToggle = (t: Trade, open: boolean) => (
    <ActionIcon
      variant={open ? 'light' : 'subtle'}
      color={t.notes ? undefined : 'gray'}
      onClick={() => toggleNotes(t.id)}
      aria-expanded={open}
      aria-label={`Notes of ${t.symbol}`}
      title={t.notes ? 'Notes' : 'Add notes'}
      style={{ flexShrink: 0 }}
      data-testid="day-trade-notes-toggle"
    >
      <IconNotes size={16} aria-hidden="true" />
    </ActionIcon>
  );

  const toggleNotes = (id: string) =>
    setNotesOpen((open) => {
      const next = new Set(open);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Modal
      opened={date !== null}
      onClose={() => {
        setNotesOpen(new Set());
        onClose();
      }}
      size={phone ? 'xl' : 1000}
      centered
      title={date ? `Trades on ${formatDay(date, 'EEEE, MMMM d, yyyy')}` : ''}
    >
      {query.isPending ? (
        <Group justify="center" p="lg">
          <Loader role="status" aria-label="Loading trades" />
        </Group>
      ) : query.isError ? (
        <Text c="var(--mantine-color-error)">{query.error.message}</Text>
      ) : (
        <>
          <Group gap="lg" mb="sm" data-testid="day-trades-summary">
            <Text size="sm">
              Net PnL:{' '}
              <Text span fw={700} c={pnlColor(totalCents)}>
                {formatSignedUsd(totalCents)}
              </Text>
            </Text>
            <Text size="sm">
              Trades: <b>{trades.length}</b>
            </Text>
            <Text size="sm">
              Win rate: <b>{formatWinRate(calculateWinRate({ wins, losses }), wins + losses)}</b>
            </Text>
            <Text size="xs" c="dimmed" ml="auto" data-testid="day-trades-zone">
              Times in {timeZone.replace(/_/g, ' ')}
            </Text>
          </Group>
          <ScrollArea type="auto">
            <Table highlightOnHover miw={phone ? undefined : 900} verticalSpacing={6} data-testid="day-trades-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Symbol</Table.Th>
                  {!phone && (
                    <>
                      <Table.Th>Entry</Table.Th>
                      <Table.Th>Exit</Table.Th>
                      <Table.Th ta="right">Qty</Table.Th>
                      <Table.Th ta="right">Entry price</Table.Th>
                      <Table.Th ta="right">Exit price</Table.Th>
                    </>
                  )}
                  <Table.Th>Result</Table.Th>
                  {!phone && (
                    <>
                      <Table.Th ta="right">Gross</Table.Th>
                      <Table.Th ta="right">Fees</Table.Th>
                    </>
                  )}
                  <Table.Th ta="right">PnL</Table.Th>
                  {!phone && (
                    <Table.Th>
                      <VisuallyHidden>Notes</VisuallyHidden>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {trades.map((t) => {
                  const details = [t.period, t.side, formatTradeType(t.trade_type), t.account_name ?? 'Unassigned'].filter(Boolean).join(' · ');
                  const open = notesOpen.has(t.id);
                  return (
                    <Fragment key={t.id}>
                      <Table.Tr
                        data-testid="day-trade-row"
                        data-trade-id={t.id}
                        // On a phone the line under it belongs to the same trade: no rule between them.
                        style={phone ? ({ '--table-border-color': 'transparent' } as CSSProperties) : undefined}
                      >
                        <Table.Td>
                          <Link to={`/trade/${t.id}`}>{t.symbol}</Link>
                          <Text size="xs" c="dimmed" data-testid="day-trade-details">
                            {details}
                          </Text>
                        </Table.Td>
                        {!phone && (
                          <>
                            <Table.Td data-testid="day-trade-entry">
                              <Mono>{formatExecutionTime(t.entry_time, timeZone, t.date)}</Mono>
                            </Table.Td>
                            <Table.Td data-testid="day-trade-exit">
                              <Mono>{formatExecutionTime(t.exit_time, timeZone, t.date)}</Mono>
                            </Table.Td>
                            <Table.Td ta="right" data-testid="day-trade-quantity">
                              <Mono>{formatQuantity(t.quantity)}</Mono>
                            </Table.Td>
                            <Table.Td ta="right">
                              <Mono>{priceOf(t, t.entry_price)}</Mono>
                            </Table.Td>
                            <Table.Td ta="right">
                              <Mono>{priceOf(t, t.exit_price)}</Mono>
                            </Table.Td>
                          </>
                        )}
                        <Table.Td>
                          <Badge size="sm" variant="light" color={RESULT_COLOR[t.status] ?? 'gray'}>
                            {t.status}
                          </Badge>
                        </Table.Td>
                        {!phone && (
                          <>
                            <Table.Td ta="right" data-testid="day-trade-gross" style={{ whiteSpace: 'nowrap' }}>
                              {formatSignedUsd(grossPnlCentsOf(t))}
                            </Table.Td>
                            <Table.Td ta="right" data-testid="day-trade-fees" style={{ whiteSpace: 'nowrap' }}>
                              {formatUsd(toCents(t.commission))}
                            </Table.Td>
                          </>
                        )}
                        <Table.Td ta="right" fw={700} c={pnlColor(toCents(t.pnl))} data-testid="day-trade-pnl" style={{ whiteSpace: 'nowrap' }}>
                          {formatSignedUsd(toCents(t.pnl))}
                        </Table.Td>
                        {!phone && <Table.Td w={40}>{notesToggle(t, open)}</Table.Td>}
                      </Table.Tr>
                      {/* On a phone the execution and the notes button take a line of their own under the trade. */}
                      {phone && (
                        <Table.Tr data-testid="day-trade-more">
                          <Table.Td colSpan={columns} pt={0}>
                            <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                              <TradeExecutionLine trade={t} timeZone={timeZone} />
                              {notesToggle(t, open)}
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      )}
                      {open && (
                        <Table.Tr data-testid="day-trade-notes">
                          <Table.Td colSpan={columns}>
                            <TradeNotesEditor tradeId={t.id} notes={t.notes} label={`${t.symbol} on ${formatDay(t.date, 'MMM d')}`} />
                          </Table.Td>
                        </Table.Tr>
                      )}
                    </Fragment>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      )}
    </Modal>
  );
}
