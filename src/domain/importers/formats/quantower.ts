import { hasAll, hasAny } from '../parsing';
import type { Importer } from '../types';
import { readFillRows } from './fill-rows';

/**
 * Quantower Trades panel (and Orders History panel) export. We have no real sample (see the fixtures' PROVENANCE.md),
 * so this follows Quantower's documented Trade object (api.quantower.com, TradingPlatform.BusinessLayer.Trade:
 * DateTime, Symbol, Side, Quantity, Price, GrossPnl, Fee, NetPnl, Id, OrderId, PositionId, Account) and the panel's
 * column captions: 'Date/Time', 'Symbol', 'Side', 'Quantity', 'Price', 'Gross P/L', 'Fee', 'Net P/L', 'Trade ID',
 * 'Order ID', 'Position ID', 'Account'. Each row is an execution (fill); fees are printed as negative amounts. An
 * orders export has a 'Status' column: only filled orders are fills. Times are the platform's local clock.
 */
export const quantower: Importer = {
  id: 'quantower',
  label: 'Quantower trades / orders export',
  columns: ['Date/Time', 'Account', 'Symbol', 'Side', 'Quantity', 'Price', 'Fee', 'Trade ID'],
  detect: (headers) =>
    hasAll(headers, ['date/time', 'symbol', 'side', 'quantity', 'price']) &&
    hasAny(headers, ['trade id', 'order id', 'gross p/l', 'net p/l', 'fee', 'order type']),
  parse: (rows, options) =>
    readFillRows(rows, options, {
      symbol: ['symbol'],
      side: ['side'],
      quantity: ['filled quantity', 'quantity'],
      price: ['average fill price', 'price'],
      time: ['date/time'],
      account: ['account'],
      id: ['trade id', 'order id'],
      costs: ['fee'],
      status: ['status'],
      filledStatuses: ['filled'],
      idNamespace: 'quantower',
    }),
};
