import type { Config } from '../../config';
import { createProjectXConnector } from '../../connectors/projectx';
import { CONFIGURED_FIRM, hostOf, PROJECTX_FIRMS, PROJECTX_FIRMS_CHECKED } from '../../connectors/projectx-firms';
import type { Connector } from '../../connectors/types';
import type { ProviderId } from '../../../contract/connections';

/**
 * The connectors Edgebook has, one per provider (like the importers' registry): ProjectX, at the gateway of each firm
 * that runs it (a dated list in connectors/projectx-firms.ts) and at PROJECTX_API_URL under PROJECTX_NAME, so a firm
 * the list lacks is a setting, not new code. A connection names its firm; one server serves traders of several firms.
 */
export interface ConnectorRegistry {
  /** The connector of a firm ('configured' when unknown: a connection made before firms were chosen). */
  get(id: ProviderId, firm?: string): Connector;
  /** Whether the firm is one this server offers. */
  has(firm: string): boolean;
  providers(): Array<{ id: ProviderId; label: string; host: string; firms: Array<{ id: string; label: string; host: string }>; firms_checked: string }>;
}

export function createConnectorRegistry(config: Config): ConnectorRegistry {
  const timeoutMs = config.PROJECTX_TIMEOUT * 1000;
  const configured = createProjectXConnector({ baseUrl: config.PROJECTX_API_URL, label: config.PROJECTX_NAME, firm: CONFIGURED_FIRM, timeoutMs });
  const configuredHost = hostOf(config.PROJECTX_API_URL);
  const firms = new Map<string, Connector>([[CONFIGURED_FIRM, configured]]);
  const hosts = new Map<string, string>([[CONFIGURED_FIRM, configuredHost]]);
  // A listed firm whose gateway is PROJECTX_API_URL is the configured one already.
  for (const firm of PROJECTX_FIRMS) {
    if (hostOf(firm.baseUrl) === configuredHost) continue;
    firms.set(firm.id, createProjectXConnector({ baseUrl: firm.baseUrl, label: firm.label, firm: firm.id, timeoutMs }));
    hosts.set(firm.id, hostOf(firm.baseUrl));
  }
  return {
    get: (_id, firm) => firms.get(firm ?? CONFIGURED_FIRM) ?? configured,
    has: (firm) => firms.has(firm),
    providers: () => [
      {
        id: 'topstepx',
        label: configured.label,
        host: configuredHost,
        firms: [...firms.entries()].map(([id, connector]) => ({ id, label: connector.label, host: hosts.get(id)! })),
        firms_checked: PROJECTX_FIRMS_CHECKED,
      },
    ],
  };
}
