import { Decimal } from '../money';

/**
 * Dollars per one point of price, per contract. Spec part 1 §9 names MNQ 2, NQ 20, MES 5, ES 50, YM 5, MYM 0.5 and
 * "unknown 1"; issue 4 adds RTY 50 and M2K 5. The rest are the CME Group / COMEX / NYMEX / CBOT contract specifications
 * of contracts that prop-firm traders use (the TopstepX export in our fixtures has MGC and MBT, whose P&L column
 * confirms MGC 10 and MBT 0.1). A wrong or missing value here is the most common cause of wrong imported P&L, so an
 * unknown futures root is imported with 1 and a warning rather than guessed.
 */
export const POINT_VALUES: Readonly<Record<string, string>> = {
  NQ: '20', MNQ: '2', ES: '50', MES: '5', YM: '5', MYM: '0.5', RTY: '50', M2K: '5',
  EMD: '100', NKD: '5',
  GC: '100', MGC: '10', SI: '5000', SIL: '1000', HG: '25000', MHG: '2500', PL: '50', PA: '100',
  CL: '1000', MCL: '100', QM: '500', NG: '10000', QG: '2500', RB: '42000', HO: '42000',
  ZB: '1000', UB: '1000', ZN: '1000', TN: '1000', ZF: '1000', ZT: '2000',
  ZC: '50', ZS: '50', ZW: '50', ZL: '600', ZM: '100', HE: '400', LE: '400', GF: '500',
  '6E': '125000', M6E: '12500', '6B': '62500', M6B: '6250', '6J': '12500000', '6A': '100000', M6A: '10000',
  '6C': '100000', '6S': '125000', '6M': '500000', '6N': '100000',
  BTC: '5', MBT: '0.1', ETH: '50', MET: '0.1',
};

/**
 * Minimum price fluctuation (tick) per contract, from the same CME Group / COMEX / NYMEX / CBOT specifications as
 * POINT_VALUES: prices are shown with the tick's decimals (issue 14: an average of fills read '25235.78571429').
 * Treasury ticks are fractions of a point (ZB 1/32, ZN 1/64, ZF 1/128, ZT 1/256) written as decimals.
 */
export const TICK_SIZES: Readonly<Record<string, string>> = {
  NQ: '0.25', MNQ: '0.25', ES: '0.25', MES: '0.25', YM: '1', MYM: '1', RTY: '0.1', M2K: '0.1',
  EMD: '0.1', NKD: '5',
  GC: '0.1', MGC: '0.1', SI: '0.005', SIL: '0.005', HG: '0.0005', MHG: '0.0005', PL: '0.1', PA: '0.5',
  CL: '0.01', MCL: '0.01', QM: '0.025', NG: '0.001', QG: '0.005', RB: '0.0001', HO: '0.0001',
  ZB: '0.03125', UB: '0.03125', ZN: '0.015625', TN: '0.015625', ZF: '0.0078125', ZT: '0.00390625',
  ZC: '0.25', ZS: '0.25', ZW: '0.25', ZL: '0.01', ZM: '0.1', HE: '0.025', LE: '0.025', GF: '0.025',
  '6E': '0.00005', M6E: '0.0001', '6B': '0.0001', M6B: '0.0001', '6J': '0.0000005', '6A': '0.00005', M6A: '0.0001',
  '6C': '0.00005', '6S': '0.00005', '6M': '0.00001', '6N': '0.00005',
  BTC: '5', MBT: '5', ETH: '0.5', MET: '0.5',
};

/**
 * Decimals of spot crypto prices as the large exchanges quote them against USD (BTC 60123.45, XRP 0.5123,
 * DOGE 0.12345): a crypto pair has no exchange-wide tick.
 */
export const CRYPTO_PRICE_DECIMALS: Readonly<Record<string, number>> = {
  BTC: 2, ETH: 2, SOL: 2, BNB: 2, LTC: 2, AVAX: 2, LINK: 3, DOT: 3, XRP: 4, ADA: 4, MATIC: 4, DOGE: 5,
};

/** Spot crypto symbols: one unit, P&L = price difference x quantity (spec: crypto 1). */
const CRYPTO = new Set(['BTC', 'ETH', 'SOL', 'XRP', 'ADA', 'DOGE', 'LTC', 'BNB', 'AVAX', 'DOT', 'LINK', 'MATIC']);

const MONTH_CODES = 'FGHJKMNQUVXZ';
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

export interface Instrument {
  /** Normalised contract code (MNQZ5), or the symbol itself when it is not a dated futures contract. */
  contract: string;
  /** Root (MNQ), or the symbol. */
  root: string;
  /** True when the text named a dated futures contract (month and year). */
  isFuturesContract: boolean;
}

/**
 * Normalises the contract names of the platforms to one code, root + month letter + last digit of the year, which is
 * how Tradovate and TopstepX print them: 'MNQZ5', 'MNQZ25', 'MNQ DEC25' (NinjaTrader 8), 'MNQ 12-25' (NinjaTrader 7 and
 * older NT8), '/MNQZ25' (thinkorswim), 'CON.F.US.MNQ.Z25' (ProjectX contract id) all become MNQZ5. So the same contract
 * imported from two platforms is one contract.
 */
export function parseInstrument(raw: string): Instrument {
  // A file names a handful of contracts on 100,000 rows: remember the answers (bounded, so no text grows it forever).
  const known = instrumentCache.get(raw);
  if (known !== undefined) return known;
  const instrument = readInstrument(raw);
  if (instrumentCache.size >= CACHE_LIMIT) instrumentCache.clear();
  instrumentCache.set(raw, instrument);
  return instrument;
}

const CACHE_LIMIT = 10_000;
const instrumentCache = new Map<string, Instrument>();

function readInstrument(raw: string): Instrument {
  const text = raw.trim().toUpperCase().replace(/^\//, '');
  let match = /^CON\.F\.[A-Z]+\.([A-Z0-9]{1,4})\.([FGHJKMNQUVXZ])(\d{1,2})$/.exec(text);
  if (match) return futures(match[1]!, match[2]!, match[3]!);
  match = /^([A-Z0-9]{1,4}) (JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2})$/.exec(text);
  if (match) return futures(match[1]!, MONTH_CODES[MONTH_NAMES.indexOf(match[2]!)]!, match[3]!);
  match = /^([A-Z0-9]{1,4}) (\d{2})-(\d{2})$/.exec(text);
  if (match) {
    const month = Number(match[2]);
    if (month >= 1 && month <= 12) return futures(match[1]!, MONTH_CODES[month - 1]!, match[3]!);
  }
  match = /^([A-Z0-9]{1,4}?)([FGHJKMNQUVXZ])(\d{1,2})$/.exec(text);
  // A root must start with a letter or be one of the currency roots (6E): '2025' is not a contract.
  if (match && /^(?:[A-Z]|6[A-Z])/.test(match[1]!) && !/^\d+$/.test(match[1]!)) return futures(match[1]!, match[2]!, match[3]!);
  return { contract: text, root: text, isFuturesContract: false };
}

function futures(root: string, monthCode: string, year: string): Instrument {
  return { contract: `${root}${monthCode}${year.slice(-1)}`, root, isFuturesContract: true };
}

export interface PointValue {
  value: Decimal;
  /** True when the root is a futures contract we do not know: P&L was computed with 1 and must be checked. */
  unknownFutures: boolean;
}

/** Dollars per point for an instrument (see POINT_VALUES). */
export function pointValueOf(instrument: Pick<Instrument, 'root' | 'isFuturesContract'>): PointValue {
  const root = instrument.root.toUpperCase();
  if (!instrument.isFuturesContract && (CRYPTO.has(root) || isCryptoPair(root))) {
    return { value: new Decimal(1), unknownFutures: false };
  }
  const known = POINT_VALUES[root];
  if (known !== undefined) return { value: new Decimal(known), unknownFutures: false };
  return { value: new Decimal(1), unknownFutures: instrument.isFuturesContract };
}

/**
 * Whether a traded symbol is a futures contract (a dated contract, or a futures root we know such as NQ), as opposed
 * to a stock or spot crypto. Only futures follow the exchange's session day (market-time.ts).
 */
export function isFuturesInstrument(text: string): boolean {
  const instrument = parseInstrument(text);
  if (instrument.isFuturesContract) return true;
  const root = instrument.root;
  return POINT_VALUES[root] !== undefined && !CRYPTO.has(root) && !isCryptoPair(root);
}

function isCryptoPair(symbol: string): boolean {
  const base = symbol.replace(/[-/]?(USDT|USDC|USD|PERP)$/, '');
  return base !== symbol && CRYPTO.has(base.replace(/[-/]$/, ''));
}

/** The coin of a spot crypto symbol ('BTC', 'BTCUSDT', 'ETH-USD' -> 'ETH'), or null for anything else. */
export function spotCryptoOf(instrument: Pick<Instrument, 'root' | 'isFuturesContract'>): string | null {
  if (instrument.isFuturesContract) return null;
  const root = instrument.root.toUpperCase();
  if (CRYPTO.has(root)) return root;
  return isCryptoPair(root) ? root.replace(/[-/]?(USDT|USDC|USD|PERP)$/, '').replace(/[-/]$/, '') : null;
}
