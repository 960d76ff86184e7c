import type { Cents } from '../money';

/** Status is Win, Loss or BE. */
export const TRADE_RESULTS = ['Win', 'Loss', 'BE'] as const;
export type TradeResult = (typeof TRADE_RESULTS)[number];

export function isTradeResult(value: unknown): value is TradeResult {
  return value === 'Win' || value === 'Loss' || value === 'BE';
}

/** Reads 'win', 'LOSS', 'breakeven', 'Break Even', 'be' as a result; anything else is null. */
export function parseTradeResult(value: unknown): TradeResult | null {
  if (typeof value !== 'string') return null;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  if (key === 'win' || key === 'winner') return 'Win';
  if (key === 'loss' || key === 'loser') return 'Loss';
  if (key === 'be' || key === 'breakeven') return 'BE';
  return null;
}

/** Above 0 is Win, below 0 is Loss, 0 is BE. */
export function deriveResultFromNet(netPnlCents: Cents): TradeResult {
  if (netPnlCents > 0) return 'Win';
  if (netPnlCents < 0) return 'Loss';
  return 'BE';
}

/**
 * On save the result comes from net pnl, pnl minus commission, overriding the chosen result.
 * `pnlCents` is the pnl before commission (the add dialog's field); the commission's sign is ignored because it is
 * stored absolute.
 */
export function deriveResult(pnlCents: Cents, commissionCents: Cents): TradeResult {
  return deriveResultFromNet(pnlCents - Math.abs(commissionCents));
}
