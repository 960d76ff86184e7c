import { decimalToCents } from '../../money';
import { parseInstrument } from '../../instruments';
import { pairsToFills, tradovatePair, type FillPair } from '../pairs';
import { cell, hasAll, parseAmount, parseDateParts, parseInstant, parsePositive } from '../parsing';
import type { Importer } from '../types';
import { describeMissing, emptyResult, reportGross, rowError } from './common';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Tradovate "Position History" (Account > Position History > export). One row per FIFO pair of a position: position
 * summary columns (Position ID, Timestamp, Trade Date, Net Pos, Net Price, Bought, Avg. Buy, Sold, Avg. Sell, Account,
 * Contract, Product) repeated on every pair, then the pair (Pair ID, Buy Fill ID, Sell Fill ID, Paired Qty, Buy Price,
 * Sell Price, P/L, Bought Timestamp, Sold Timestamp). Rows come newest first. A position still open when exported has
 * a row with Net Pos != 0 and empty pair columns: it is reported as an open position. (Its unpaired fills are not in
 * the file; paired parts of such a position are imported like any closed pair.) P/L is plain (-12.50).
 */
export const tradovatePositionHistory: Importer = {
  id: 'tradovate-position-history',
  label: 'Tradovate Position History',
  columns: [
    'Position ID',
    'Account',
    'Contract',
    'Net Pos',
    'Net Price',
    'Buy Fill ID',
    'Sell Fill ID',
    'Paired Qty',
    'Buy Price',
    'Sell Price',
    'P/L',
    'Bought Timestamp',
    'Sold Timestamp',
  ],
  detect: (headers) => hasAll(headers, ['position id', 'paired qty', 'buy price', 'sell price', 'bought timestamp', 'sold timestamp']),
  parse(rows, options) {
    const result = emptyResult();
    // The pairs are read as the rows are (each goes once its fills are made): the file's pairs never live at once.
    function* pairs(): Generator<FillPair, void, undefined> {
      for (const { row, cells } of rows) {
        const account = cell(cells, 'account');
        const contractText = cell(cells, 'contract', 'product');
        const pairedQty = cell(cells, 'paired qty');
        const netPos = parseAmount(cells['net pos']);
        if (pairedQty === '' && cell(cells, 'buy price', 'sell price') === '') {
          const netPrice = parsePositive(cells['net price']);
          if (netPos !== null && !netPos.isZero() && netPrice !== null && contractText !== '') {
            const instrument = parseInstrument(contractText);
            const opened = parseInstant(cells['timestamp'], options);
            result.openPositions.push({
              account,
              symbol: instrument.root,
              contract: instrument.contract,
              side: netPos.gt(0) ? 'Long' : 'Short',
              quantity: netPos.abs(),
              averagePrice: netPrice,
              openedAt: opened === null ? null : new Date(opened).toISOString(),
              rows: [row],
            });
          } else {
            rowError(result.issues, row, 'Row has neither a fill pair nor an open position');
          }
          continue;
        }
        // The position's time and Tradovate's trading day for it: evidence for the check of the file's time zone.
        const stamped = parseInstant(cells['timestamp'], options);
        const tradeDate = parseDateParts(cells['trade date']);
        if (stamped !== null && tradeDate !== null && !tradeDate.hasTime) {
          (result.fileDays ??= []).push({ time: stamped, day: `${tradeDate.year}-${pad(tradeDate.month)}-${pad(tradeDate.day)}` });
        }
        const quantity = parsePositive(pairedQty);
        const buyPrice = parsePositive(cells['buy price']);
        const sellPrice = parsePositive(cells['sell price']);
        const boughtAt = parseInstant(cells['bought timestamp'], options);
        const soldAt = parseInstant(cells['sold timestamp'], options);
        const missing = describeMissing({
          Contract: contractText,
          'Paired Qty': quantity,
          'Buy Price': buyPrice,
          'Sell Price': sellPrice,
          'Bought Timestamp': boughtAt,
          'Sold Timestamp': soldAt,
        });
        if (missing !== null) {
          rowError(result.issues, row, `Missing or unreadable ${missing}`);
          continue;
        }
        yield tradovatePair(
          row,
          account,
          contractText,
          quantity!,
          [cell(cells, 'buy fill id'), buyPrice!, boughtAt!],
          [cell(cells, 'sell fill id'), sellPrice!, soldAt!],
        );
        const pnl = parseAmount(cells['p/l']);
        reportGross(result, account, parseInstrument(contractText).contract, pnl === null ? Number.NaN : decimalToCents(pnl), row);
      }
    }
    result.fills = pairsToFills(pairs(), result.issues);
    // No commission or fee column: the account's fee schedule applies.
    result.costsInFile = false;
    return result;
  },
};
