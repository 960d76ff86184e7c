/** What a read-only share link may show, and how long it answers. */

/** Trades, days, playbooks and prop accounts' status can be shared; the table also knows report views, for later. */
export const SHARE_KINDS = ['trade', 'day', 'playbook', 'prop'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

export const SHARE_EXPIRIES = ['day', 'week', 'never'] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];
export const SHARE_EXPIRY_LABELS: Readonly<Record<ShareExpiry, string>> = { day: 'A day', week: 'A week', never: 'Never' };
