/** What a read-only share link may show, and how long it answers. */

/** What can be shared: a trade, a trading day, a Reports view with its filters, a playbook, a prop account's status. */
export const SHARE_KINDS = ['trade', 'day', 'report', 'playbook', 'prop'] as const;
/** A Reports view's filters are kept as its address's query, at most this long. */
export const SHARE_REPORT_FILTER_MAX = 4000;
export type ShareKind = (typeof SHARE_KINDS)[number];

export const SHARE_EXPIRIES = ['day', 'week', 'never'] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];
export const SHARE_EXPIRY_LABELS: Readonly<Record<ShareExpiry, string>> = { day: 'A day', week: 'A week', never: 'Never' };
