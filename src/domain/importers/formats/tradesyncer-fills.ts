import { hasAny } from '../parsing';
import type { Importer } from '../types';
import { readFillRows } from './fill-rows';

/**
 * TradeSyncer-like fills ("filltime, fillprice or price, side, status"). No public sample exists; the
 * spec's column names are the contract. Rows with a status other than filled are ignored.
 */
export const tradesyncerFills: Importer = {
  id: 'tradesyncer-fills',
  label: 'TradeSyncer-style fills',
  columns: ['filltime', 'fillprice (or price)', 'side', 'status', 'symbol', 'qty', 'account', 'commission'],
  detect: (headers) => headers.includes('filltime') && hasAny(headers, ['fillprice', 'price']) && headers.includes('side'),
  parse: (rows, options) =>
    readFillRows(rows, options, {
      symbol: ['symbol', 'instrument', 'contract', 'ticker'],
      side: ['side'],
      quantity: ['fillqty', 'filledqty', 'qty', 'quantity', 'size'],
      price: ['fillprice', 'price'],
      time: ['filltime'],
      account: ['account', 'accountname'],
      id: ['fillid', 'id', 'orderid'],
      costs: ['commission', 'fees', 'fee'],
      status: ['status'],
      filledStatuses: ['filled', 'fill', 'complete', 'completed', 'executed'],
      idNamespace: 'tradesyncer-fill',
    }),
};
