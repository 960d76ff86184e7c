import { decimalToCents } from '../../money';
import { parseInstrument } from '../../instruments';
import { pairsToFills, tradovatePair, type FillPair } from '../pairs';
import { cell, hasAll, parseAmount, parseInstant, parsePositive } from '../parsing';
import type { Importer } from '../types';
import { describeMissing, emptyResult, reportGross, rowError } from './common';

/**
 * Tradovate "Performance" report (Reports > Performance > Download). One row per FIFO pair of a buy fill and a sell
 * fill: `symbol,_priceFormat,_priceFormatType,_tickSize,buyFillId,sellFillId,qty,buyPrice,sellPrice,pnl,
 * boughtTimestamp,soldTimestamp,duration`. Quirks seen in real exports: pnl as `$(12.50)` and `"$1,200.00"`; shorts are
 * rows whose soldTimestamp is earlier; one fill split over several rows (same buyFillId); times without an offset in
 * the trader's own clock; no account and no commissions in the file.
 */
export const tradovatePerformance: Importer = {
  id: 'tradovate-performance',
  label: 'Tradovate Performance.csv',
  columns: ['symbol', 'qty', 'buyPrice', 'sellPrice', 'pnl', 'boughtTimestamp', 'soldTimestamp', 'buyFillId', 'sellFillId'],
  detect: (headers) => hasAll(headers, ['buyprice', 'sellprice', 'boughttimestamp', 'soldtimestamp']),
  parse(rows, options) {
    const result = emptyResult();
    // The pairs are read as the rows are (each goes once its fills are made): the file's pairs never live at once.
    function* pairs(): Generator<FillPair, void, undefined> {
      for (const { row, cells } of rows) {
        const symbol = cell(cells, 'symbol');
        const quantity = parsePositive(cells['qty']);
        const buyPrice = parsePositive(cells['buyprice']);
        const sellPrice = parsePositive(cells['sellprice']);
        const boughtAt = parseInstant(cells['boughttimestamp'], options);
        const soldAt = parseInstant(cells['soldtimestamp'], options);
        const missing = describeMissing({ symbol, qty: quantity, buyPrice, sellPrice, boughtTimestamp: boughtAt, soldTimestamp: soldAt });
        if (missing !== null) {
          rowError(result.issues, row, `Missing or unreadable ${missing}`);
          continue;
        }
        yield tradovatePair(
          row,
          '',
          symbol,
          quantity!,
          [cell(cells, 'buyfillid'), buyPrice!, boughtAt!],
          [cell(cells, 'sellfillid'), sellPrice!, soldAt!],
        );
        const pnl = parseAmount(cells['pnl']);
        reportGross(result, '', parseInstrument(symbol).contract, pnl === null ? Number.NaN : decimalToCents(pnl), row);
      }
    }
    result.fills = pairsToFills(pairs(), result.issues);
    // No commission or fee column: the account's fee schedule applies.
    result.costsInFile = false;
    return result;
  },
};
