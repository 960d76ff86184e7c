import { decimalToCents } from '../../money';
import { parseInstrument } from '../../instruments';
import { pairsToFills, type FillPair } from '../pairs';
import { cell, hasAll, parseAmount, parseInstant, parsePositive } from '../parsing';
import type { Importer } from '../types';
import { costCents, describeMissing, emptyResult, reportGross, rowError } from './common';

/**
 * TopstepX (ProjectX platform) trades export: `Id,ContractName,EnteredAt,ExitedAt,EntryPrice,ExitPrice,Fees,PnL,Size,
 * Type,TradeDay,TradeDuration` and, in the current layout, `Commissions`. UTF-8 BOM. Each row is one FIFO pair
 * (a scale-in is several rows with the same ExitedAt), so rows go back to fills and are rebuilt into round trips.
 * Type is Long or Short. Times carry their offset. PnL is gross; Fees (exchange and clearing) and Commissions are
 * charged on top, so net = PnL - Fees - Commissions. TradeDay (CME session date: evening trades belong to the next
 * day) is not used; the journal's day comes from the entry time (see domain/market-time). No account column.
 */
export const topstepxTrades: Importer = {
  id: 'topstepx-trades',
  label: 'TopstepX trades export',
  columns: ['Id', 'ContractName', 'EnteredAt', 'ExitedAt', 'EntryPrice', 'ExitPrice', 'Fees', 'PnL', 'Size', 'Type', 'Commissions'],
  detect: (headers) => hasAll(headers, ['contractname', 'enteredat', 'exitedat', 'entryprice', 'exitprice', 'size', 'type']),
  parse(rows, options) {
    const result = emptyResult();
    // The pairs are read as the rows are (each goes once its fills are made): the file's pairs never live at once.
    function* pairs(): Generator<FillPair, void, undefined> {
      for (const { row, cells } of rows) {
        const contract = cell(cells, 'contractname');
        const type = cell(cells, 'type').toLowerCase();
        const side = type === 'long' ? 'Long' : type === 'short' ? 'Short' : null;
        const quantity = parsePositive(cells['size']);
        const entryPrice = parsePositive(cells['entryprice']);
        const exitPrice = parsePositive(cells['exitprice']);
        const enteredAt = parseInstant(cells['enteredat'], options);
        const exitedAt = parseInstant(cells['exitedat'], options);
        const fees = costCents(cells['fees'] ?? '');
        const commissions = costCents(cells['commissions'] ?? '');
        const missing = describeMissing({
          ContractName: contract,
          Type: side,
          Size: quantity,
          EntryPrice: entryPrice,
          ExitPrice: exitPrice,
          EnteredAt: enteredAt,
          ExitedAt: exitedAt,
          Fees: fees,
          Commissions: commissions,
        });
        if (missing !== null) {
          rowError(result.issues, row, `Missing or unreadable ${missing}`);
          continue;
        }
        const entry = { price: entryPrice!, time: enteredAt! };
        const exit = { price: exitPrice!, time: exitedAt! };
        const id = cell(cells, 'id');
        yield {
          row,
          account: '',
          contract,
          quantity: quantity!,
          side: side!,
          buy: side === 'Long' ? entry : exit,
          sell: side === 'Long' ? exit : entry,
          commission: fees! + commissions!,
          idNamespace: 'topstepx-trade',
          ...(id ? { rowId: id } : {}),
        };
        const pnl = parseAmount(cells['pnl']);
        reportGross(result, '', parseInstrument(contract).contract, pnl === null ? Number.NaN : decimalToCents(pnl), row);
      }
    }
    result.fills = pairsToFills(pairs(), result.issues);
    return result;
  },
};
