import type { Config } from '../../config';
import { createBinanceConnector } from '../../connectors/binance';
import { createBybitConnector } from '../../connectors/bybit';
import { createHyperliquidConnector } from '../../connectors/hyperliquid';
import type { ExchangeConnector } from '../../connectors/exchanges';
import { createProjectXConnector } from '../../connectors/projectx';
import type { Connector } from '../../connectors/types';
import { CREDENTIAL_OF, type CredentialKind, type ExchangeProviderId, type ProviderId } from '../../../contract/connections';

/**
 * The connectors Edgebook has, one per provider (like the importers' registry): TopstepX through the ProjectX Gateway
 * API, at PROJECTX_API_URL under PROJECTX_NAME, so another ProjectX firm is a setting, not new code; and the crypto
 * exchanges, each at its API's address (tests point them at stand-ins).
 */
export interface ConnectorRegistry {
  get(id: ProviderId): Connector;
  /** A crypto exchange's connector. */
  exchange(id: ExchangeProviderId): ExchangeConnector;
  /** The provider's name as the trader knows it. */
  labelOf(id: ProviderId): string;
  providers(): Array<{ id: ProviderId; label: string; host: string; credential: CredentialKind }>;
}

export function createConnectorRegistry(config: Config): ConnectorRegistry {
  const topstepx = createProjectXConnector({
    baseUrl: config.PROJECTX_API_URL,
    label: config.PROJECTX_NAME,
    timeoutMs: config.PROJECTX_TIMEOUT * 1000,
  });
  const timeoutMs = config.EXCHANGE_TIMEOUT * 1000;
  const exchanges: Partial<Record<ExchangeProviderId, { connector: ExchangeConnector; url: string }>> = {
    binance: { connector: createBinanceConnector({ futuresUrl: config.BINANCE_FUTURES_API_URL, spotUrl: config.BINANCE_API_URL, timeoutMs }), url: config.BINANCE_FUTURES_API_URL },
    bybit: { connector: createBybitConnector({ baseUrl: config.BYBIT_API_URL, timeoutMs }), url: config.BYBIT_API_URL },
    hyperliquid: { connector: createHyperliquidConnector({ baseUrl: config.HYPERLIQUID_API_URL, timeoutMs }), url: config.HYPERLIQUID_API_URL },
  };
  const exchange = (id: ExchangeProviderId): ExchangeConnector => {
    const found = exchanges[id];
    if (!found) throw new Error(`no connector for ${id}`);
    return found.connector;
  };
  return {
    get: () => topstepx,
    exchange,
    labelOf: (id) => (id === 'topstepx' ? topstepx.label : exchange(id).label),
    providers: () => [
      { id: 'topstepx', label: topstepx.label, host: new URL(config.PROJECTX_API_URL).host, credential: CREDENTIAL_OF.topstepx },
      ...Object.entries(exchanges).map(([id, { connector, url }]) => ({ id: id as ExchangeProviderId, label: connector.label, host: new URL(url).host, credential: connector.credential })),
    ],
  };
}
