import { z } from 'zod';
import { accountFilter, calendarDay } from './common';
import { normalizeReportFilter, reportFilterFields } from './reports';
import type { Trade } from './trades';

/** The mentor endpoints' contract: a trader's invitations, a mentor's reads and the comments between them. */

export const MENTOR_COMMENT_MAX = 4000;
/** Accounts one invitation may list at most. */
export const MENTOR_ACCOUNTS_MAX = 100;

/** POST /api/mentor-grants: who is invited, and which of the trader's accounts they will see. */
export const mentorInviteInput = z.strictObject({
  email: z.email('must be an email address').max(320, 'must be at most 320 characters'),
  account_ids: z
    .array(z.uuid('must be trading account ids'), { error: 'must be a list of trading account ids' })
    .min(1, 'choose at least one account')
    .max(MENTOR_ACCOUNTS_MAX, `at most ${MENTOR_ACCOUNTS_MAX} accounts`),
  /** The mentor reads the daily journal too: every day's note, beside the day's trades of the chosen accounts. */
  share_journal: z.boolean({ error: 'must be true or false' }).default(false),
});
export type MentorInviteInput = z.input<typeof mentorInviteInput>;

export const mentorGrantIdParam = z.object({ id: z.uuid('must be a mentor grant id') });

/** POST /api/mentor/accept: the invite's secret, from the link the trader sent. */
export const mentorAcceptInput = z.strictObject({
  token: z
    .string({ error: 'must be the invite from the link' })
    .min(1, 'must be the invite from the link')
    .max(200, 'must be at most 200 characters'),
});

export const traderIdParam = z.object({ traderId: z.uuid('must be a trader id') });
export const mentorTradeParam = z.object({ traderId: z.uuid('must be a trader id'), id: z.uuid('must be a trade id') });
export const mentorCommentIdParam = z.object({ id: z.uuid('must be a comment id') });

/** GET /api/mentor/:traderId/trades: the report filter (its accounts narrowed to the granted ones) and a page. */
export const mentorTradesQuery = z
  .object({
    ...reportFilterFields,
    limit: z.coerce.number().int().min(1).max(500).default(50),
    offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
  })
  .transform(({ limit, offset, ...fields }, ctx) => ({ limit, offset, filter: normalizeReportFilter(fields, ctx) }));
export type MentorTradesQuery = z.output<typeof mentorTradesQuery>;

const commentBody = z
  .string({ error: 'must be text' })
  .trim()
  .min(1, 'write a comment')
  .max(MENTOR_COMMENT_MAX, `must be at most ${MENTOR_COMMENT_MAX} characters`);

/** POST /api/mentor/:traderId/comments: a comment on one trade, or on one trading day. */
export const mentorCommentInput = z
  .strictObject({
    trade_id: z.uuid('must be a trade id').optional(),
    trade_date: calendarDay('must be a date as yyyy-MM-dd').optional(),
    body: commentBody,
  })
  .refine((input) => (input.trade_id === undefined) !== (input.trade_date === undefined), {
    message: 'give either trade_id or trade_date',
    path: ['trade_id'],
  });
export type MentorCommentInput = z.input<typeof mentorCommentInput>;

/** POST /api/mentor-comments/:id/reply */
export const mentorReplyInput = z.strictObject({ body: commentBody });

export interface MentorAccount {
  id: string;
  name: string;
}

/** One of the trader's invitations, as Settings lists it. */
export interface MentorGrant {
  id: string;
  email: string;
  /** The mentor's name once accepted. */
  mentor_name: string | null;
  accounts: MentorAccount[];
  /** Whether the mentor reads the daily journal too. */
  share_journal: boolean;
  created_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}
/** The invitation just made, with the link that accepts it: shown once, never stored. */
export interface CreatedMentorGrant extends MentorGrant {
  url: string;
  /** Whether the link went out by email (only when the server sends email). */
  emailed: boolean;
}

/** A trader who granted the signed-in mentor, and the accounts they see. */
export interface MentoredTrader {
  trader_id: string;
  name: string;
  accounts: MentorAccount[];
}

export interface MentorComment {
  id: string;
  /** Null for a trader's reply that answers a comment. */
  parent_id: string | null;
  author_name: string;
  /** True when the mentor wrote it; false for the trader's replies. */
  from_mentor: boolean;
  trade_id: string | null;
  /** The trade in words ('NQ Long, 2025-03-04'); null for a day's comment or a trade deleted since. */
  trade_label: string | null;
  trade_date: string | null;
  body: string;
  created_at: string;
  /** When the trader saw a mentor's comment; null while new. */
  seen_at: string | null;
}

export interface MentorCommentList {
  comments: MentorComment[];
  /** The mentor's comments the trader has not seen yet. */
  unseen: number;
}

/** One mentor's reads of the trader's screens on one day (UTC). */
export interface MentorView {
  mentor_id: string;
  mentor_name: string;
  day: string;
  first_seen_at: string;
  last_seen_at: string;
  /** Requests the mentor's screens made that day. */
  count: number;
  /** True while read since the trader last looked (never seen, or read again after). */
  new: boolean;
}

/** GET /api/mentor-views: who of the trader's mentors viewed their screens, and how many of those days are new. */
export interface MentorViewList {
  views: MentorView[];
  /** The new days of mentors without a new comment (one with a new comment is counted by it). */
  unseen: number;
}

/** GET /api/mentor/:traderId/attachments/files/:file: a shared image's bytes. */
export const mentorAttachmentParam = z.object({ traderId: z.uuid('must be a trader id'), file: z.string() });

/** GET /api/mentor/:traderId/journal: the day list, narrowed to one granted account or none (all of them). */
export const mentorJournalQuery = z.object({ date: calendarDay('must be a date as yyyy-MM-dd that exists').optional(), account: accountFilter });
/** GET /api/mentor/:traderId/journal/:date */
export const mentorJournalDayParam = z.object({
  traderId: z.uuid('must be a trader id'),
  date: calendarDay('must be a date as yyyy-MM-dd that exists'),
});

export interface MentorTradePage {
  trades: Trade[];
  total: number;
}
