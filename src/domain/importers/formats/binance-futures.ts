import { cell, hasAny, parseInstant, parsePositive, parseSide } from '../parsing';
import type { Importer } from '../types';
import { emptyResult, rowError } from './common';
import { amountWithAsset, linearSymbol, perpetualFills, type PerpetualRow } from './perpetual-rows';

/**
 * Binance's USD-M futures trade-history export: one row per fill, `Date(UTC),Symbol,Side,Price,Quantity,Amount,Fee,
 * Realized Profit` (newer exports add `Fee Coin` and `Quote Asset`). Times are UTC whatever zone the import is read in.
 * A fill that realized profit closed (part of) a position.
 */
export const binanceFutures: Importer = {
  id: 'binance-futures',
  label: 'Binance USD-M futures trade history',
  columns: ['Date(UTC)', 'Symbol', 'Side', 'Price', 'Quantity', 'Fee', 'Fee Coin', 'Realized Profit'],
  detect: (headers) =>
    hasAny(headers, ['date(utc)', 'time(utc)']) &&
    headers.includes('symbol') &&
    headers.includes('side') &&
    hasAny(headers, ['realized profit', 'realized pnl']),
  parse: (rows) => {
    const result = emptyResult();
    const read: PerpetualRow[] = [];
    for (const { row, cells } of rows) {
      const symbolText = cell(cells, 'symbol');
      const side = parseSide(cell(cells, 'side'));
      const quantity = parsePositive(cell(cells, 'quantity', 'qty'));
      const price = parsePositive(cell(cells, 'price'));
      // Binance writes UTC: read as UTC, not in the import's zone.
      const time = parseInstant(cell(cells, 'date(utc)', 'time(utc)'), 'UTC');
      if (!symbolText || !side || !quantity || !price || time === null) {
        rowError(result.issues, row, 'Missing or unreadable symbol, side, quantity, price or date');
        continue;
      }
      const fee = amountWithAsset(cell(cells, 'fee'));
      const realized = amountWithAsset(cell(cells, 'realized profit', 'realized pnl'));
      const perpetual = linearSymbol(symbolText);
      const quote = cell(cells, 'quote asset').toUpperCase();
      read.push({
        row,
        perpetual: perpetual && (quote === '' || quote === perpetual.quote) ? perpetual : null,
        symbolText,
        side,
        quantity,
        price,
        time,
        // A commission is a cost whatever its sign in the file.
        fee: fee === null ? null : fee.amount.abs(),
        feeAsset: cell(cells, 'fee coin', 'fee asset') || fee?.asset || null,
        closing: realized !== null && !realized.amount.isZero() ? true : null,
      });
    }
    return perpetualFills('BINANCE', 'binance', read, result);
  },
};
