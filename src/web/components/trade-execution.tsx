import { Text, type TextProps } from '@mantine/core';
import { Fragment } from 'react';
import { formatUsd, toCents } from '../../domain/money';
import { formatExecutionTime, formatPrice, formatQuantity, grossPnlCentsOf } from '../../domain/trades';

/** What a trade carries about its execution: imports fill these in, trades typed by hand mostly do not. */
export interface TradeExecution {
  /** The trading day, yyyy-MM-dd. */
  date: string;
  symbol: string;
  contract: string | null;
  entry_time: string | null;
  exit_time: string | null;
  quantity: string | null;
  entry_price: string | null;
  exit_price: string | null;
  gross_pnl: string | null;
  pnl: string;
  commission: string;
}

/** The parts of a trade's execution it has, as words: times in the trader's zone, size and prices, gross and fees. */
export function describeExecution(trade: TradeExecution, timeZone: string) {
  const entry = formatExecutionTime(trade.entry_time, timeZone, trade.date);
  const exit = formatExecutionTime(trade.exit_time, timeZone, trade.date);
  const quantity = formatQuantity(trade.quantity);
  const symbol = trade.contract || trade.symbol;
  const price = (value: string | null) => (value === null ? null : formatPrice(value, symbol).text);
  const entryPrice = price(trade.entry_price);
  const exitPrice = price(trade.exit_price);
  const feesCents = toCents(trade.commission);
  const hasMoney = trade.gross_pnl !== null || feesCents !== 0;
  return {
    times: entry || exit ? `${entry ?? '—'} → ${exit ?? '—'}` : null,
    size: quantity || entryPrice || exitPrice ? `${quantity ?? '—'} @ ${entryPrice ?? '—'} → ${exitPrice ?? '—'}` : null,
    gross: hasMoney ? `Gross ${formatUsd(grossPnlCentsOf(trade))}` : null,
    fees: hasMoney ? `Fees ${formatUsd(feesCents)}` : null,
  };
}

/**
 * One line of a trade's execution where there is no room for columns (Trade Log cards, the day dialog and the
 * journal on a phone): '09:31:05 → 09:45:12 · 2 @ 21050.25 → 21060.50 · Gross $410.00 · Fees $4.28'. Nothing for a
 * trade that has none of it.
 */
export function TradeExecutionLine({ trade, timeZone, ...props }: { trade: TradeExecution; timeZone: string } & TextProps) {
  const parts = Object.entries(describeExecution(trade, timeZone)).filter((entry): entry is [string, string] => entry[1] !== null);
  if (parts.length === 0) return null;
  // Each part kept whole on its line: a narrow screen wraps between them, never inside a time or a price.
  return (
    <Text size="xs" c="dimmed" ff="monospace" data-testid="trade-execution" {...props}>
      {parts.map(([kind, part], i) => (
        <Fragment key={kind}>
          {i > 0 && ' · '}
          {/* Trading mode blurs money figures (data-money), not times or prices. */}
          <span style={{ whiteSpace: 'nowrap' }} data-money={kind === 'gross' || kind === 'fees' ? true : undefined}>
            {part}
          </span>
        </Fragment>
      ))}
    </Text>
  );
}
