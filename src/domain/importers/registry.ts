import { binanceFutures } from './formats/binance-futures';
import { bybitTrades } from './formats/bybit-trades';
import { genericPnl } from './formats/generic-pnl';
import { hyperliquidTrades } from './formats/hyperliquid-trades';
import { ibkrActivity } from './formats/ibkr-activity';
import { ninjatraderTrades } from './formats/ninjatrader-trades';
import { orderLevel } from './formats/order-level';
import { quantower } from './formats/quantower';
import { thinkorswimStatement } from './formats/thinkorswim-statement';
import { topstepxOrders } from './formats/topstepx-orders';
import { topstepxTrades } from './formats/topstepx-trades';
import { tradesyncerFills } from './formats/tradesyncer-fills';
import { tradovateOrders } from './formats/tradovate-orders';
import { tradovatePerformance } from './formats/tradovate-performance';
import { tradovatePositionHistory } from './formats/tradovate-position-history';
import type { Importer, StatementImporter } from './types';

/**
 * Every CSV format, most specific first: detection takes the first whose detector accepts the header row, so the
 * broker formats (which would also pass the generic detectors) come before the generic fills, orders and P&L formats,
 * and the generic P&L format is the fallback. The JSON backup is not here: it is recognised by its content.
 */
export const IMPORTERS: readonly Importer[] = [
  tradovatePerformance,
  tradovatePositionHistory,
  tradovateOrders,
  topstepxTrades,
  topstepxOrders,
  ninjatraderTrades,
  binanceFutures,
  bybitTrades,
  hyperliquidTrades,
  quantower,
  tradesyncerFills,
  orderLevel,
  genericPnl,
];

/** Statements of several sections, recognised from their text before the CSV is read. */
export const STATEMENTS: readonly StatementImporter[] = [ibkrActivity, thinkorswimStatement];

export const JSON_BACKUP_FORMAT = { id: 'json-backup', label: 'Trade Log JSON backup' } as const;

export function findImporter(id: string): Importer | undefined {
  return IMPORTERS.find((importer) => importer.id === id);
}

export function findStatement(id: string): StatementImporter | undefined {
  return STATEMENTS.find((statement) => statement.id === id);
}

export function detectImporter(headers: string[]): Importer | undefined {
  return IMPORTERS.find((importer) => importer.detect(headers));
}

/** For the Trade Import Guide: every format with the columns it reads. */
export function listFormats(): { id: string; label: string; columns: string[] }[] {
  return [
    ...IMPORTERS.map(({ id, label, columns }) => ({ id, label, columns })),
    ...STATEMENTS.map(({ id, label, columns }) => ({ id, label, columns })),
    { ...JSON_BACKUP_FORMAT, columns: ['[ { date, instrument, session, type, result, pnl, commission, tags, notes, link } ]'] },
  ];
}
