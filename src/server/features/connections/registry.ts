import type { Config } from '../../config';
import { createBinanceConnector } from '../../connectors/binance';
import { createBybitConnector } from '../../connectors/bybit';
import { createHyperliquidConnector } from '../../connectors/hyperliquid';
import type { ExchangeConnector } from '../../connectors/exchanges';
import { createProjectXConnector } from '../../connectors/projectx';
import { CONFIGURED_FIRM, hostOf, PROJECTX_FIRMS, PROJECTX_FIRMS_CHECKED } from '../../connectors/projectx-firms';
import type { Connector } from '../../connectors/types';
import { CREDENTIAL_OF, type CredentialKind, type ExchangeProviderId, type ProviderId } from '../../../contract/connections';

/**
/**
 * The connectors Edgebook has, one per provider (like the importers' registry): ProjectX, at the gateway of each firm
 * that runs it (a dated list in connectors/projectx-firms.ts) and at PROJECTX_API_URL under PROJECTX_NAME, so a firm
 * the list lacks is a setting, not new code (a connection names its firm; one server serves traders of several firms);
 * and the crypto exchanges, each at its API's address (tests point them at stand-ins).
 */
export interface ConnectorRegistry {
  /** The ProjectX connector of a firm ('configured' when unknown: a connection made before firms were chosen). */
  get(id: ProviderId, firm?: string): Connector;
  /** Whether the firm is one this server offers. */
  has(firm: string): boolean;
  /** A crypto exchange's connector. */
  exchange(id: ExchangeProviderId): ExchangeConnector;
  /** The provider's name as the trader knows it (a ProjectX firm's, for `firm`). */
  labelOf(id: ProviderId, firm?: string): string;
  providers(): Array<{
    id: ProviderId;
    label: string;
    host: string;
    credential: CredentialKind;
    firms: Array<{ id: string; label: string; host: string }>;
    firms_checked: string | null;
  }>;
}

export function createConnectorRegistry(config: Config): ConnectorRegistry {
  const projectxTimeoutMs = config.PROJECTX_TIMEOUT * 1000;
  const configured = createProjectXConnector({
    baseUrl: config.PROJECTX_API_URL,
    label: config.PROJECTX_NAME,
    firm: CONFIGURED_FIRM,
    timeoutMs: projectxTimeoutMs,
  });
  const configuredHost = hostOf(config.PROJECTX_API_URL);
  const firms = new Map<string, Connector>([[CONFIGURED_FIRM, configured]]);
  const hosts = new Map<string, string>([[CONFIGURED_FIRM, configuredHost]]);
  // A listed firm whose gateway is PROJECTX_API_URL is the configured one already.
  for (const firm of PROJECTX_FIRMS) {
    if (hostOf(firm.baseUrl) === configuredHost) continue;
    firms.set(firm.id, createProjectXConnector({ baseUrl: firm.baseUrl, label: firm.label, firm: firm.id, timeoutMs: projectxTimeoutMs }));
    hosts.set(firm.id, hostOf(firm.baseUrl));
  }
  const get = (_id: ProviderId, firm?: string): Connector => firms.get(firm ?? CONFIGURED_FIRM) ?? configured;
  const timeoutMs = config.EXCHANGE_TIMEOUT * 1000;
  const exchanges: Partial<Record<ExchangeProviderId, { connector: ExchangeConnector; url: string }>> = {
    binance: {
      connector: createBinanceConnector({ futuresUrl: config.BINANCE_FUTURES_API_URL, spotUrl: config.BINANCE_API_URL, timeoutMs }),
      url: config.BINANCE_FUTURES_API_URL,
    },
    bybit: { connector: createBybitConnector({ baseUrl: config.BYBIT_API_URL, timeoutMs }), url: config.BYBIT_API_URL },
    hyperliquid: { connector: createHyperliquidConnector({ baseUrl: config.HYPERLIQUID_API_URL, timeoutMs }), url: config.HYPERLIQUID_API_URL },
  };
  const exchange = (id: ExchangeProviderId): ExchangeConnector => {
    const found = exchanges[id];
    if (!found) throw new Error(`no connector for ${id}`);
    return found.connector;
  };
  return {
    get,
    has: (firm) => firms.has(firm),
    exchange,
    labelOf: (id, firm) => (id === 'topstepx' ? get(id, firm).label : exchange(id).label),
    providers: () => [
      {
        id: 'topstepx',
        label: configured.label,
        host: configuredHost,
        credential: CREDENTIAL_OF.topstepx,
        firms: [...firms.entries()].map(([id, connector]) => ({ id, label: connector.label, host: hosts.get(id)! })),
        firms_checked: PROJECTX_FIRMS_CHECKED,
      },
      ...Object.entries(exchanges).map(([id, { connector, url }]) => ({
        id: id as ExchangeProviderId,
        label: connector.label,
        host: new URL(url).host,
        credential: connector.credential,
        firms: [],
        firms_checked: null,
      })),
    ],
  };
}
