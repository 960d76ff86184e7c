import { Badge, Group, Loader, Modal, ScrollArea, Table, Text } from '@mantine/core';
import { formatDay } from '../../../../domain/dates';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toCents } from '../../../../domain/money';
import { calculateWinRate } from '../../../../domain/stats';
import { formatTradeType } from '../../../../domain/trades';
import { dayTradesQuery, type AccountFilter } from '../../../shared/api';
import { formatSignedUsd, formatWinRate, pnlColor } from '../format';

const RESULT_COLOR = { Win: 'teal', Loss: 'red', BE: 'gray' } as const;
const PHONE_QUERY = '(max-width: 47.99em)';

/** Spec part 1 §2.4, §2.5: the trades of the calendar day the trader clicked. */
export function DayTradesDialog({ date, account, onClose }: { date: string | null; account: AccountFilter; onClose: () => void }) {
  const query = useQuery({ ...dayTradesQuery(account, date ?? ''), enabled: date !== null });
  const trades = query.data?.trades ?? [];
  const totalCents = trades.reduce((sum, t) => sum + toCents(t.pnl), 0);
  const wins = trades.filter((t) => t.status === 'Win').length;
  const losses = trades.filter((t) => t.status === 'Loss').length;
  // On a phone the session, type and account go under the symbol, so Result and PnL stay in view (issue 14).
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });

  return (
    <Modal
      opened={date !== null}
      onClose={onClose}
      size="xl"
      centered
      title={date ? `Trades on ${formatDay(date, 'EEEE, MMMM d, yyyy')}` : ''}
    >
      {query.isPending ? (
        <Group justify="center" p="lg">
          <Loader aria-label="Loading trades" />
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
          </Group>
          <ScrollArea type="auto">
            <Table striped highlightOnHover miw={phone ? undefined : 560} data-testid="day-trades-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Symbol</Table.Th>
                  {!phone && (
                    <>
                      <Table.Th>Session</Table.Th>
                      <Table.Th>Side</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Account</Table.Th>
                    </>
                  )}
                  <Table.Th>Result</Table.Th>
                  <Table.Th ta="right">PnL</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {trades.map((t) => (
                  <Table.Tr key={t.id} data-testid="day-trade-row">
                    <Table.Td>
                      <Link to={`/trade/${t.id}`}>{t.symbol}</Link>
                      {phone && (
                        <Text size="xs" c="dimmed" data-testid="day-trade-details">
                          {[t.period, t.side, formatTradeType(t.trade_type), t.account_name ?? 'Unassigned'].filter(Boolean).join(' · ')}
                        </Text>
                      )}
                    </Table.Td>
                    {!phone && (
                      <>
                        <Table.Td>{t.period}</Table.Td>
                        <Table.Td>{t.side ?? '—'}</Table.Td>
                        <Table.Td>{formatTradeType(t.trade_type)}</Table.Td>
                        <Table.Td>{t.account_name ?? 'Unassigned'}</Table.Td>
                      </>
                    )}
                    <Table.Td>
                      <Badge size="sm" variant="light" color={RESULT_COLOR[t.status] ?? 'gray'}>
                        {t.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right" fw={700} c={pnlColor(toCents(t.pnl))} data-testid="day-trade-pnl">
                      {formatSignedUsd(toCents(t.pnl))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      )}
    </Modal>
  );
}
