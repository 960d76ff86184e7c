import { hasAll } from '../parsing';
import type { Importer } from '../types';
import { readFillRows } from './fill-rows';

/**
 * TopstepX (ProjectX platform) orders export. UTF-8 BOM, `Bid` = buy and `Ask` = sell, one row per order with Status
 * Filled / Cancelled / Rejected / Open; only Filled rows are fills (FilledAt, ExecutePrice, Size). Times carry their
 * offset (`-04:00`). Rows are not in time order. PositionDisposition (Opening/Closing) is sometimes wrong in real
 * files, so it is not used: FIFO decides. Orders of one second are ordered by Id (ProjectX numbers orders in time).
 */
export const topstepxOrders: Importer = {
  id: 'topstepx-orders',
  label: 'TopstepX orders export',
  columns: ['Id', 'AccountName', 'ContractName', 'Status', 'Size', 'Side', 'FilledAt', 'ExecutePrice'],
  detect: (headers) => hasAll(headers, ['contractname', 'status', 'side', 'filledat', 'executeprice']),
  parse: (rows, options) =>
    readFillRows(rows, options, {
      symbol: ['contractname'],
      side: ['side'],
      quantity: ['size'],
      price: ['executeprice'],
      time: ['filledat'],
      account: ['accountname'],
      id: ['id'],
      status: ['status'],
      filledStatuses: ['filled'],
      idNamespace: 'topstepx-order',
      seqFromId: true,
    }),
};
