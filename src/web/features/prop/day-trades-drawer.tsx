import { Anchor, Badge, Button, Drawer, Group, Loader, ScrollArea, Table, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toCents } from '../../../domain/cents';
import { addDays } from '../../../domain/dates';
import type { TradingDayRule } from '../../../domain/market-time';
import { sortByRealizedOrder } from '../../../domain/prop/replay';
import type { PropTrade } from '../../../domain/prop/types';
import { apiFetch } from '../../lib/api';
import { queryKeys, type Trade, type TradePage } from '../../shared/api';
import { pnlColor } from '../../lib/tone';
import { formatClock, formatLongDay, formatSignedMoney } from './format';

/** The Trade Log's filter for one account and trading day, in the shared filter's URL words (account, from, to). */
export const tradeLogLink = (accountId: string, day?: string) =>
  `/trade-log?${new URLSearchParams({ account: accountId, ...(day && { from: day, to: day }) })}`;

/**
 * How many days before a trading day a trade realized on it may have been entered: a Friday position closed after
 * Sunday's reopen realizes on Monday, three days on; one more covers a holiday.
 */
const HELD_DAYS = 4;

/** The account's trades filed from HELD_DAYS before `day` to `day`: those realized on `day` are among them. */
const realizedDayQuery = (accountId: string, day: string) =>
  queryOptions({
    // Under ['trades'], so a change of any trade refreshes it.
    queryKey: [...queryKeys.trades.all, 'prop-realized-day', accountId, day] as const,
    queryFn: () =>
      apiFetch<TradePage>(`/api/trades?${new URLSearchParams({ account: accountId, from: addDays(day, -HELD_DAYS), to: day, limit: '500' })}`),
  });

const asPropTrade = (t: Trade): PropTrade => ({
  id: t.id,
  day: t.date,
  entryAt: t.entry_time,
  exitAt: t.exit_time,
  createdAt: t.created_at,
  netCents: toCents(t.pnl),
  symbol: t.contract || (t.symbol === 'Unknown' ? null : t.symbol),
  quantity: t.quantity === null ? null : Number(t.quantity),
});

/** The trades whose P&L was realized on `day`, in the order it was, as the rules read them. */
function realizedOn(trades: readonly Trade[], day: string, rule: TradingDayRule): Trade[] {
  const byId = new Map(trades.map((t) => [t.id, t]));
  return sortByRealizedOrder(trades.map(asPropTrade), { tradingDay: rule })
    .filter((r) => r.day === day)
    .map((r) => byId.get(r.trade.id)!);
}

/**
 * The trades behind a figure of the status page (every figure one click from its trades): the account's trades
 * realized on one trading day, as the rules count them (a trade entered Thursday 16:02 and closed 18:06 is Friday's),
 * the one that broke a rule marked, each linking to its own page.
 */
export function DayTradesDrawer(props: {
  accountId: string;
  /** The account's currency, which the day's amounts are written in. */
  currency?: string;
  day: string | null;
  highlight: string | null;
  timeZone: string;
  tradingDay: TradingDayRule;
  onClose: () => void;
}) {
  const { accountId, currency, day, highlight, timeZone, tradingDay, onClose } = props;
  const query = useQuery({ ...realizedDayQuery(accountId, day ?? ''), enabled: day !== null });
  const trades = day === null ? [] : realizedOn(query.data?.trades ?? [], day, tradingDay);
  const net = trades.reduce((sum, t) => sum + toCents(t.pnl), 0);

  return (
    <Drawer
      opened={day !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={day ? `Trades of ${formatLongDay(day)}` : ''}
      data-testid="prop-day-trades"
    >
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
                {formatSignedMoney(net, currency)}
              </Text>
            </Text>
            <Button
              component={Link}
              to={tradeLogLink(accountId, day ?? undefined)}
              size="xs"
              variant="light"
              rightSection={<IconExternalLink size={14} aria-hidden="true" />}
            >
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
                        {formatSignedMoney(cents, currency)}
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
