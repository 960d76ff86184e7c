import { CRYPTO_PRICE_DECIMALS, parseInstrument, spotCryptoOf, tickSizeOf } from '../instruments';
import { Decimal, parseDecimal } from '../money';

/** Decimals of a tick written as a decimal string: '0.25' -> 2, '1' -> 0, '0.03125' -> 5. */
function decimalsOf(tick: string): number {
  const dot = tick.indexOf('.');
  return dot < 0 ? 0 : tick.length - dot - 1;
}

/**
 * How many decimals a price of this instrument is shown with: the contract's tick (NQ, ES, MNQ, MES 0.25 -> 2,
 * YM 1 -> 0, RTY 0.1 -> 1), a spot coin's usual quote (BTC 2, XRP 4, DOGE 5), and for anything else (stocks) the
 * US equity tick: a cent at $1 and above, 0.0001 below (SEC Rule 612).
 */
export function priceDecimalsOf(symbol: string, price: string | number): number {
  const instrument = parseInstrument(symbol);
  const coin = spotCryptoOf(instrument);
  if (coin !== null) return CRYPTO_PRICE_DECIMALS[coin] ?? 2;
  const tick = tickSizeOf(symbol);
  if (tick !== null) return decimalsOf(tick);
  const value = parseDecimal(price);
  return value !== null && value.abs().lessThan(1) ? 4 : 2;
}

export interface ShownPrice {
  /** At the instrument's precision: '25235.79'. */
  text: string;
  /** The stored value without trailing zeros: '25235.78571429', for a tooltip. */
  exact: string;
}

/**
 * A price as a trader reads it: an average of fills such as 25235.78571429 shows as 25235.79 for NQ, with
 * the exact value kept for hovering. Rounded half away from zero; a price that is not a number is shown as given.
 */
export function formatPrice(price: string | number, symbol: string): ShownPrice {
  // A scrolled list shows the same prices again and again; Decimal arithmetic each time cost a row its frame.
  const key = `${symbol}\u0000${price}`;
  const known = shownPrices.get(key);
  if (known) return known;
  if (shownPrices.size > 20_000) shownPrices.clear();
  const shown = computePrice(price, symbol);
  shownPrices.set(key, shown);
  return shown;
}

const shownPrices = new Map<string, ShownPrice>();

function computePrice(price: string | number, symbol: string): ShownPrice {
  const value = parseDecimal(price);
  if (value === null) return { text: String(price), exact: String(price) };
  const exact = value.toFixed();
  return { text: value.toFixed(priceDecimalsOf(symbol, price), Decimal.ROUND_HALF_UP), exact };
}
