/**
 * Prop firms that run the ProjectX Gateway API, each at its own gateway: a trader's user name and API key are the
 * firm's, so a connection names its firm and talks to that firm's gateway. The list is data, dated: firms come and go
 * and move their gateways, and a server's operator adds one the list lacks with PROJECTX_API_URL and PROJECTX_NAME
 * (the 'configured' firm, always offered). Addresses as the firms' and ProjectX's published connection details gave
 * them when checked.
 */

export interface ProjectXFirm {
  id: string;
  label: string;
  /** The gateway's address, without /api. */
  baseUrl: string;
}

/** When the addresses below were last checked against the firms' published connection details. */
export const PROJECTX_FIRMS_CHECKED = '2026-12-06';

export const PROJECTX_FIRMS: readonly ProjectXFirm[] = [
  { id: 'topstepx', label: 'TopstepX', baseUrl: 'https://api.topstepx.com' },
  { id: 'thefuturesdesk', label: 'The Futures Desk', baseUrl: 'https://api.thefuturesdesk.projectx.com' },
  { id: 'alphafutures', label: 'Alpha Futures', baseUrl: 'https://api.alphafutures.projectx.com' },
  { id: 'blusky', label: 'Blusky', baseUrl: 'https://api.blusky.projectx.com' },
  { id: 'daytraders', label: 'DayTraders', baseUrl: 'https://api.daytraders.projectx.com' },
];

/** The firm of PROJECTX_API_URL and PROJECTX_NAME. */
export const CONFIGURED_FIRM = 'configured';

/** The host of a gateway address, lower case. */
export const hostOf = (baseUrl: string) => new URL(baseUrl).host.toLowerCase();
