import type { Config } from '../../config';
import { createProjectXConnector } from '../../connectors/projectx';
import type { Connector } from '../../connectors/types';
import type { ProviderId } from '../../../contract/connections';

/**
 * The connectors Edgebook has, one per provider (like the importers' registry): TopstepX through the ProjectX Gateway
 * API, at PROJECTX_API_URL under PROJECTX_NAME, so another ProjectX firm is a setting, not new code.
 */
export interface ConnectorRegistry {
  get(id: ProviderId): Connector;
  providers(): Array<{ id: ProviderId; label: string; host: string }>;
}

export function createConnectorRegistry(config: Config): ConnectorRegistry {
  const topstepx = createProjectXConnector({
    baseUrl: config.PROJECTX_API_URL,
    label: config.PROJECTX_NAME,
    timeoutMs: config.PROJECTX_TIMEOUT * 1000,
  });
  const host = new URL(config.PROJECTX_API_URL).host;
  return {
    get: () => topstepx,
    providers: () => [{ id: 'topstepx', label: topstepx.label, host }],
  };
}
