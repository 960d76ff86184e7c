import { hasAny } from '../parsing';
import type { Importer } from '../types';
import { readFillRows } from './fill-rows';

const PNL_COLUMNS = ['pnl', 'p&l', 'p/l', 'profit', 'net p/l', 'realized pnl', 'profit/loss', 'net profit', 'net pnl'];

/**
 * Order-level files (side, price, quantity, with no pnl column; an imported order has date,
 * timestamp, symbol, side (buy or sell), price, quantity, stopPrice, limitPrice, account). Orders are matched by FIFO.
 * 'timestamp' may be a date-time or epoch seconds/milliseconds; otherwise 'date' (+ 'time').
 */
export const orderLevel: Importer = {
  id: 'order-level',
  label: 'Orders (side, price, quantity)',
  columns: ['date / timestamp', 'symbol', 'side', 'price', 'quantity', 'account', 'status', 'commission'],
  detect: (headers) =>
    headers.includes('side') &&
    hasAny(headers, ['price', 'fillprice', 'avgprice', 'avg price']) &&
    hasAny(headers, ['quantity', 'qty', 'filledqty', 'size']) &&
    !hasAny(headers, PNL_COLUMNS),
  parse: (rows, options) =>
    readFillRows(rows, options, {
      symbol: ['symbol', 'instrument', 'contract', 'ticker'],
      side: ['side', 'action', 'b/s'],
      quantity: ['filledqty', 'quantity', 'qty', 'size'],
      price: ['avgprice', 'avg price', 'fillprice', 'price'],
      time: ['timestamp', 'datetime', 'date/time'],
      date: ['date', 'trade date'],
      clock: ['time'],
      account: ['account', 'accountname'],
      id: ['orderid', 'order id', 'id'],
      costs: ['commission', 'fees', 'fee'],
      status: ['status'],
      filledStatuses: ['filled', 'executed', 'complete', 'completed'],
      idNamespace: 'order',
    }),
};
