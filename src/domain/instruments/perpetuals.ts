/**
 * Perpetual futures of the crypto exchanges Edgebook connects to, as the journal names them: the exchange, the coin and
 * the currency the contract settles in, `BINANCE:BTCUSDT.P` (the way charting sites write a perpetual). The exchange is
 * part of the name because the same coin trades at slightly different prices on each one: bars, MAE and MFE of a
 * Binance trade come from Binance's prices, never from another exchange's.
 *
 * A linear perpetual's P&L is quantity x price change in its settlement currency: one point is worth one unit (USDT or
 * USDC), whatever the coin.
 */

export const PERPETUAL_VENUES = ['BINANCE', 'BYBIT', 'HYPERLIQUID'] as const;
export type PerpetualVenue = (typeof PERPETUAL_VENUES)[number];

/** What a linear perpetual settles in, and so the currency of an account that trades it. */
export const SETTLEMENT_CURRENCIES = ['USDT', 'USDC'] as const;
export type SettlementCurrency = (typeof SETTLEMENT_CURRENCIES)[number];

export interface Perpetual {
  venue: PerpetualVenue;
  /** The coin, as the exchange names it (BTC, 1000PEPE, KPEPE). */
  base: string;
  quote: SettlementCurrency;
  /** The journal's contract: BINANCE:BTCUSDT.P. */
  contract: string;
}

const PATTERN = /^(BINANCE|BYBIT|HYPERLIQUID):([A-Z0-9]+?)(USDT|USDC)\.P$/;

/** The journal's name of a perpetual: upper case, so it is one market key however it was written. */
export function perpetualContract(venue: PerpetualVenue, base: string, quote: SettlementCurrency): string {
  return `${venue}:${base.trim().toUpperCase()}${quote}.P`;
}

/** The perpetual a journal contract names, or null when it names none. */
export function perpetualOf(text: string | null | undefined): Perpetual | null {
  if (!text) return null;
  const contract = text.trim().toUpperCase();
  const match = PATTERN.exec(contract);
  if (!match) return null;
  return { venue: match[1] as PerpetualVenue, base: match[2]!, quote: match[3] as SettlementCurrency, contract };
}

/** The currency a trade's money is in: its perpetual's settlement currency (USDT, USDC), else USD. */
export function currencyOfContract(contract: string | null | undefined): 'USD' | SettlementCurrency {
  return perpetualOf(contract)?.quote ?? 'USD';
}
