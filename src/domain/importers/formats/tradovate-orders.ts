import { hasAll, hasAny } from '../parsing';
import type { Importer } from '../types';
import { readFillRows } from './fill-rows';

/**
 * Tradovate "Orders" report (Orders > export). One row per order; the 32-column layout prints `B/S`, `Status` and
 * `Type` with a leading space (` Buy`, ` Filled`), notional values with thousands separators, and cancelled bracket
 * legs with no fill. Filled orders become fills (Fill Time, Avg Fill Price / avgPrice, Filled Qty / filledQty), matched
 * by FIFO. Times have no offset. No commissions in the file.
 */
export const tradovateOrders: Importer = {
  id: 'tradovate-orders',
  label: 'Tradovate Orders.csv',
  columns: ['orderId', 'Account', 'B/S', 'Contract', 'Status', 'Fill Time', 'Filled Qty', 'Avg Fill Price'],
  detect: (headers) => hasAll(headers, ['b/s', 'contract', 'fill time', 'status']) && hasAny(headers, ['avg fill price', 'avgprice']),
  parse: (rows, options) =>
    readFillRows(rows, options, {
      symbol: ['contract', 'product'],
      side: ['b/s'],
      quantity: ['filled qty', 'filledqty'],
      price: ['avg fill price', 'avgprice', 'decimalfillavg'],
      time: ['fill time'],
      account: ['account'],
      id: ['orderid', 'order id'],
      status: ['status'],
      // A partially filled order that was then cancelled still filled contracts: keep it if it has a fill.
      filledStatuses: ['filled', 'canceled', 'cancelled', 'partially filled'],
      maybeFilledStatuses: ['canceled', 'cancelled', 'partially filled'],
      idNamespace: 'tradovate-order',
      seqFromId: true,
    }),
};
