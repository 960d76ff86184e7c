import { toCents } from '../cents';

/**
 * The Reports' MAE/MFE report: averages over the trades the filter picks, from the figures stored
 * per trade (trade_excursions). Only trades measured in full count: a trade without bars, or with bars missing inside
 * it, is counted apart and never estimated. Money in integer cents (sums of cents, never of floats); capture as a
 * ratio in 1/10,000ths, as stored.
 */
export interface MeasuredTrade {
  result: 'win' | 'loss' | 'even';
  /** Stored figures, as the database gives them ("12.50"): adverse and favourable moves in dollars, both >= 0. */
  mae: string;
  mfe: string;
  /** Share of the best exit captured, "0.7059"; null when price never went the trade's way. */
  capture: string | null;
}

export interface ExcursionGroup {
  trades: number;
  averageMaeCents: number | null;
  averageMfeCents: number | null;
  /** Average share of the best exit captured, percent with one decimal; null when no trade of the group has one. */
  averageCapturePercent: number | null;
}

export interface ExcursionSummary {
  all: ExcursionGroup;
  winners: ExcursionGroup;
  losers: ExcursionGroup;
  /** Trades of the filter that have no complete figures (no bars, bars missing, or no entry and exit). */
  unmeasured: number;
}

function summarizeGroup(trades: readonly MeasuredTrade[]): ExcursionGroup {
  let mae = 0;
  let mfe = 0;
  let capture = 0;
  let captured = 0;
  for (const trade of trades) {
    mae += toCents(trade.mae);
    mfe += toCents(trade.mfe);
    if (trade.capture !== null) {
      capture += Math.round(Number(trade.capture) * 10_000);
      captured += 1;
    }
  }
  const n = trades.length;
  return {
    trades: n,
    averageMaeCents: n === 0 ? null : Math.round(mae / n),
    averageMfeCents: n === 0 ? null : Math.round(mfe / n),
    // Basis points summed as integers; one division at the end, rounded to a tenth of a percent.
    averageCapturePercent: captured === 0 ? null : Math.round(capture / captured / 10) / 10,
  };
}

export function summarizeExcursions(measured: readonly MeasuredTrade[], unmeasured: number): ExcursionSummary {
  return {
    all: summarizeGroup(measured),
    winners: summarizeGroup(measured.filter((t) => t.result === 'win')),
    losers: summarizeGroup(measured.filter((t) => t.result === 'loss')),
    unmeasured,
  };
}
