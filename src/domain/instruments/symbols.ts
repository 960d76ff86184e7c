import { perpetualOf } from './perpetuals';
import { CRYPTO_COINS, POINT_VALUES } from './table';

/** How a traded symbol is written, read once: its contract, its root, and whether it is futures or spot crypto. */

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

/**
 * The product root of a futures symbol as brokers and charting sites write it: 'NQ', 'nqz5', 'MNQH26', 'ESM2026',
 * '/ES', 'NQ 03-26' (NinjaTrader), 'NQ1!' (TradingView continuous), 'CME_MINI:NQ1!'. A trailing month code plus year
 * digits is a contract month; 'MNQ' alone is not read as 'MN' + 'Q' because a contract month always carries a year.
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

/**
 * Whether a traded symbol is a futures contract (a dated contract, or a futures root we know such as NQ), as opposed
 * to a stock or spot crypto. Only futures follow the exchange's session day and hours (domain/market-time).
 */
export function isFuturesInstrument(text: string): boolean {
  const instrument = parseInstrument(text);
  if (instrument.isFuturesContract) return true;
  const root = instrument.root;
  return POINT_VALUES[root] !== undefined && !CRYPTO_COINS.has(root) && !isCryptoPair(root);
}

export function isCryptoPair(symbol: string): boolean {
  const base = symbol.replace(/[-/]?(USDT|USDC|USD|PERP)$/, '');
  return base !== symbol && CRYPTO_COINS.has(base.replace(/[-/]$/, ''));
}

/** The coin of a spot crypto symbol ('BTC', 'BTCUSDT', 'ETH-USD' -> 'ETH'), or null for anything else. */
export function spotCryptoOf(instrument: Pick<Instrument, 'root' | 'isFuturesContract'>): string | null {
  if (instrument.isFuturesContract) return null;
  const root = instrument.root.toUpperCase();
  if (CRYPTO_COINS.has(root)) return root;
  return isCryptoPair(root) ? root.replace(/[-/]?(USDT|USDC|USD|PERP)$/, '').replace(/[-/]$/, '') : null;
}

/**
 * Whose hours an instrument keeps: futures CME Globex's, spot crypto none (it never closes), and anything else is read
 * as a US stock (domain/market-time says when each is closed).
 */
export type MarketKind = 'futures' | 'crypto' | 'stock';

export function marketKindOf(contract: string): MarketKind {
  // A crypto exchange's perpetual trades around the clock, like the coin itself.
  if (perpetualOf(contract)) return 'crypto';
  if (isFuturesInstrument(contract)) return 'futures';
  return spotCryptoOf(parseInstrument(contract)) !== null ? 'crypto' : 'stock';
}
