import { getFuturesRoot, getPointValue } from '../instruments';
import { Decimal, decimalToCents, parseDecimal, type Cents } from '../money';
import type { TradeSide } from '../trades/side';

/**
 * Planned risk and R-multiples. A trade's planned risk is what the trader stood to lose at the
 * plan: from its own stop price (|entry - stop| x quantity x point value), or its own dollar risk, or else from the
 * trader's default for its account and instrument root (a stop distance in points, or dollars a trade). The
 * R-multiple is the net P&L over it: +2R made twice what was risked, -1R lost exactly the plan.
 */

/** A trader's default risk (table risk_defaults): for one account or all (null), one root or all (null). */
export interface RiskDefault {
  id: string;
  accountId: string | null;
  /** Instrument root in capitals (NQ, MES); null: any instrument. */
  root: string | null;
  /** Stop distance in points (exact decimal text), or null when the default is in dollars. */
  stopPoints: string | null;
  /** Dollars risked a trade, in cents, or null when the default is in points. */
  amountCents: Cents | null;
}

/** What a trade's planned risk is read from. */
export interface RiskTrade {
  accountId: string | null;
  /** The instrument (root for imports, as typed for manual trades). */
  symbol: string;
  /** The contract traded (MNQZ5), when known: its point value is the exact one. */
  contract?: string | null;
  side: TradeSide | null;
  entryPrice: string | null;
  quantity: string | null;
  stopPrice: string | null;
  /** The trade's own dollar risk, in cents. */
  riskCents: Cents | null;
  targetPrice?: string | null;
}

/**
 * Where the planned risk came from: the trade's stop price or dollar amount, or a default in points or dollars.
 * The screens say which, so a figure that came from a default is never taken for the trader's own plan.
 */
export const RISK_SOURCES = ['stop', 'amount', 'default-stop', 'default-amount'] as const;
export type RiskSource = (typeof RISK_SOURCES)[number];

export interface PlannedRisk {
  cents: Cents;
  source: RiskSource;
  /** The default applied, when one was. */
  defaultId?: string;
}

/** The symbol whose point value prices the trade: the contract when the trade has one. */
const pricingSymbol = (trade: Pick<RiskTrade, 'symbol' | 'contract'>) => trade.contract || trade.symbol;

/** Dollars (in cents) of a price distance on a position: |distance| x |quantity| x point value, rounded half up. */
export function computePointsValueCents(points: Decimal, quantity: Decimal, symbol: string): Cents {
  return decimalToCents(points.abs().times(quantity.abs()).times(getPointValue(symbol)));
}

/** Risk to a stop: |entry - stop| x quantity x point value; null without an entry, a stop or a quantity. */
export function computeStopRiskCents(trade: Pick<RiskTrade, 'symbol' | 'contract' | 'entryPrice' | 'stopPrice' | 'quantity'>): Cents | null {
  const entry = parseDecimal(trade.entryPrice);
  const stop = parseDecimal(trade.stopPrice);
  const quantity = parseDecimal(trade.quantity);
  if (!entry || !stop || !quantity) return null;
  return computePointsValueCents(entry.minus(stop), quantity, pricingSymbol(trade));
}

/**
 * The default that applies to a trade, most specific first: its account and root, its account for any instrument,
 * all accounts for its root, then all accounts for any instrument.
 */
export function findRiskDefault(defaults: readonly RiskDefault[], accountId: string | null, symbol: string): RiskDefault | undefined {
  // The root a default is kept under: NQ for 'NQ', 'NQZ5' and 'CME_MINI:NQ1!'.
  const root = getFuturesRoot(symbol);
  const match = (account: string | null, forRoot: string | null) => defaults.find((d) => d.accountId === account && d.root === forRoot);
  return (accountId !== null ? (match(accountId, root) ?? match(accountId, null)) : undefined) ?? match(null, root) ?? match(null, null);
}

/**
 * The trade's planned risk, or null when it has none that can be priced: its own stop or dollar amount first, else the
 * default that applies (a default in points needs the trade's quantity). A risk of 0 is no risk: nothing divides by it.
 */
export function resolvePlannedRisk(trade: RiskTrade, defaults: readonly RiskDefault[] = []): PlannedRisk | null {
  if (trade.stopPrice !== null) {
    const cents = computeStopRiskCents(trade);
    return cents ? { cents, source: 'stop' } : null;
  }
  if (trade.riskCents !== null) return trade.riskCents > 0 ? { cents: trade.riskCents, source: 'amount' } : null;
  const fallback = findRiskDefault(defaults, trade.accountId, trade.symbol);
  if (!fallback) return null;
  if (fallback.amountCents !== null) {
    return fallback.amountCents > 0 ? { cents: fallback.amountCents, source: 'default-amount', defaultId: fallback.id } : null;
  }
  const points = parseDecimal(fallback.stopPoints);
  const quantity = parseDecimal(trade.quantity);
  if (!points || !quantity) return null;
  const cents = computePointsValueCents(points, quantity, pricingSymbol(trade));
  return cents > 0 ? { cents, source: 'default-stop', defaultId: fallback.id } : null;
}

/** R-multiple: net P&L over planned risk; null without a planned risk. +0 for -0, so a scratch reads 0R. */
export function computeRMultiple(netPnlCents: Cents, riskCents: Cents | null | undefined): number | null {
  if (!riskCents || riskCents <= 0) return null;
  return netPnlCents / riskCents + 0;
}

/**
 * The planned reward to the target in R (reward over risk to the stop), when the trade has an entry, a stop and a
 * target: a 2R target is twice as far from the entry as the stop.
 */
export function computeTargetR(trade: Pick<RiskTrade, 'entryPrice' | 'stopPrice' | 'targetPrice'>): number | null {
  const entry = parseDecimal(trade.entryPrice);
  const stop = parseDecimal(trade.stopPrice);
  const target = parseDecimal(trade.targetPrice ?? null);
  if (!entry || !stop || !target) return null;
  const risk = entry.minus(stop).abs();
  if (risk.isZero()) return null;
  return target.minus(entry).abs().dividedBy(risk).toNumber();
}

/** What is wrong with a stop or target for the trade's side and entry, or null: the field's 400 message. */
export function checkRiskPrices(
  trade: Pick<RiskTrade, 'side' | 'entryPrice' | 'quantity' | 'stopPrice' | 'targetPrice'>,
): { field: 'stop_price' | 'target_price'; message: string } | null {
  const entry = parseDecimal(trade.entryPrice);
  const stop = parseDecimal(trade.stopPrice);
  const target = parseDecimal(trade.targetPrice ?? null);
  if (stop) {
    if (!entry || !parseDecimal(trade.quantity)) return { field: 'stop_price', message: 'needs the entry price and the quantity to give a risk' };
    if (stop.eq(entry)) return { field: 'stop_price', message: 'must differ from the entry price' };
    if (trade.side === 'Long' && stop.gt(entry)) return { field: 'stop_price', message: "a long trade's stop must be below its entry price" };
    if (trade.side === 'Short' && stop.lt(entry)) return { field: 'stop_price', message: "a short trade's stop must be above its entry price" };
  }
  if (target && entry) {
    if (trade.side === 'Long' && target.lte(entry)) return { field: 'target_price', message: "a long trade's target must be above its entry price" };
    if (trade.side === 'Short' && target.gte(entry))
      return { field: 'target_price', message: "a short trade's target must be below its entry price" };
  }
  return null;
}
