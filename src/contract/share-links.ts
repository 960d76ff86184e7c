import { z } from 'zod';
import { SHARE_EXPIRIES, SHARE_REPORT_FILTER_MAX, type ShareKind } from '../domain/links/share-links';
import { parseReportFilterParams, writeReportFilterParams } from '../domain/reports/filter';
import { calendarDay } from './common';

export { SHARE_EXPIRIES, SHARE_EXPIRY_LABELS, SHARE_KINDS, type ShareExpiry, type ShareKind } from '../domain/links/share-links';

/** The share-links endpoints' contract: what a trader's read-only links are made of. */

const options = {
  expires: z.enum(SHARE_EXPIRIES, { error: 'must be day, week or never' }).default('week'),
  hide_amounts: z.boolean().default(false),
  hide_accounts: z.boolean().default(false),
  include_notes: z.boolean().default(false),
};

/** POST /api/share-links */
export const shareLinkInput = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('trade'), target: z.uuid('must be a trade id'), ...options }),
    z.strictObject({ kind: z.literal('day'), target: calendarDay(), ...options }),
    z.strictObject({
      kind: z.literal('report'),
      // The Reports view's filters as its address's query ('range=this-month&symbol=NQ'), kept in their plain form.
      target: z
        .string({ error: 'must be the filters as a query string' })
        .max(SHARE_REPORT_FILTER_MAX, `must be at most ${SHARE_REPORT_FILTER_MAX} characters`)
        .transform((query) => writeReportFilterParams(parseReportFilterParams(new URLSearchParams(query))).toString()),
      ...options,
    }),
    z.strictObject({ kind: z.literal('playbook'), target: z.uuid('must be a playbook id'), ...options }),
    z.strictObject({ kind: z.literal('prop'), target: z.uuid('must be a trading account id'), ...options }),
  ],
  { error: 'kind: must be trade, day, report, playbook or prop' },
);
export type ShareLinkInput = z.input<typeof shareLinkInput>;

export const shareLinkIdParam = z.object({ id: z.uuid('must be a share link id') });

/** A link as its owner's list shows it. The secret is never in it: it was shown once, when the link was made. */
export interface ShareLink {
  id: string;
  kind: ShareKind;
  target: string;
  /** What the link shows, in words ("NQ Long, 2025-03-03"; "Day 2025-03-03"; "Reports"; "Prop status: Apex 50K"). */
  title: string;
  hide_amounts: boolean;
  hide_accounts: boolean;
  include_notes: boolean;
  expires_at: string | null;
  revoked_at: string | null;
  views: number;
  last_viewed_at: string | null;
  created_at: string;
}

/** The answer to a new link: the only time its address (with the secret) is given. */
export interface CreatedShareLink extends ShareLink {
  url: string;
}
