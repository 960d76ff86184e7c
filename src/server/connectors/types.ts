/**
 * Broker connectors: one module per provider behind this interface, like the importers (one parser per
 * file format behind `Importer`). A connector speaks to the provider's public API and answers in these plain shapes;
 * everything after that (round trips, duplicates, storage) is the connections feature's and the domain's, the same
 * for every provider. Decimals travel as strings, times as ISO-8601 instants, ids as strings.
 */

export interface ConnectorCredentials {
  userName: string;
  apiKey: string;
}

/** An account at the provider (a TopstepX evaluation, funded or practice account). */
export interface BrokerAccount {
  externalId: string;
  name: string;
  /** The provider's balance, a decimal string, when it says one. */
  balance: string | null;
  canTrade: boolean;
  /** Listed among the active accounts: an inactive one (a failed or finished combine) still has its history. */
  active: boolean;
  /** A practice or evaluation account on simulated money, when the provider says. */
  simulated: boolean | null;
}

/** One execution ("half-turn"): the provider's fill, with its own fees and, on a closing fill, its P&L. */
export interface BrokerFill {
  externalId: string;
  contractId: string;
  /** ISO-8601 instant. */
  time: string;
  side: 'Buy' | 'Sell';
  quantity: string;
  price: string;
  /** Fees charged on this fill, dollars (decimal string, >= 0). */
  fees: string;
  /** Realised P&L the provider reports on a closing fill, dollars; null on an opening one. */
  pnl: string | null;
  orderId: string | null;
  /** Cancelled by the provider after the fact: kept, never traded. */
  voided: boolean;
}

export interface BrokerContract {
  id: string;
  /** The provider's name of the contract (MNQM5), which its CSV exports print too. */
  name: string;
  description: string;
  /** Decimal strings. */
  tickSize: string;
  tickValue: string;
}

/** A one-minute bar (or of the resolution asked for), ISO start time, decimal strings. */
export interface BrokerBar {
  start: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string | null;
}

/** An order the provider kept for an account (working, filled or cancelled): a bracket's stop gives a trade its plan. */
export interface BrokerOrder {
  externalId: string;
  contractId: string;
  /** ISO-8601 instant the order was placed. */
  createdAt: string;
  type: 'limit' | 'market' | 'stop-limit' | 'stop' | 'trailing-stop' | 'other';
  side: 'Buy' | 'Sell';
  size: string;
  stopPrice: string | null;
  limitPrice: string | null;
  status: 'open' | 'filled' | 'cancelled' | 'expired' | 'rejected' | 'pending' | 'other';
}

/** A position the provider says is open now. */
export interface BrokerPosition {
  contractId: string;
  side: 'Long' | 'Short';
  size: string;
  averagePrice: string;
  /** ISO-8601 instant it was opened. */
  since: string;
}

/** What one signed-in provider session can do; it renews its own session token as the provider documents. */
export interface ConnectorSession {
  listAccounts(): Promise<BrokerAccount[]>;
  /** Fills of one account in [from, to]. */
  fetchFills(accountExternalId: string, range: { from: Date; to: Date }): Promise<BrokerFill[]>;
  /** A contract by the provider's id, or null when the provider does not know it. */
  contract(contractId: string): Promise<BrokerContract | null>;
  /** A contract by its printed name (MNQM5), or null. */
  findContract(name: string): Promise<BrokerContract | null>;
  /** One-minute bars of a contract (by the provider's id) in [from, to], oldest first. */
  fetchBars(contractId: string, range: { from: Date; to: Date }): Promise<BrokerBar[]>;
  /** Orders of one account placed in [from, to]. */
  fetchOrders(accountExternalId: string, range: { from: Date; to: Date }): Promise<BrokerOrder[]>;
  /** The account's open positions now. */
  openPositions(accountExternalId: string): Promise<BrokerPosition[]>;
}

export interface ConnectOptions {
  /** Aborts every request under way (the server shutting down). */
  signal?: AbortSignal;
  /** Attempts per request when the provider is busy, failing or slow (1: no retry). */
  attempts?: number;
}

export interface Connector {
  id: string;
  /** The firm whose gateway it speaks to ('topstepx', or 'configured' for PROJECTX_API_URL). */
  firm: string;
  /** Where the bars it fetches are kept ('projectx:<gateway host>'). */
  barSource: string;
  /** The provider's name as the trader knows it. */
  label: string;
  /** Signs in with the trader's credentials; throws ConnectorError (in the trader's words) when that fails. */
  connect(credentials: ConnectorCredentials, options?: ConnectOptions): Promise<ConnectorSession>;
}

/**
 * Why a provider call failed, for the trader: `credentials` (wrong or revoked key: the connection needs the trader),
 * `rate-limited`, `unavailable` (5xx, unreachable), `timeout`, `not-found` (an account the provider no longer lists),
 * `unexpected` (an answer we cannot read). The message is meant to be shown as it is.
 */
export type ConnectorErrorKind = 'credentials' | 'rate-limited' | 'unavailable' | 'timeout' | 'not-found' | 'unexpected' | 'aborted';

export class ConnectorError extends Error {
  constructor(
    readonly kind: ConnectorErrorKind,
    message: string,
    /** What the log may say about it: the endpoint and the provider's status or code, never a key or a token. */
    readonly detail: { endpoint?: string; status?: number; code?: number } = {},
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}
