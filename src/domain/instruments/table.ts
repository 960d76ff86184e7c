/**
 * The one table of the contracts we know, one record per root. Every figure that depends on the instrument (P&L,
 * risk in dollars, price decimals, position limits in full-size contracts, fee classes) reads it here, so a manual
 * trade, an imported trade, a report and a prop rule can never price the same contract differently.
 *
 * Point values are dollars per one point of price per contract. The spec names MNQ 2, NQ 20, MES 5, ES 50, YM 5,
 * MYM 0.5 and "unknown 1"; RTY 50 and M2K 5 were added with the importers. The rest are the CME Group, CBOT, NYMEX and
 * COMEX contract specifications of contracts prop-firm traders use (the TopstepX export in our fixtures has MGC and
 * MBT, whose P&L column confirms MGC 10 and MBT 0.1). A wrong or missing value here is the most common cause of wrong
 * imported P&L, so an unknown futures root is imported with 1 and a warning rather than guessed.
 *
 * Ticks are the minimum price fluctuation from the same specifications: prices are shown with the tick's decimals (an
 * average of fills once read '25235.78571429'). Treasury ticks are fractions of a point (ZB 1/32, ZN 1/64, ZF 1/128,
 * ZT 1/256) written as decimals.
 */

/** The CME Group exchange that lists the contract. */
export type Exchange = 'CME' | 'CBOT' | 'NYMEX' | 'COMEX';

export interface InstrumentSpec {
  root: string;
  /** Dollars per point, as a decimal string; null for a contract we know by name only (not priced here). */
  pointValue: string | null;
  /** Minimum price fluctuation, as a decimal string; null when not known. */
  tick: string | null;
  exchange: Exchange;
  /**
   * The full-size contract this smaller one counts toward in a position limit (MNQ -> NQ, QM -> CL), null for a
   * full-size contract. Ten MNQ are one NQ because MNQ's point value is a tenth of NQ's: the ratio follows from the
   * point values, never from a second number.
   */
  fullSize: string | null;
  /** A CME Group micro contract: fee schedules charge micros one rate and E-minis and standard contracts another. */
  micro: boolean;
}

type Row = [root: string, pointValue: string | null, tick: string | null, exchange: Exchange, fullSize?: string | null, micro?: 'micro'];

const ROWS: readonly Row[] = [
  // Equity index
  ['NQ', '20', '0.25', 'CME'],
  ['MNQ', '2', '0.25', 'CME', 'NQ', 'micro'],
  ['ES', '50', '0.25', 'CME'],
  ['MES', '5', '0.25', 'CME', 'ES', 'micro'],
  ['YM', '5', '1', 'CBOT'],
  ['MYM', '0.5', '1', 'CBOT', 'YM', 'micro'],
  ['RTY', '50', '0.1', 'CME'],
  ['M2K', '5', '0.1', 'CME', 'RTY', 'micro'],
  ['EMD', '100', '0.1', 'CME'],
  ['NKD', '5', '5', 'CME'],
  // Metals
  ['GC', '100', '0.1', 'COMEX'],
  ['MGC', '10', '0.1', 'COMEX', 'GC', 'micro'],
  ['SI', '5000', '0.005', 'COMEX'],
  ['SIL', '1000', '0.005', 'COMEX', 'SI', 'micro'],
  ['HG', '25000', '0.0005', 'COMEX'],
  ['MHG', '2500', '0.0005', 'COMEX', 'HG', 'micro'],
  ['PL', '50', '0.1', 'NYMEX'],
  ['PA', '100', '0.5', 'NYMEX'],
  // Energy: MCL is 100 barrels against CL's 1,000; QM (E-mini crude, 500 barrels) and QG (E-mini natural gas) are
  // smaller contracts but not micros.
  ['CL', '1000', '0.01', 'NYMEX'],
  ['MCL', '100', '0.01', 'NYMEX', 'CL', 'micro'],
  ['QM', '500', '0.025', 'NYMEX', 'CL'],
  ['NG', '10000', '0.001', 'NYMEX'],
  ['QG', '2500', '0.005', 'NYMEX', 'NG'],
  ['MNG', null, null, 'NYMEX', null, 'micro'],
  ['RB', '42000', '0.0001', 'NYMEX'],
  ['HO', '42000', '0.0001', 'NYMEX'],
  // Interest rates; the micro yield contracts are known by name only (for fee schedules).
  ['ZB', '1000', '0.03125', 'CBOT'],
  ['UB', '1000', '0.03125', 'CBOT'],
  ['ZN', '1000', '0.015625', 'CBOT'],
  ['TN', '1000', '0.015625', 'CBOT'],
  ['ZF', '1000', '0.0078125', 'CBOT'],
  ['ZT', '2000', '0.00390625', 'CBOT'],
  ['10Y', null, null, 'CBOT', null, 'micro'],
  ['2YY', null, null, 'CBOT', null, 'micro'],
  ['5YY', null, null, 'CBOT', null, 'micro'],
  ['30Y', null, null, 'CBOT', null, 'micro'],
  // Agriculture and livestock
  ['ZC', '50', '0.25', 'CBOT'],
  ['ZS', '50', '0.25', 'CBOT'],
  ['ZW', '50', '0.25', 'CBOT'],
  ['ZL', '600', '0.01', 'CBOT'],
  ['ZM', '100', '0.1', 'CBOT'],
  ['HE', '400', '0.025', 'CME'],
  ['LE', '400', '0.025', 'CME'],
  ['GF', '500', '0.025', 'CME'],
  // Currencies
  ['6E', '125000', '0.00005', 'CME'],
  ['M6E', '12500', '0.0001', 'CME', '6E', 'micro'],
  ['6B', '62500', '0.0001', 'CME'],
  ['M6B', '6250', '0.0001', 'CME', '6B', 'micro'],
  ['6J', '12500000', '0.0000005', 'CME'],
  ['6A', '100000', '0.00005', 'CME'],
  ['M6A', '10000', '0.0001', 'CME', '6A', 'micro'],
  ['6C', '100000', '0.00005', 'CME'],
  ['6S', '125000', '0.00005', 'CME'],
  ['6M', '500000', '0.00001', 'CME'],
  ['6N', '100000', '0.00005', 'CME'],
  // Crypto futures (a bare BTC or ETH is spot crypto, priced at 1: see pointValueOf)
  ['BTC', '5', '5', 'CME'],
  ['MBT', '0.1', '5', 'CME', 'BTC', 'micro'],
  ['ETH', '50', '0.5', 'CME'],
  ['MET', '0.1', '0.5', 'CME', 'ETH', 'micro'],
];

/** Root -> its record. */
export const INSTRUMENTS: Readonly<Record<string, InstrumentSpec>> = Object.fromEntries(
  ROWS.map(([root, pointValue, tick, exchange, fullSize = null, micro]) => [
    root,
    Object.freeze({ root, pointValue, tick, exchange, fullSize, micro: micro === 'micro' }),
  ]),
);

const column = (pick: (spec: InstrumentSpec) => string | null): Readonly<Record<string, string>> =>
  Object.fromEntries(
    Object.values(INSTRUMENTS).flatMap((spec) => {
      const value = pick(spec);
      return value === null ? [] : [[spec.root, value]];
    }),
  );

/** Root -> dollars per point, for the roots we price. */
export const POINT_VALUES: Readonly<Record<string, string>> = column((spec) => spec.pointValue);

/** Root -> tick, for the roots whose tick we know. */
export const TICK_SIZES: Readonly<Record<string, string>> = column((spec) => spec.tick);

/** Micro contracts of CME Group: equity index, metals, energy, currencies, crypto and the micro yields. */
export const MICRO_ROOTS: ReadonlySet<string> = new Set(
  Object.values(INSTRUMENTS)
    .filter((spec) => spec.micro)
    .map((spec) => spec.root),
);

/** Spot crypto coins: one unit, P&L = price difference x quantity (a crypto trade's multiplier is 1). */
export const CRYPTO_COINS: ReadonlySet<string> = new Set(['BTC', 'ETH', 'SOL', 'XRP', 'ADA', 'DOGE', 'LTC', 'BNB', 'AVAX', 'DOT', 'LINK', 'MATIC']);

/**
 * Decimals of spot crypto prices as the large exchanges quote them against USD (BTC 60123.45, XRP 0.5123,
 * DOGE 0.12345): a crypto pair has no exchange-wide tick.
 */
export const CRYPTO_PRICE_DECIMALS: Readonly<Record<string, number>> = {
  BTC: 2,
  ETH: 2,
  SOL: 2,
  BNB: 2,
  LTC: 2,
  AVAX: 2,
  LINK: 3,
  DOT: 3,
  XRP: 4,
  ADA: 4,
  MATIC: 4,
  DOGE: 5,
};
