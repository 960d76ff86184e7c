import { Anchor, Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { ResultBadge } from '../trade-log/trade-cells';
import type { ReactNode } from 'react';
import { formatDay } from '../../../domain/dates';
import { formatMoney, toCents } from '../../../domain/money';
import { currencyOfContract } from '../../../domain/instruments/perpetuals';
import { isWebUrl } from '../../../domain/links/quick-links';
import { formatR } from '../../../domain/risk/format-r';
import { formatTradeType } from '../../../domain/trades';
import { pnlTone } from '../../components/pnl-value';
import { PriceText } from '../../components/price-text';
import type { Trade } from '../../shared/api';
import { useTraderTime, type TraderTime } from '../../shared/trader-clock';

/** "21050.25000000" -> "21050.25", "3.00000000" -> "3": stored with 8 decimals, read as typed. */
function trimDecimal(value: string | null): string | null {
  if (value === null) return null;
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

/** An execution time on the trader's clock, to the second, with the zone beside it (one clock). */
function ExecutionTime({ iso, clock }: { iso: string; clock: TraderTime }) {
  return (
    <Text size="sm" ff="monospace">
      {clock.format(iso, 'MM/dd/yyyy HH:mm:ss')}{' '}
      <Text span size="xs" c="dimmed" ff="inherit" title={clock.timeZone} data-testid="trade-time-zone">
        {clock.zoneName(iso)}
      </Text>
    </Text>
  );
}

function Money({ value, currency }: { value: string | null; currency: string }) {
  if (value === null) return null;
  const cents = toCents(value);
  return (
    <Text span fw={600} ff="monospace" c={pnlTone(cents)}>
      {formatMoney(cents, currency)}
    </Text>
  );
}

function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <Stack gap={2} style={wide ? { gridColumn: '1 / -1' } : undefined} data-testid="trade-field" data-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {empty ? (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ) : typeof children === 'string' ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {children}
        </Text>
      ) : (
        children
      )}
    </Stack>
  );
}

/** Every stored field of the trade, '—' where the trade has none. */
export function TradeFields({ trade }: { trade: Trade }) {
  // A crypto perpetual's money is in its settlement currency (USDT, USDC), never written as dollars.
  const currency = currencyOfContract(trade.contract);
  const clock = useTraderTime();
  const link = trade.link.trim();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="md" verticalSpacing="md" data-testid="trade-fields">
      <Field label="Date">{formatDay(trade.date, 'MM/dd/yyyy')}</Field>
      <Field label="Day">{trade.day_of_week}</Field>
      <Field label="Account">{trade.account_name ?? (trade.account_id ? 'Unknown Account' : 'Unassigned')}</Field>
      <Field label="Session">{trade.period}</Field>
      <Field label="Type">{formatTradeType(trade.trade_type)}</Field>
      <Field label="Result">
        <ResultBadge result={trade.status} size="md" />
      </Field>
      <Field label="Side">{trade.side}</Field>
      <Field label="Contract">{trade.contract}</Field>
      <Field label="Quantity">{trimDecimal(trade.quantity)}</Field>
      <Field label="Entry time">{trade.entry_time && <ExecutionTime iso={trade.entry_time} clock={clock} />}</Field>
      <Field label="Exit time">{trade.exit_time && <ExecutionTime iso={trade.exit_time} clock={clock} />}</Field>
      <Field label="Entry price">
        {trade.entry_price === null ? null : (
          <Text size="sm" ff="monospace">
            <PriceText price={trade.entry_price} symbol={trade.contract || trade.symbol} />
          </Text>
        )}
      </Field>
      <Field label="Exit price">
        {trade.exit_price === null ? null : (
          <Text size="sm" ff="monospace">
            <PriceText price={trade.exit_price} symbol={trade.contract || trade.symbol} />
          </Text>
        )}
      </Field>
      <Field label="Gross P&L">{trade.gross_pnl === null ? null : <Money value={trade.gross_pnl} currency={currency} />}</Field>
      <Field label="Commission">{formatMoney(toCents(trade.commission), currency)}</Field>
      {trade.funding !== null && (
        <Field label="Funding">
          <Money value={trade.funding} currency={currency} />
        </Field>
      )}
      <Field label="Net P&L">
        <Money value={trade.pnl} currency={currency} />
      </Field>
      <Field label="Stop price">
        {trade.stop_price === null ? null : (
          <Text size="sm" ff="monospace">
            <PriceText price={trade.stop_price} symbol={trade.contract || trade.symbol} />
          </Text>
        )}
      </Field>
      <Field label="Target price">
        {trade.target_price === null ? null : (
          <Text size="sm" ff="monospace">
            <PriceText price={trade.target_price} symbol={trade.contract || trade.symbol} />
          </Text>
        )}
      </Field>
      <Field label="Planned risk">
        {trade.planned_risk &&
          `${formatMoney(toCents(trade.planned_risk.amount), currency)}${trade.planned_risk.source.startsWith('default') ? ' (your default)' : ''}`}
      </Field>
      <Field label="R-multiple">{trade.r_multiple === null ? null : formatR(trade.r_multiple)}</Field>
      <Field label="Tags" wide>
        {trade.tags.length > 0 ? (
          <Group gap={4}>
            {trade.tags.map((tag) => (
              <Badge key={tag} variant="outline" size="sm" tt="none">
                {tag}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Field>
      <Field label="Link" wide>
        {link ? (
          isWebUrl(link) ? (
            <Anchor href={link} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {link}
            </Anchor>
          ) : (
            link
          )
        ) : null}
      </Field>
      <Field label="Notes" wide>
        {trade.notes}
      </Field>
    </SimpleGrid>
  );
}
