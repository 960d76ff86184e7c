import { Decimal, decimalToCents, type Cents } from '../money';
import type { TradeSide } from '../trades/side';

/**
 * Funding payments of perpetuals: an exchange charges or pays them every few hours on the positions open at that
 * moment. Each is kept as an entry of its own; it counts in the net P&L of the trade it was paid on, found by this rule:
 *
 * - the trade of the payment's contract that was open at the payment's time (entered at or before it, exited at or
 *   after it);
 * - when the exchange names the position's side (long or short), a trade of that side only;
 * - exactly one such trade: two (a hedge-mode long and short both open, and an exchange that does not say which paid)
 *   or none (the position opened before the first synced day, or is still open) leave the payment on its own, counted
 *   in no trade's P&L, until a later sync finds its trade.
 */

export interface FundingEntry {
  id: string;
  contract: string;
  /** Epoch ms. */
  time: number;
  positionSide: 'LONG' | 'SHORT' | null;
}

export interface FundedTradeCandidate {
  id: string;
  contract: string;
  side: TradeSide | null;
  /** Epoch ms. */
  entry: number;
  exit: number;
}

/** The trade each payment counts in, by payment id; payments without exactly one open trade are left out. */
export function attributeFunding(payments: readonly FundingEntry[], trades: readonly FundedTradeCandidate[]): Map<string, string> {
  const byContract = new Map<string, FundedTradeCandidate[]>();
  for (const trade of trades) {
    const key = trade.contract.toUpperCase();
    let list = byContract.get(key);
    if (!list) byContract.set(key, (list = []));
    list.push(trade);
  }
  const out = new Map<string, string>();
  for (const payment of payments) {
    const wanted = payment.positionSide === 'LONG' ? 'Long' : payment.positionSide === 'SHORT' ? 'Short' : null;
    const open = (byContract.get(payment.contract.toUpperCase()) ?? []).filter(
      (trade) => trade.entry <= payment.time && payment.time <= trade.exit && (wanted === null || trade.side === wanted),
    );
    if (open.length === 1) out.set(payment.id, open[0]!.id);
  }
  return out;
}

/** A trade's funding in cents: its payments (exact decimals, positive received) summed, then rounded once. */
export function fundingCents(amounts: readonly string[]): Cents {
  let sum = new Decimal(0);
  for (const amount of amounts) sum = sum.plus(new Decimal(amount));
  return decimalToCents(sum);
}
