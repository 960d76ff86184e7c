import { findRiskDefault, resolvePlannedRisk, type RiskDefault } from '../risk/planned-risk';
import { RAccumulator } from '../risk/r-summary';
import { floorRSteps } from './distribution';
import { type TradeColumns, type TradeSet } from './report-trade';

/**
 * The reports in R. A trade's R-multiple is its net P&L over its planned risk (src/domain/risk):
 * its own stop or dollar risk, else the trader's default for its account and instrument. Trades without a planned
 * risk have no R: they are counted apart and never averaged in as 0R.
 */

/**
 * Every trade's planned risk in cents (NaN without): its own, else the default that applies. Defaults in points are
 * priced by quantity and point value, once per account, instrument and size (a trader has a few of those, not
 * 100,000).
 */
export function computeRiskColumn(c: TradeColumns, defaults: readonly RiskDefault[]): Float64Array {
  const risk = Float64Array.from(c.ownRisk);
  if (defaults.length === 0) return risk;
  const price = createRiskPricer(c, defaults);
  for (let i = 0; i < c.size; i++) if (Number.isNaN(risk[i]!)) risk[i] = price(i);
  return risk;
}

/** The planned risk of trade i of the columns under the defaults (NaN without), for trades without a plan of their own. */
export function createRiskPricer(c: TradeColumns, defaults: readonly RiskDefault[]): (i: number) => number {
  const priced = new Map<string, number>();
  return (i) => {
    const key = `${c.account.codes[i]}:${c.symbol.codes[i]}:${c.contract.codes[i]}:${c.quantity[i]}`;
    let cents = priced.get(key);
    if (cents === undefined) {
      const accountId = c.account.values[c.account.codes[i]!] ?? null;
      const symbol = c.symbol.values[c.symbol.codes[i]!] ?? '';
      const q = c.quantity[i]!;
      const planned = findRiskDefault(defaults, accountId, symbol)
        ? resolvePlannedRisk(
            {
              accountId,
              symbol,
              contract: c.contract.values[c.contract.codes[i]!] ?? null,
              side: null,
              entryPrice: null,
              quantity: Number.isNaN(q) ? null : String(q),
              stopPrice: null,
              riskCents: null,
            },
            defaults,
          )
        : null;
      cents = planned ? planned.cents : Number.NaN;
      priced.set(key, cents);
    }
    return cents;
  };
}

/**
 * The planned risks under these defaults, computed once and kept with the columns (only for the last defaults asked:
 * a trader changes them rarely, and the next report asks for the new ones).
 */
export function getRiskColumn(c: TradeColumns, defaults: readonly RiskDefault[]): Float64Array {
  const key = JSON.stringify(defaults);
  const known = c.riskByDefaults.get(key);
  if (known) return known.risk;
  const risk = computeRiskColumn(c, defaults);
  c.riskByDefaults.clear();
  c.riskByDefaults.set(key, { defaults, risk });
  return risk;
}

/**
 * The R bins of the Overview: each holds R in [from, to), as the labels say (a trade of exactly -2R is in "-2R to
 * -1R", one of exactly 3R in "≥ 3R"); the first and last are open.
 */
export const R_BINS = [
  { id: 'lt-2', label: '< -2R', from: -Infinity, to: -2 },
  { id: '-2', label: '-2R to -1R', from: -2, to: -1 },
  { id: '-1', label: '-1R to 0R', from: -1, to: 0 },
  { id: '0', label: '0R to 1R', from: 0, to: 1 },
  { id: '1', label: '1R to 2R', from: 1, to: 2 },
  { id: '2', label: '2R to 3R', from: 2, to: 3 },
  { id: 'ge-3', label: '≥ 3R', from: 3, to: Infinity },
] as const;

/**
 * The index in R_BINS of an R: their bounds are the whole numbers -2 to 3, so a floor places it. Trades are placed by
 * the whole R at or below theirs (floorRSteps, whole-cent comparisons), so a trade on a bound falls on its upper side,
 * as [from, to) says.
 */
export const getRBin = (r: number) => (r < -2 ? 0 : r >= 3 ? R_BINS.length - 1 : Math.floor(r) + 3);

export interface ROverview {
  /** Trades of the set with a planned risk: every figure below is of these. */
  tradesWithRisk: number;
  /** Trades of the set without one ("12 trades without a planned risk"). */
  tradesWithoutRisk: number;
  totalR: number | null;
  /** The average R of a trade with a planned risk: what a trade made, in what it risked. */
  expectancyR: number | null;
  averageWinR: number | null;
  averageLossR: number | null;
  /** Net P&L of the trades with a planned risk, in cents (what the R figures are of). */
  netCentsWithRisk: number;
  /** R won over R lost (the dashboard's Profit Factor card in R); null without a losing trade with a planned risk. */
  profitFactorR: number | null;
  bins: Array<{ id: string; label: string; trades: number }>;
}

/** A trade's R: net P&L over planned risk; NaN without a planned risk. */
export const getTradeR = (c: TradeColumns, risk: Float64Array, i: number) => (risk[i]! > 0 ? c.pnl[i]! / risk[i]! : Number.NaN);

/** The R figures of a set of trades, given every trade's planned risk (computeRiskColumn). */
export function computeROverview(set: TradeSet, risk: Float64Array): ROverview {
  const { columns: c, rows } = set;
  // The sums are the domain's exact ones (src/domain/risk/r-summary.ts), as the dashboard's and Reflect's: the same
  // trades read the same R everywhere, to the last rounding.
  const sum = new RAccumulator();
  const bins = R_BINS.map((b) => ({ id: b.id, label: b.label, trades: 0 }));
  for (const i of rows) {
    const cents = risk[i]!;
    const pnl = c.pnl[i]!;
    // RESULT's codes are the accumulator's (1 a win, 2 a loss).
    sum.addCents(pnl, cents > 0 ? cents : null, c.result[i]!);
    if (!(cents > 0)) continue;
    // The bins' bounds are whole R: the whole R at or below the trade's, from its cents (the Distributions' way).
    bins[getRBin(floorRSteps(pnl, cents))]!.trades++;
  }
  const summary = sum.summary();
  return {
    tradesWithRisk: summary.tradesWithRisk,
    tradesWithoutRisk: summary.tradesWithoutRisk,
    totalR: summary.totalR,
    expectancyR: summary.expectancyR,
    averageWinR: summary.averageWinR,
    averageLossR: summary.averageLossR,
    netCentsWithRisk: summary.netCentsWithRisk,
    profitFactorR: summary.profitFactorR,
    bins,
  };
}
