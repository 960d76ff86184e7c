/**
 * The providers Edgebook connects to, and how a trader connects each: TopstepX (the ProjectX Gateway) by user name and
 * API key; Binance USD-M and Bybit by a read-only API key and its secret; Hyperliquid by a wallet address, as its
 * history is public.
 */
export const PROVIDERS = ['topstepx', 'binance', 'bybit', 'hyperliquid'] as const;
export type ProviderId = (typeof PROVIDERS)[number];

/** The crypto exchanges among them (perpetual futures). */
export const EXCHANGE_PROVIDERS = ['binance', 'bybit', 'hyperliquid'] as const satisfies readonly ProviderId[];
export type ExchangeProviderId = (typeof EXCHANGE_PROVIDERS)[number];
export const isExchangeProvider = (provider: string): provider is ExchangeProviderId => (EXCHANGE_PROVIDERS as readonly string[]).includes(provider);

/** A user name and API key, an API key and its secret, or a wallet address. */
export const CREDENTIAL_KINDS = ['user-key', 'key-secret', 'wallet'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
export const CREDENTIAL_OF: Readonly<Record<ProviderId, CredentialKind>> = {
  topstepx: 'user-key',
  binance: 'key-secret',
  bybit: 'key-secret',
  hyperliquid: 'wallet',
};
