import { parseInstrument, pointValueOf } from '../importers/instruments';
import { Decimal, decimalToCents, parseDecimal, type Cents } from '../money';
import type { TradeSide } from './side';

/**
 * Dollars per point come from one table, POINT_VALUES in src/domain/importers/instruments.ts (spec part 1 §9's MNQ 2,
 * NQ 20, MES 5, ES 50, YM 5, MYM 0.5, unknown 1, plus RTY 50, M2K 5 and the other CME contracts), so a manual trade and
 * an imported trade of the same contract can never be priced differently.
 */

const MONTH_CODES = 'FGHJKMNQUVXZ';

/**
 * The product root of a futures symbol as brokers write it: 'NQ', 'nqz5', 'MNQH26', 'ESM2026', '/ES', 'NQ 03-26'
 * (NinjaTrader), 'NQ1!' (TradingView continuous), 'CME_MINI:NQ1!'. A trailing month code plus year digits is a
 * contract month; 'MNQ' alone is not read as 'MN' + 'Q' because a contract month always carries a year.
 */
export function getFuturesRoot(symbol: string): string {
  let text = symbol.trim().toUpperCase();
  const colon = text.lastIndexOf(':');
  if (colon >= 0) text = text.slice(colon + 1);
  text = text.replace(/^[/@]/, '').split(/[\s.]/)[0] ?? '';
  text = text.replace(/\d!$/, '');
  const match = new RegExp(`^([A-Z0-9]+?)([${MONTH_CODES}]\\d{1,4})?$`).exec(text);
  return match?.[1] ?? text;
}

/** Spec part 1 §9: unknown symbols (crypto, stocks) use 1. */
export function getContractMultiplier(symbol: string): number {
  return getPointValue(symbol).toNumber();
}

/**
 * 'NQ', 'NQZ5' and 'CME_MINI:NQ1!' are NQ futures; a bare 'BTC' is spot crypto (1), 'BTCZ5' the CME Bitcoin future.
 * getFuturesRoot reads the broker spellings parseInstrument does not; parseInstrument says whether a month was named.
 */
export function getPointValue(symbol: string): Decimal {
  const { isFuturesContract } = parseInstrument(symbol);
  return pointValueOf({ root: getFuturesRoot(symbol), isFuturesContract }).value;
}

/** Gross pnl of a round trip, exact: (exit - entry) x quantity x multiplier, negated for shorts, rounded to the cent. */
export function computeRoundTripPnlCents(args: {
  side: TradeSide;
  entryPrice: string | number;
  exitPrice: string | number;
  quantity: string | number;
  symbol: string;
}): Cents {
  const entry = parseDecimal(args.entryPrice) ?? new Decimal(0);
  const exit = parseDecimal(args.exitPrice) ?? new Decimal(0);
  const quantity = (parseDecimal(args.quantity) ?? new Decimal(0)).abs();
  const points = args.side === 'Long' ? exit.minus(entry) : entry.minus(exit);
  return decimalToCents(points.times(quantity).times(getPointValue(args.symbol)));
}
