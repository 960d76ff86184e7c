import { hasAll, parseInstant, parsePositive, cell } from '../parsing';
import type { Importer, ParseOptions } from '../types';
import { emptyResult, ignore, rowError } from './common';
import { amountWithAsset, perpetualFills, type PerpetualRow } from './perpetual-rows';

/**
 * Hyperliquid's trade-history export: `time,coin,dir,px,sz,ntl,fee,closedPnl`, one row per fill, the direction in
 * words (Open Long, Close Short, Long > Short: a sell through zero). Perpetuals settle in USDC; spot fills (a coin like
 * PURR/USDC or @107, direction Buy or Sell) are not perpetuals. Times are written as the trader's screen showed them
 * ('09/18/2025 - 14:59:56'), read in the import's zone.
 */
export const hyperliquidTrades: Importer = {
  id: 'hyperliquid-trades',
  label: 'Hyperliquid trade history',
  columns: ['time', 'coin', 'dir', 'px', 'sz', 'ntl', 'fee', 'closedPnl'],
  detect: (headers) => hasAll(headers, ['time', 'coin', 'dir', 'px', 'sz', 'closedpnl']),
  parse: (rows, options: ParseOptions) => {
    const result = emptyResult();
    const read: PerpetualRow[] = [];
    for (const { row, cells } of rows) {
      const coin = cell(cells, 'coin');
      const dir = cell(cells, 'dir').toLowerCase();
      if (coin.includes('/') || coin.startsWith('@') || dir === 'buy' || dir === 'sell') {
        ignore(result, 'spot fills');
        continue;
      }
      // A buy opens a long or closes a short; a sell the other way round.
      const side = /open long|close short|short > long/.test(dir) ? 'Buy' : /open short|close long|long > short/.test(dir) ? 'Sell' : null;
      const quantity = parsePositive(cell(cells, 'sz'));
      const price = parsePositive(cell(cells, 'px'));
      const time = parseInstant(cell(cells, 'time').replace(/\s+-\s+/, ' '), options);
      if (!coin || !side || !quantity || !price || time === null) {
        rowError(result.issues, row, `Missing or unreadable coin, direction${dir ? ` ('${dir}')` : ''}, size, price or time`);
        continue;
      }
      const fee = amountWithAsset(cell(cells, 'fee'));
      read.push({
        row,
        perpetual: { base: coin.toUpperCase(), quote: 'USDC' },
        symbolText: coin,
        side,
        quantity,
        price,
        time,
        fee: fee?.amount ?? null,
        feeAsset: cell(cells, 'feetoken', 'fee token') || fee?.asset || 'USDC',
        closing: dir.startsWith('close') || dir.includes('>'),
      });
    }
    return perpetualFills('HYPERLIQUID', 'hyperliquid', read, result);
  },
};
