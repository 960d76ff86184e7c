import type { TradeAggregate } from './trade-aggregate';

/**
 * Profit factor = gross profit / |gross loss| (net pnl).
 * - losses but no profit: 0
 * - profit but no losses: Infinity (the honest value; the score caps it through min(100, ...), and
 *   `formatProfitFactor` prints '∞'). JSON turns Infinity into null, so send aggregates, not this ratio.
 * - no profit and no losses (no trades, or only BE): 0.
 */
export function calculateProfitFactor(aggregate: Pick<TradeAggregate, 'grossProfitCents' | 'grossLossCents'>): number {
  const loss = Math.abs(aggregate.grossLossCents);
  if (loss === 0) return aggregate.grossProfitCents > 0 ? Number.POSITIVE_INFINITY : 0;
  return aggregate.grossProfitCents / loss;
}

/** '1.85', '0.00', '∞'; '—' without a trade (no figure: '0.00' would say every trade lost). */
export function formatProfitFactor(profitFactor: number, trades: number): string {
  if (trades === 0) return '—';
  return Number.isFinite(profitFactor) ? profitFactor.toFixed(2) : '∞';
}
