import { Anchor, Badge, Button, Drawer, Group, Loader, ScrollArea, Table, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toCents } from '../../../domain/cents';
import { compareTradingOrder } from '../../../domain/trades/trading-order';
import { dayTradesQuery, type Trade } from '../../shared/api';
import { pnlColor } from '../../lib/tone';
import { formatClock, formatLongDay, formatSignedUsd } from './format';

/** The Trade Log's filter for one account and trading day, in the shared filter's URL words (account, from, to). */
export const tradeLogLink = (accountId: string, day?: string) =>
  `/trade-log?${new URLSearchParams({ account: accountId, ...(day && { from: day, to: day }) })}`;

/** A day's trades in the trading order, as the rules read them (the list answers newest first). */
const inTradingOrder = (trades: readonly Trade[]) =>
  [...trades].sort((a, b) =>
    compareTradingOrder(
      { tradeDate: a.trade_date, entryTime: a.entry_time, exitTime: a.exit_time, createdAt: a.created_at, id: a.id },
      { tradeDate: b.trade_date, entryTime: b.entry_time, exitTime: b.exit_time, createdAt: b.created_at, id: b.id },
    ),
  );

/**
 * The trades behind a figure of the status page (issue 28: every figure one click from its trades): the account's
 * trades of one trading day, the one that broke a rule marked, each linking to its own page.
 */
export function DayTradesDrawer(props: { accountId: string; day: string | null; highlight: string | null; timeZone: string; onClose: () => void }) {
  const { accountId, day, highlight, timeZone, onClose } = props;
  const query = useQuery({ ...dayTradesQuery(accountId, day ?? ''), enabled: day !== null });
  const trades = inTradingOrder(query.data?.trades ?? []);
  const net = trades.reduce((sum, t) => sum + toCents(t.pnl), 0);

  return (
    <Drawer opened={day !== null} onClose={onClose} position="right" size="lg" title={day ? `Trades of ${formatLongDay(day)}` : ''} data-testid="prop-day-trades">
      {query.isPending ? (
        <Group justify="center" p="lg">
          <Loader role="status" aria-label="Loading trades" />
        </Group>
      ) : query.isError ? (
        <Text c="var(--mantine-color-error)">{query.error.message}</Text>
      ) : (
        <>
          <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
            <Text size="sm">
              {trades.length} {trades.length === 1 ? 'trade' : 'trades'}, net{' '}
              <Text span fw={700} c={pnlColor(net)}>
                {formatSignedUsd(net)}
              </Text>
            </Text>
            <Button component={Link} to={tradeLogLink(accountId, day ?? undefined)} size="xs" variant="light" rightSection={<IconExternalLink size={14} aria-hidden="true" />}>
              Open in Trade Log
            </Button>
          </Group>
          <ScrollArea type="auto">
            <Table striped highlightOnHover data-testid="prop-day-trades-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Contract</Table.Th>
                  <Table.Th ta="right">Net P&amp;L</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {trades.map((t) => {
                  const cents = toCents(t.pnl);
                  const entry = formatClock(t.entry_time, timeZone);
                  const exit = formatClock(t.exit_time, timeZone);
                  return (
                    <Table.Tr key={t.id} data-highlight={t.id === highlight || undefined} data-testid="prop-day-trade">
                      <Table.Td>
                        <Anchor component={Link} to={`/trade/${t.id}`} size="sm">
                          {entry && exit ? `${entry} - ${exit}` : (entry ?? exit ?? 'No time')}
                        </Anchor>
                        {t.id === highlight && (
                          <Badge ml="xs" color="red" variant="light" size="sm" tt="none">
                            Broke the rule
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {t.contract || t.symbol}
                        {t.quantity !== null && ` × ${Number(t.quantity)}`}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace" fw={600} c={pnlColor(cents)}>
                        {formatSignedUsd(cents)}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      )}
    </Drawer>
  );
}
