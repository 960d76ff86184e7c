import { Decimal, decimalToCents, parseDecimal, sharedDecimal, type Cents } from '../money';
import type { TradeSide } from '../trades/side';
import { getFuturesRoot, isCryptoPair, marketKindOf, parseInstrument, spotCryptoOf, type Instrument, type MarketKind } from './symbols';
import { CRYPTO_COINS, INSTRUMENTS, MICRO_ROOTS, TICK_SIZES, type Exchange, type InstrumentSpec } from './table';

/** The readers of the instrument table: what a symbol's contract is worth, how it ticks, what it counts toward. */

/**
 * The record of the futures contract a symbol names, in any of the spellings getFuturesRoot reads (NQ, MNQZ5,
 * 'MNQ DEC25', CME_MINI:NQ1!); null for spot crypto (a bare BTC is the coin, BTCZ5 the CME future), stocks and roots
 * we do not know.
 */
export function instrumentOf(symbol: string): InstrumentSpec | null {
  if (spotCryptoOf(parseInstrument(symbol)) !== null) return null;
  return INSTRUMENTS[getFuturesRoot(symbol)] ?? null;
}

export interface PointValue {
  value: Decimal;
  /** True when the root is a futures contract we do not know: P&L was computed with 1 and must be checked. */
  unknownFutures: boolean;
}

/** Dollars per point for an instrument already read; spot crypto, stocks and unknown roots are 1. */
export function pointValueOf(instrument: Pick<Instrument, 'root' | 'isFuturesContract'>): PointValue {
  const root = instrument.root.toUpperCase();
  if (!instrument.isFuturesContract && (CRYPTO_COINS.has(root) || isCryptoPair(root))) {
    return { value: sharedDecimal('1'), unknownFutures: false };
  }
  // Every trade of a root shares its point value (a large import's memory).
  const known = INSTRUMENTS[root]?.pointValue;
  if (known != null) return { value: sharedDecimal(known), unknownFutures: false };
  return { value: sharedDecimal('1'), unknownFutures: instrument.isFuturesContract };
}

/**
 * Dollars per point of a symbol as a trader or broker writes it: 'NQ', 'NQZ5' and 'CME_MINI:NQ1!' are NQ futures; a
 * bare 'BTC' is spot crypto (1), 'BTCZ5' the CME Bitcoin future. getFuturesRoot reads the broker spellings
 * parseInstrument does not; parseInstrument says whether a month was named.
 */
export function getPointValue(symbol: string): Decimal {
  const { isFuturesContract } = parseInstrument(symbol);
  return pointValueOf({ root: getFuturesRoot(symbol), isFuturesContract }).value;
}

/** The point value as a number, for display: unknown symbols (crypto, stocks) use 1. */
export function getContractMultiplier(symbol: string): number {
  return getPointValue(symbol).toNumber();
}

/** Gross P&L of a round trip, exact: (exit - entry) x quantity x point value, negated for shorts, rounded to the cent. */
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

/** The tick of a futures symbol (NQ 0.25, ZN 1/64 as 0.015625); null for spot crypto, stocks and unknown roots. */
export function tickSizeOf(symbol: string): string | null {
  return instrumentOf(symbol)?.tick ?? null;
}

/** The full-size root a symbol's contract counts toward (MNQZ5 -> NQ, QM -> CL); a full-size or unknown root is itself. */
export function fullSizeRootOf(symbol: string): string {
  const root = getFuturesRoot(symbol);
  return INSTRUMENTS[root]?.fullSize ?? root;
}

/**
 * What one contract is of its full-size contract, by point value: MNQ 2 / NQ 20 = 0.1, SIL 0.2, MBT 0.02, QM 0.5; 1 for
 * a full-size contract; null when either point value is unknown.
 */
export function microRatioOf(symbol: string): Decimal | null {
  const spec = INSTRUMENTS[getFuturesRoot(symbol)];
  if (!spec?.pointValue) return null;
  if (spec.fullSize === null) return new Decimal(1);
  const full = INSTRUMENTS[spec.fullSize]?.pointValue;
  return full ? new Decimal(spec.pointValue).dividedBy(full) : null;
}

/** Whether a root is a CME Group micro (fee schedules charge micros their own rate). */
export const isMicroRoot = (root: string): boolean => MICRO_ROOTS.has(root);

/** The exchange that lists a symbol's futures contract (NQ CME, YM CBOT, CL NYMEX, GC COMEX); null when not one we know. */
export function exchangeOf(symbol: string): Exchange | null {
  return instrumentOf(symbol)?.exchange ?? null;
}

/** What the excursions need of a contract: dollars per point, its tick (when known) and whose hours it keeps. */
export function instrumentFigures(key: string): { pointValue: Decimal; tickSize: Decimal | null; market: MarketKind } {
  const instrument = parseInstrument(key);
  const market = marketKindOf(key);
  // Spot crypto has no exchange-wide tick (the table's BTC is CME's futures).
  const tick = market === 'crypto' ? undefined : TICK_SIZES[instrument.root];
  return { pointValue: pointValueOf(instrument).value, tickSize: tick === undefined ? null : new Decimal(tick), market };
}

/**
 * The market a traded symbol belongs to when micros count with their full-size contract: MNQ and MNQZ5 are NQ's, MES
 * ES's, MYM YM's, M2K RTY's (and any micro the table gives a full-size contract); a dated contract is its root's (NQZ5
 * is NQ). A stock, spot crypto or a symbol the table does not know is its own market, written as it was.
 */
export function marketOf(symbol: string): string {
  const root = getFuturesRoot(symbol);
  const spec = INSTRUMENTS[root];
  if (!spec) return symbol;
  return spec.micro && spec.fullSize ? spec.fullSize : root;
}

/** Every symbol among `known` that belongs to the same market as one of `chosen` (a filter of NQ takes MNQ too). */
export function symbolsOfMarkets(chosen: readonly string[], known: Iterable<string>): string[] {
  const markets = new Set(chosen.map(marketOf));
  const out = new Set(chosen);
  for (const symbol of known) if (markets.has(marketOf(symbol))) out.add(symbol);
  return [...out];
}
