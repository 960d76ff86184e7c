import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { queryRows, type Database, type Tx } from '../../db/client';
import { mentorComments, mentorGrants, mentorViews, tradingAccounts, user } from '../../db/schema';

export type MentorGrantRow = typeof mentorGrants.$inferSelect;
export type MentorCommentRow = typeof mentorComments.$inferSelect;
export type MentorViewRow = typeof mentorViews.$inferSelect;
export type NewMentorComment = Omit<typeof mentorComments.$inferInsert, 'userId' | 'id'>;

/**
 * The trader's own invitations and comments, under row-level security as that trader; in a mentor's transaction
 * (withMentor) the same reads see only that mentor's live grants, their comments, and the shared accounts.
 */
export const mentorRepo = (tx: Tx, userId: string) => {
  const owner = eq(mentorGrants.userId, userId);
  const ownComments = eq(mentorComments.userId, userId);
  return {
    grants: () => tx.select().from(mentorGrants).where(owner).orderBy(desc(mentorGrants.createdAt), desc(mentorGrants.id)),

    async insertGrant(values: {
      email: string;
      tokenLookup: string;
      tokenHash: string;
      accountIds: string[];
      shareJournal: boolean;
    }): Promise<MentorGrantRow> {
      const [row] = await tx
        .insert(mentorGrants)
        .values({ ...values, userId })
        .returning();
      return row!;
    },

    /** Revoked from `now` on; one revoked before keeps its first time. False when it is not theirs. */
    async revoke(id: string, now: Date): Promise<boolean> {
      const rows = await tx
        .update(mentorGrants)
        .set({ revokedAt: sql`coalesce(${mentorGrants.revokedAt}, ${now.toISOString()}::timestamptz)` })
        .where(and(owner, eq(mentorGrants.id, id)))
        .returning({ id: mentorGrants.id });
      return rows.length > 0;
    },

    /**
     * Binds the invitation to `mentorId` when it is still open (never accepted, or accepted by this same mentor, and
     * not revoked); the row, or undefined. A grant once accepted cannot be taken over by anyone else.
     */
    async accept(id: string, mentorId: string, now: Date): Promise<MentorGrantRow | undefined> {
      const [row] = await tx
        .update(mentorGrants)
        .set({ mentorUserId: mentorId, acceptedAt: sql`coalesce(${mentorGrants.acceptedAt}, ${now.toISOString()}::timestamptz)` })
        .where(
          and(
            owner,
            eq(mentorGrants.id, id),
            isNull(mentorGrants.revokedAt),
            ne(mentorGrants.userId, mentorId),
            or(isNull(mentorGrants.mentorUserId), eq(mentorGrants.mentorUserId, mentorId)),
          ),
        )
        .returning();
      return row;
    },

    /** Whether one of these grants shares the daily journal. Read in the transaction that checked they are live. */
    sharesJournal: async (grantIds: readonly string[]) =>
      grantIds.length > 0 &&
      (
        await tx
          .select({ id: mentorGrants.id })
          .from(mentorGrants)
          .where(and(owner, inArray(mentorGrants.id, [...grantIds]), eq(mentorGrants.shareJournal, true)))
          .limit(1)
      ).length > 0,

    accountNames: () =>
      tx.select({ id: tradingAccounts.id, name: tradingAccounts.name }).from(tradingAccounts).where(eq(tradingAccounts.userId, userId)),

    /** Every comment of the trader's mentors and the trader's replies, newest first. */
    comments: (grantIds?: readonly string[]) =>
      tx
        .select()
        .from(mentorComments)
        .where(grantIds ? and(ownComments, inArray(mentorComments.grantId, [...grantIds])) : ownComments)
        .orderBy(desc(mentorComments.createdAt), desc(mentorComments.id))
        .limit(1000),

    /** The mentor a grant was accepted by, or null while it is an open invitation. */
    grantMentor: async (grantId: string) =>
      (
        await tx
          .select({ mentorUserId: mentorGrants.mentorUserId })
          .from(mentorGrants)
          .where(and(owner, eq(mentorGrants.id, grantId)))
      )[0]?.mentorUserId ?? null,

    comment: async (id: string) =>
      (
        await tx
          .select()
          .from(mentorComments)
          .where(and(ownComments, eq(mentorComments.id, id)))
      )[0],

    async insertComment(values: NewMentorComment): Promise<MentorCommentRow> {
      const [row] = await tx
        .insert(mentorComments)
        .values({ ...values, userId })
        .returning();
      return row!;
    },

    /** The mentors whose comments the trader has not seen yet. */
    unseenCommentAuthors: async () =>
      (
        await tx
          .selectDistinct({ authorId: mentorComments.authorId })
          .from(mentorComments)
          .where(and(ownComments, isNull(mentorComments.seenAt), isNull(mentorComments.parentId)))
      ).flatMap((r) => (r.authorId ? [r.authorId] : [])),

    /** Every mentor's comment not seen yet is seen from `now`. */
    markSeen: (now: Date) =>
      tx
        .update(mentorComments)
        .set({ seenAt: now.toISOString() })
        .where(and(ownComments, isNull(mentorComments.seenAt), isNull(mentorComments.parentId))),
  };
};

/** How many days of mentors' views the trader's list shows. */
const VIEW_DAYS_LISTED = 90;

/** Reads closer together than this are one visit of a mentor (a screen's several requests, moving between tabs). */
export const VISIT_GAP = '30 minutes';

/**
 * The trader's log of their mentors' reads, in the trader's own transaction (row-level security as that trader): the
 * mentor role writes nothing of it.
 */
export const mentorViewsRepo = (tx: Tx, userId: string) => {
  const owner = eq(mentorViews.userId, userId);
  return {
    /**
     * One read by `mentorId` at `now`: the day's row is added, or its last read moves on. The count is of visits, not of
     * requests (one screen asks for several things): a read more than VISIT_GAP after the last one starts a new visit.
     * One statement, and only while a live grant of this trader to that mentor stands (a revoked mentor's read adds
     * nothing, whatever called this). The day's visits after it and whether this read made the day's row, or null when
     * nothing was written.
     */
    async record(mentorId: string, now: Date): Promise<{ visits: number; first: boolean } | null> {
      const at = now.toISOString();
      const day = at.slice(0, 10);
      const [row] = await queryRows<{ view_count: number; first: boolean }>(
        tx,
        sql`insert into mentor_views (user_id, mentor_id, day, first_seen_at, last_seen_at, view_count)
          select ${userId}, ${mentorId}, ${day}::date, ${at}::timestamptz, ${at}::timestamptz, 1
          where exists (select 1 from mentor_grants g where g.user_id = ${userId} and g.mentor_user_id = ${mentorId}
            and g.accepted_at is not null and g.revoked_at is null)
          on conflict (user_id, mentor_id, day) do update
            set last_seen_at = greatest(mentor_views.last_seen_at, excluded.last_seen_at),
              view_count = mentor_views.view_count + (excluded.last_seen_at - mentor_views.last_seen_at > ${VISIT_GAP}::interval)::int
          returning view_count, (xmax = 0) as first`,
      );
      return row ? { visits: Number(row.view_count), first: row.first === true } : null;
    },

    /** The days' views of the last weeks, the latest read first. */
    list: (now: Date) =>
      tx
        .select()
        .from(mentorViews)
        .where(and(owner, gte(mentorViews.day, new Date(now.getTime() - VIEW_DAYS_LISTED * 86_400_000).toISOString().slice(0, 10))))
        .orderBy(desc(mentorViews.lastSeenAt), asc(mentorViews.mentorId))
        .limit(500),

    /** Every day's views read since the trader last looked is seen from `now`. */
    markSeen: (now: Date) =>
      tx
        .update(mentorViews)
        .set({ seenAt: now.toISOString() })
        .where(and(owner, or(isNull(mentorViews.seenAt), gt(mentorViews.lastSeenAt, mentorViews.seenAt)))),
  };
};

/**
 * The invitations whose hash begins with `lookup`, whoever owns them: a mentor accepting has no grant yet to say
 * whose it is. Only the id, the owner and the hash are read, on the owner connection; the acceptance itself is then
 * written as that owner, after the whole hash matched.
 */
export function findGrantByLookup(database: Database, lookup: string): Promise<Array<{ id: string; userId: string; tokenHash: string }>> {
  return database.db
    .select({ id: mentorGrants.id, userId: mentorGrants.userId, tokenHash: mentorGrants.tokenHash })
    .from(mentorGrants)
    .where(eq(mentorGrants.tokenLookup, lookup))
    .limit(4);
}

/**
 * The traders who granted `mentorId` a live grant, on the owner connection (the grants are the traders' rows): only
 * who they are; what each shares is then read in a mentor's transaction with that trader.
 */
export function tradersOfMentor(database: Database, mentorId: string): Promise<Array<{ traderId: string; name: string }>> {
  return database.db
    .selectDistinct({ traderId: mentorGrants.userId, name: user.name })
    .from(mentorGrants)
    .innerJoin(user, eq(user.id, mentorGrants.userId))
    .where(and(eq(mentorGrants.mentorUserId, mentorId), isNotNull(mentorGrants.acceptedAt), isNull(mentorGrants.revokedAt)))
    .orderBy(asc(user.name), asc(mentorGrants.userId));
}

/** Users' names and email addresses, on the owner connection: the user table is not the app role's. */
export async function usersById(database: Database, ids: readonly string[]): Promise<Map<string, { name: string; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await database.db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(inArray(user.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { name: r.name, email: r.email }]));
}

/** Names of users (mentors in a trader's list). */
export async function userNames(database: Database, ids: readonly string[]): Promise<Map<string, string>> {
  return new Map([...(await usersById(database, ids))].map(([id, u]) => [id, u.name]));
}
