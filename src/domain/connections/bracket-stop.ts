import { Decimal } from '../money';

/**
 * A synced trade's planned stop, from the orders the broker kept: the stop a trader places with the entry (a bracket,
 * or by hand right after) is their plan, and so the trade's R. The stop read is the first stop order of the trade's
 * contract on the closing side, placed from a few seconds before the entry (a bracket is placed with its entry order,
 * before the entry fills) until the exit, whose price lies on the losing side of the entry: a stop moved to break-even
 * or into profit later is management, not the plan. Cancelled and filled stops count alike: a stop that was hit is the
 * plan that was kept.
 */

export interface OrderForStop {
  id: string;
  /** The journal's contract (MNQM5). */
  contract: string;
  /** Epoch ms it was placed. */
  placedAt: number;
  type: string;
  side: 'Buy' | 'Sell';
  stopPrice: string | null;
}

export interface TradeForStop {
  contract: string | null;
  side: 'Long' | 'Short' | null;
  entryTime: string | null;
  exitTime: string | null;
  entryPrice: Decimal | null;
}

export interface BracketStop {
  orderId: string;
  stopPrice: string;
  placedAt: number;
}

/** How long before the entry a bracket's stop may have been placed. */
export const BRACKET_LEAD_MS = 5_000;
const STOP_TYPES = new Set(['stop', 'stop-limit', 'trailing-stop']);

export function bracketStopOf(trade: TradeForStop, orders: readonly OrderForStop[]): BracketStop | null {
  if (!trade.contract || !trade.side || !trade.entryTime || !trade.exitTime || !trade.entryPrice) return null;
  const entry = Date.parse(trade.entryTime);
  const exit = Date.parse(trade.exitTime);
  const closing = trade.side === 'Long' ? 'Sell' : 'Buy';
  let found: OrderForStop | null = null;
  for (const order of orders) {
    if (order.contract !== trade.contract || order.side !== closing || !STOP_TYPES.has(order.type) || order.stopPrice === null) continue;
    if (order.placedAt < entry - BRACKET_LEAD_MS || order.placedAt > exit) continue;
    const stop = new Decimal(order.stopPrice);
    if (trade.side === 'Long' ? !stop.lt(trade.entryPrice) : !stop.gt(trade.entryPrice)) continue;
    if (!found || order.placedAt < found.placedAt) found = order;
  }
  return found ? { orderId: found.id, stopPrice: new Decimal(found.stopPrice!).toFixed(), placedAt: found.placedAt } : null;
}
