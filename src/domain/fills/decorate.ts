import type { Cents, Decimal } from '../money';
import { isFuturesInstrument } from '../instruments';
import { dayFromString, DEFAULT_TRADING_DAY_RULE, marketDayOf, MARKET_TIME_ZONE, type TradingDayRule } from '../market-time';
import type { TradeSide } from '../trades/side';
import type { ImportedTrade, ParsedTrade, TradeResult } from './types';

/**
 * The facts of a trade before the journal's derived fields (day, session, result, tags, key) are added: the fields
 * a trade-level record already has, plus what the FIFO builder knows (symbol root, fill counts, point value).
 */
export type TradeCore = Pick<
  ParsedTrade,
  | 'account'
  | 'contract'
  | 'side'
  | 'entryTime'
  | 'exitTime'
  | 'day'
  | 'quantity'
  | 'entryPrice'
  | 'exitPrice'
  | 'grossPnl'
  | 'commission'
  | 'rows'
  | 'session'
  | 'tradeType'
  | 'tags'
  | 'notes'
  | 'link'
  | 'fills'
> & {
  symbol: string;
  entryFills: number;
  exitFills: number;
  pointValue: Decimal | null;
  ambiguity?: string;
};

/** Result from net pnl: above 0 Win, below 0 Loss, 0 BE. */
export function resultOf(netPnl: Cents): TradeResult {
  return netPnl > 0 ? 'Win' : netPnl < 0 ? 'Loss' : 'BE';
}

/**
 * The tags an import adds: Imported, Direct-Parse, Winner/Loser/Breakeven, the symbol, the session and the side; the impact
 * tag from |pnl| (net, as the stored pnl is net): High-Impact at 100 or more, Medium-Impact at 50 or more, Low-Impact
 * above 0; Multi-Position when a trade has more than one fill on a side.
 */
export function importTags(trade: {
  netPnl: Cents;
  symbol: string;
  session: string;
  side: TradeSide | null;
  entryFills: number;
  exitFills: number;
}): string[] {
  const tags = ['Imported', 'Direct-Parse'];
  tags.push(trade.netPnl > 0 ? 'Winner' : trade.netPnl < 0 ? 'Loser' : 'Breakeven');
  if (trade.symbol) tags.push(trade.symbol);
  if (trade.session) tags.push(trade.session);
  if (trade.side) tags.push(trade.side);
  const magnitude = Math.abs(trade.netPnl);
  if (magnitude >= 10_000) tags.push('High-Impact');
  else if (magnitude >= 5_000) tags.push('Medium-Impact');
  else if (magnitude > 0) tags.push('Low-Impact');
  if (trade.entryFills > 1 || trade.exitFills > 1) tags.push('Multi-Position');
  return tags;
}

/**
 * The day under which a stored imported trade is filed, from its entry time and instrument: what a change of the
 * trader's trading-day setting re-files. Same rule as a fresh import (decorateTrade).
 */
export function dayOfImportedTrade(entryTime: number, instrument: string, options: DecorateOptions = {}) {
  return marketDayOf(entryTime, {
    marketTimeZone: options.marketTimeZone ?? MARKET_TIME_ZONE,
    rule: options.tradingDay ?? DEFAULT_TRADING_DAY_RULE,
    futures: isFuturesInstrument(instrument),
  });
}

export interface DecorateOptions {
  marketTimeZone?: string;
  /** Exchange trading day (default) or calendar day; see domain/market-time. */
  tradingDay?: TradingDayRule;
}

/**
 * One list for every trade with the same import tags: a file's trades have a handful of combinations, and 75,000 lists
 * of eight tags were 15 MB (the memory of large files). Frozen, since shared; emptied when full.
 */
const sharedTagLists = new Map<string, string[]>();
const SHARED_TAG_LISTS = 4_096;

function sharedTags(tags: string[]): string[] {
  const key = tags.join('\u0000');
  let shared = sharedTagLists.get(key);
  if (shared === undefined) {
    if (sharedTagLists.size >= SHARED_TAG_LISTS) sharedTagLists.clear();
    shared = Object.freeze(tags) as string[];
    sharedTagLists.set(key, shared);
  }
  return shared;
}

/**
 * Adds day, session, result and tags. Day and session come from the entry time in the market zone (the day by the
 * trader's trading-day rule); a trade whose file names its day (generic P&L, JSON backup) keeps that day, and the
 * session the file gave (else from the time, else AM, the spec's default session).
 */
export function decorateTrade(core: TradeCore, importKey: string, options: DecorateOptions = {}): ImportedTrade {
  const dayOptions = {
    marketTimeZone: options.marketTimeZone ?? MARKET_TIME_ZONE,
    rule: options.tradingDay ?? DEFAULT_TRADING_DAY_RULE,
    futures: isFuturesInstrument(core.contract || core.symbol),
  };
  const netPnl = core.grossPnl - core.commission;
  let tradingDay: string;
  let dayOfWeek: string;
  let tradeDate: string;
  let session: string;
  const anchor = core.entryTime ?? core.exitTime;
  const explicitDay = core.day !== undefined ? dayFromString(core.day) : null;
  if (explicitDay !== null) {
    ({ tradingDay, dayOfWeek, tradeDate } = explicitDay);
    session = core.session ?? (anchor !== null ? marketDayOf(anchor, dayOptions).session : 'AM');
  } else if (anchor !== null) {
    const day = marketDayOf(anchor, dayOptions);
    ({ tradingDay, dayOfWeek, tradeDate } = day);
    session = core.session ?? day.session;
  } else {
    tradingDay = dayOfWeek = tradeDate = '';
    session = core.session ?? 'AM';
  }
  const tags =
    core.tags ??
    sharedTags(importTags({ netPnl, symbol: core.symbol, session, side: core.side, entryFills: core.entryFills, exitFills: core.exitFills }));
  const trade: ImportedTrade = {
    importKey,
    account: core.account,
    symbol: core.symbol,
    contract: core.contract,
    side: core.side,
    entryTime: core.entryTime === null ? null : new Date(core.entryTime).toISOString(),
    exitTime: core.exitTime === null ? null : new Date(core.exitTime).toISOString(),
    quantity: core.quantity,
    entryPrice: core.entryPrice,
    exitPrice: core.exitPrice,
    grossPnl: core.grossPnl,
    commission: core.commission,
    netPnl,
    result: resultOf(netPnl),
    tradingDay,
    dayOfWeek,
    tradeDate,
    session,
    tags,
    entryFills: core.entryFills,
    exitFills: core.exitFills,
    rows: core.rows,
    pointValue: core.pointValue,
  };
  if (core.tradeType !== undefined) trade.tradeType = core.tradeType;
  if (core.notes !== undefined) trade.notes = core.notes;
  if (core.link !== undefined) trade.link = core.link;
  if (core.ambiguity !== undefined) trade.ambiguity = core.ambiguity;
  if (core.fills !== undefined) trade.fills = core.fills;
  return trade;
}

/** Key material from a trade's content, for files without ids. */
export function contentKeyMaterial(core: TradeCore): string {
  return [
    'c',
    core.account,
    core.contract || core.symbol,
    core.side ?? '',
    core.entryTime ?? core.day ?? '',
    core.exitTime ?? '',
    core.quantity?.toString() ?? '',
    core.entryPrice?.toString() ?? '',
    core.exitPrice?.toString() ?? '',
    core.grossPnl,
    core.commission,
  ].join('|');
}
