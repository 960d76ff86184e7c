import { decimalToCents } from '../../money';
import { parseInstrument, pointValueOf } from '../../instruments';
import { pairsToFills, type FillPair } from '../pairs';
import { cell, hasAll, parseAmount, parseDateParts, parseInstant, parsePositive } from '../parsing';
import type { Importer } from '../types';
import { costCents, describeMissing, emptyResult, rowError } from './common';

/**
 * NinjaTrader 8 Trade Performance > Trades grid, exported to CSV (right click > Export). Columns can be trimmed by the
 * trader; we need Instrument, Market pos., Qty, Entry time, Exit time, Entry price, Exit price, Profit (Account and
 * Commission when present). Instruments are named 'MNQ SEP26'; times are the PC's clock with no offset (minutes only
 * when the grid shows minutes); money looks like `$48.10 ` and `($75.90)`.
 *
 * Rows are the platform's FIFO matches in the grid's order. With minutes only, an exit and an entry of the same minute
 * may have come in either order: where that decides whether the position went flat, the reading in which it stayed
 * open is taken and the trade is marked ambiguous (domain/fills/build-trades.ts); consecutive rows sharing an exit (or entry)
 * time and price are one fill.
 *
 * Profit in this grid is net of commission AND exchange fees, while the Commission column shows only the broker
 * commission (real file: 1 MNQ, 25 points = $50.00 gross, Profit $48.10, Commission $0.78). So the trade's costs are
 * taken as gross (from prices and the point value) minus Profit; the Commission column is used only when the point
 * value is unknown or the difference is negative.
 */
export const ninjatraderTrades: Importer = {
  id: 'ninjatrader-trades',
  label: 'NinjaTrader 8 trade performance (Trades grid)',
  columns: ['Instrument', 'Account', 'Market pos.', 'Qty', 'Entry time', 'Exit time', 'Entry price', 'Exit price', 'Profit', 'Commission'],
  detect: (headers) => hasAll(headers, ['instrument', 'market pos.', 'entry price', 'exit price', 'entry time', 'exit time']),
  parse(rows, options) {
    const result = emptyResult();
    let seconds = false;
    let read = 0;
    // The pairs are read as the rows are (each goes once its fills are made): the file's pairs never live at once.
    function* pairs(): Generator<FillPair, void, undefined> {
      for (const { row, cells } of rows) {
        const name = cell(cells, 'instrument');
        const position = cell(cells, 'market pos.').toLowerCase();
        const side = position === 'long' ? 'Long' : position === 'short' ? 'Short' : null;
        const quantity = parsePositive(cells['qty'] ?? cells['quantity']);
        const entryPrice = parsePositive(cells['entry price']);
        const exitPrice = parsePositive(cells['exit price']);
        const enteredAt = parseInstant(cells['entry time'], options);
        const exitedAt = parseInstant(cells['exit time'], options);
        const profit = parseAmount(cells['profit']);
        const commissionColumn = costCents(cells['commission'] ?? '');
        const missing = describeMissing({
          Instrument: name,
          'Market pos.': side,
          Qty: quantity,
          'Entry price': entryPrice,
          'Exit price': exitPrice,
          'Entry time': enteredAt,
          'Exit time': exitedAt,
          Profit: profit,
          Commission: commissionColumn,
        });
        if (missing !== null) {
          rowError(result.issues, row, `Missing or unreadable ${missing}`);
          continue;
        }
        seconds ||= parseDateParts(cells['entry time'])!.hasSeconds || parseDateParts(cells['exit time'])!.hasSeconds;
        const instrument = parseInstrument(name);
        const pointValue = pointValueOf(instrument);
        const points = side === 'Long' ? exitPrice!.minus(entryPrice!) : entryPrice!.minus(exitPrice!);
        const gross = decimalToCents(points.times(quantity!).times(pointValue.value));
        let costs = gross - decimalToCents(profit!);
        if (pointValue.unknownFutures || costs < 0) {
          if (costs < 0) {
            result.issues.push({ row, severity: 'warning', message: `Profit is above the gross P&L of the prices; using the Commission column` });
          }
          costs = commissionColumn!;
        }
        const entry = { price: entryPrice!, time: enteredAt! };
        const exit = { price: exitPrice!, time: exitedAt! };
        yield {
          row,
          account: cell(cells, 'account'),
          contract: name,
          quantity: quantity!,
          side: side!,
          buy: side === 'Long' ? entry : exit,
          sell: side === 'Long' ? exit : entry,
          commission: costs,
          // 'Trade number' restarts at 1 in every export, so it is no id: keys come from the trade's contents.
          idNamespace: 'ninjatrader-trade',
        };
        read++;
      }
    }
    result.fills = pairsToFills(pairs(), result.issues, { mergeSameTimeAndPrice: true });
    // The grid shows minutes unless the trader's format shows seconds: then fills of one minute may be in either order.
    result.minutePrecision = read > 0 && !seconds;
    return result;
  },
};
