import type { ImportedTrade, ImportResult, ImportPreview } from './index';

/**
 * Test helper (pure, so it may live beside the code): a trade as plain strings and cents, to compare field by field
 * with values worked out by hand from the files.
 */
export function viewTrade(trade: ImportedTrade) {
  return {
    contract: trade.contract,
    symbol: trade.symbol,
    side: trade.side,
    entryTime: trade.entryTime,
    exitTime: trade.exitTime,
    quantity: trade.quantity?.toString() ?? null,
    entryPrice: trade.entryPrice?.toString() ?? null,
    exitPrice: trade.exitPrice?.toString() ?? null,
    grossPnl: trade.grossPnl,
    commission: trade.commission,
    netPnl: trade.netPnl,
  };
}

export function expectPreview(result: ImportResult): ImportPreview {
  if (!result.ok) throw new Error(`Import failed: ${result.code}: ${result.message}`);
  return result;
}
