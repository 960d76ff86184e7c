import type { PositionSide } from '../../domain/connections/perpetual-trips';
import type { PerpetualVenue, SettlementCurrency } from '../../domain/instruments';
import type { BrokerAccount, BrokerBar, ConnectOptions } from './types';

/**
 * Crypto exchanges' perpetual futures, the second kind of connector beside the futures brokers' (types.ts): one module
 * per exchange (binance.ts, bybit.ts, hyperliquid.ts) behind this interface. A trader connects with a read-only API key
 * and its secret, or (Hyperliquid, whose history is public) a wallet address. Decimals travel as strings, times as
 * ISO-8601 instants; money is in the asset the exchange names.
 */

/** How a trader connects to a provider: a user name and API key (ProjectX), a key and secret, or a wallet address. */
export type CredentialKind = 'user-key' | 'key-secret' | 'wallet';

export type ExchangeCredentials = { kind: 'key-secret'; apiKey: string; apiSecret: string } | { kind: 'wallet'; address: string };

/** The exchange's futures account, one per settlement currency (its external id): what a trading account receives. */
export interface ExchangeAccount extends BrokerAccount {
  currency: SettlementCurrency;
}

/** One execution, with what the exchange says of the position it belongs to. */
export interface ExchangeFill {
  id: string;
  /** The exchange's symbol: BTCUSDT (Binance, Bybit), BTC (Hyperliquid). */
  symbol: string;
  /** ISO-8601 instant. */
  time: string;
  /** The exchange's order of fills within a millisecond (its numeric trade id or sequence), as digits. */
  order: string;
  side: 'Buy' | 'Sell';
  quantity: string;
  price: string;
  /** The fee paid (negative: a rebate), in `feeAsset`. */
  fee: string;
  feeAsset: string;
  positionSide: PositionSide;
  /** The exchange says the fill reduced a position (true), opened one (false), or does not say (null). */
  closing: boolean | null;
  /** Realized P&L the exchange reports on the fill, in the settlement currency; null when it reports none. */
  realizedPnl: string | null;
  orderId: string | null;
}

/** A funding payment: positive received, negative paid. */
export interface ExchangeFunding {
  id: string;
  symbol: string;
  time: string;
  amount: string;
  asset: string;
  /** The position it was paid on, when the exchange says. */
  positionSide: 'LONG' | 'SHORT' | null;
}

/** A contract as the exchange describes it. */
export interface ExchangeInstrument {
  symbol: string;
  base: string;
  /** What it settles in; null for a coin-margined (inverse) contract or a settlement Edgebook does not count in. */
  settle: SettlementCurrency | null;
  kind: 'perpetual' | 'dated' | 'inverse';
  /** Decimals of its quantities (the asset's step). */
  quantityDecimals: number | null;
}

export interface ExchangeReadProgress {
  /** Called after each request for fills or funding: requests done and, as far as known, in all. */
  onRequest?: (done: number, total: number) => Promise<void> | void;
}

export interface ExchangeFills {
  fills: ExchangeFill[];
  /** Things the trader should know about what was read (a history the exchange no longer keeps). */
  notes: string[];
}

export interface ExchangeSession {
  /** What the exchange said of the key's permissions, when the trader should hear it (it can trade); else null. */
  keyWarning: string | null;
  listAccounts(): Promise<ExchangeAccount[]>;
  /** The exchange's linear contracts by symbol (read once per session). */
  instruments(): Promise<ReadonlyMap<string, ExchangeInstrument>>;
  /**
   * Fills of the account settling in `currency` in [from, to]. `knownSymbols` are symbols the account traded before
   * (an exchange that reads fills per symbol reads these as well as those it finds).
   */
  fetchFills(
    currency: SettlementCurrency,
    range: { from: Date; to: Date },
    knownSymbols: readonly string[],
    progress?: ExchangeReadProgress,
  ): Promise<ExchangeFills>;
  fetchFunding(currency: SettlementCurrency, range: { from: Date; to: Date }, progress?: ExchangeReadProgress): Promise<ExchangeFunding[]>;
  /** One-minute bars of a symbol in [from, to] from the exchange's public klines, oldest first. */
  fetchBars(symbol: string, range: { from: Date; to: Date }): Promise<BrokerBar[]>;
}

export interface ExchangeConnector {
  id: 'binance' | 'bybit' | 'hyperliquid';
  label: string;
  venue: PerpetualVenue;
  credential: Exclude<CredentialKind, 'user-key'>;
  /**
   * Where the bars it fetches (its public klines) are kept: the exchange and its API's host ('binance:fapi.binance.com').
   * Market data of that exchange, the same for every trader connected to it, and never mixed with another's prices.
   */
  barSource: string;
  /** How far back the exchange's API keeps a trader's fills, in days (Binance 6 months, Bybit 2 years). */
  historyDays: number;
  /**
   * Opens a session and checks the credentials (and a key's permissions: one that may withdraw is refused); throws
   * ConnectorError in the trader's words when that fails.
   */
  connect(credentials: ExchangeCredentials, options?: ConnectOptions): Promise<ExchangeSession>;
}
