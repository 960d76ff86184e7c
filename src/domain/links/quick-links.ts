/**
 * Quick links. Only web addresses: a link opens in
 * a new tab, and a javascript: or data: address there would run in the trader's session.
 */
export interface QuickLinkInput {
  title: string;
  url: string;
  icon: string | null;
}

export const QUICK_LINK_TITLE_MAX = 100;
export const QUICK_LINK_URL_MAX = 2000;
export const QUICK_LINK_ICON_MAX = 50;

// Scheme, then a host of at least one character that is not a separator; no white space anywhere.
const WEB_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;

/** Whether `url` is an http or https address (the only kind a quick link may hold). */
export function isWebUrl(url: string): boolean {
  return url.length <= QUICK_LINK_URL_MAX && WEB_URL.test(url);
}

/**
 * What a trader types in the URL box: surrounding spaces dropped, and a bare host ("tradingview.com") given https.
 * Anything with another scheme (javascript:, data:, ftp:) stays as it is, so validation refuses it.
 */
export function normalizeWebUrl(input: string): string {
  const text = input.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return text;
  if (/^[^\s/?#]+\.[^\s/?#]+/.test(text)) return `https://${text}`;
  return text;
}

/** A new quick link's position defaults to the last one plus 1. */
export function nextQuickLinkPosition(positions: readonly number[]): number {
  return positions.reduce((max, p) => Math.max(max, p), 0) + 1;
}

/** Reordering sets each link's position to its index + 1. */
export function reorderPositions(ids: readonly string[]): Array<{ id: string; position: number }> {
  return ids.map((id, index) => ({ id, position: index + 1 }));
}

/**
 * The legacy browser list under localStorage `trader-quick-links` (title, url, icon), as much of it as is usable:
 * entries without a title or with an address that is not http(s) are dropped, and so is a list that is not JSON.
 */
export function parseLegacyQuickLinks(raw: string | null): QuickLinkInput[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: QuickLinkInput[] = [];
  for (const item of parsed) {
    if (typeof item !== 'object' || item === null) continue;
    const entry = item as Record<string, unknown>;
    const title = typeof entry.title === 'string' ? entry.title.trim().slice(0, QUICK_LINK_TITLE_MAX) : '';
    const url = typeof entry.url === 'string' ? normalizeWebUrl(entry.url) : '';
    if (!title || !isWebUrl(url)) continue;
    const icon = typeof entry.icon === 'string' && entry.icon.trim() ? entry.icon.trim().slice(0, QUICK_LINK_ICON_MAX) : null;
    out.push({ title, url, icon });
  }
  return out;
}

/** The links the "import default links" action adds, for futures traders first. */
export const DEFAULT_QUICK_LINKS: readonly QuickLinkInput[] = [
  { title: 'TradingView', url: 'https://www.tradingview.com/chart/', icon: 'chart' },
  { title: 'Economic Calendar', url: 'https://www.forexfactory.com/calendar', icon: 'calendar' },
  { title: 'CME Group', url: 'https://www.cmegroup.com/', icon: 'building' },
  { title: 'CME FedWatch', url: 'https://www.cmegroup.com/markets/interest-rates/cme-fedwatch-tool.html', icon: 'percentage' },
  { title: 'Finviz', url: 'https://finviz.com/', icon: 'news' },
];

/** Icon names a quick link may carry; anything else is shown with the plain link icon. */
export const QUICK_LINK_ICONS = ['link', 'chart', 'calendar', 'news', 'building', 'percentage', 'book', 'video', 'message', 'globe'] as const;
