import { cell, hasAny, parseInstant, parsePositive, parseSide } from '../parsing';
import type { Importer } from '../types';
import { emptyResult, ignore, rowError } from './common';
import { parseTimeCell } from './fill-rows';
import { amountWithAsset, linearSymbol, perpetualFills, type PerpetualRow } from './perpetual-rows';

/**
 * Bybit's derivatives trade-history export of a unified account: one row per execution, its columns named as Bybit's
 * API names an execution's fields, spelled either way (`Symbol` or `Contracts`; `Exec Qty` or `Filled Qty`; `Exec Price`
 * or `Filled Price`; `Exec Fee` or `Trading Fee`; `Fee Currency`; `Exec Type`; `Closed Size`; `Exec Time` or
 * `Transaction Time(UTC+0)`), times in UTC. Only trade executions are fills: funding and settlement rows are not.
 */
const QTY = ['exec qty', 'execqty', 'filled qty', 'filled quantity', 'qty', 'quantity'];
const PRICE = ['exec price', 'execprice', 'filled price', 'avg. filled price', 'price'];
const FEE = ['exec fee', 'execfee', 'trading fee', 'fee', 'fees'];
const TIME = ['exec time', 'exectime', 'transaction time(utc+0)', 'transaction time', 'trade time(utc+0)', 'trade time', 'time(utc)', 'time'];
const TRADE_TYPES = new Set(['', 'trade', 'adltrade', 'busttrade', 'delivery', 'blocktrade', 'movposition', 'moveposition']);

export const bybitTrades: Importer = {
  id: 'bybit-trades',
  label: 'Bybit derivatives trade history',
  columns: [
    'Symbol (or Contracts)',
    'Side',
    'Exec Qty (or Filled Qty)',
    'Exec Price (or Filled Price)',
    'Exec Fee (or Trading Fee)',
    'Fee Currency',
    'Exec Type',
    'Closed Size',
    'Exec Time',
  ],
  detect: (headers) =>
    hasAny(headers, ['symbol', 'contracts']) &&
    hasAny(headers, ['exec qty', 'execqty', 'filled qty']) &&
    hasAny(headers, ['exec price', 'execprice', 'filled price', 'avg. filled price']) &&
    hasAny(headers, ['exec fee', 'execfee', 'trading fee']),
  parse: (rows) => {
    const result = emptyResult();
    const read: PerpetualRow[] = [];
    for (const { row, cells } of rows) {
      const type = cell(cells, 'exec type', 'exectype', 'trade type', 'type').toLowerCase().replace(/\s/g, '');
      if (!TRADE_TYPES.has(type)) {
        ignore(result, `${type} rows`);
        continue;
      }
      const category = cell(cells, 'category').toLowerCase();
      if (category !== '' && category !== 'linear') {
        ignore(result, `${category} rows (not a linear contract)`);
        continue;
      }
      const symbolText = cell(cells, 'symbol', 'contracts');
      const side = parseSide(cell(cells, 'side', 'direction'));
      const quantity = parsePositive(cell(cells, ...QTY));
      const price = parsePositive(cell(cells, ...PRICE));
      // Bybit writes UTC (or epoch milliseconds): read as UTC, not in the import's zone.
      const timeText = cell(cells, ...TIME);
      const time = /^\d{12,13}$/.test(timeText) ? parseTimeCell(timeText, { timeZone: 'UTC' }) : parseInstant(timeText, 'UTC');
      if (!symbolText || !side || !quantity || !price || time === null) {
        rowError(result.issues, row, 'Missing or unreadable symbol, side, quantity, price or time');
        continue;
      }
      const fee = amountWithAsset(cell(cells, ...FEE));
      const closed = amountWithAsset(cell(cells, 'closed size', 'closedsize'));
      const id = cell(cells, 'exec id', 'execid', 'trade id', 'transaction id');
      read.push({
        row,
        perpetual: linearSymbol(symbolText),
        symbolText,
        side,
        quantity,
        price,
        time,
        fee: fee?.amount ?? null,
        feeAsset: cell(cells, 'fee currency', 'feecurrency', 'fee coin') || fee?.asset || null,
        closing: closed === null ? null : !closed.amount.isZero(),
        ...(id ? { id } : {}),
      });
    }
    return perpetualFills('BYBIT', 'bybit', read, result);
  },
};
