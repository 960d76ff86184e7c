import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { ReportFilter } from '../../../domain/reports';
import type { Database, Tx } from '../../db/client';
import { mentorGrants } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReportViewer } from '../engine/scope';

/** One answer for an unknown trader, a revoked grant and another trader's id, so none can be told from another. */
export const NO_TRADER = 'Trader not found';

/** The live grants this trader gave `mentorId`: accepted and not revoked. Read in the transaction that uses them. */
export const liveGrantsIn = (tx: Tx, traderId: string, mentorId: string) =>
  tx
    .select({ id: mentorGrants.id, accountIds: mentorGrants.accountIds })
    .from(mentorGrants)
    .where(
      and(
        eq(mentorGrants.userId, traderId),
        eq(mentorGrants.mentorUserId, mentorId),
        isNotNull(mentorGrants.acceptedAt),
        isNull(mentorGrants.revokedAt),
      ),
    )
    .orderBy(asc(mentorGrants.createdAt));

/** What a live grant lets the mentor see, read in the mentor's transaction `tx`. */
export interface Gate {
  grantIds: string[];
  accounts: string[];
}

/**
 * The check in front of every mentor read and write: the trader's live grants to this mentor (accepted, not revoked),
 * read in the mentor's transaction (withMentor) that then reads, where row-level security shows the shared accounts'
 * rows only. None is a 404, the same as an unknown trader: a revoked grant ends access on the very next request.
 */
export async function gateIn(tx: Tx, traderId: string, mentorId: string): Promise<Gate> {
  const grants = await liveGrantsIn(tx, traderId, mentorId);
  if (grants.length === 0) throw notFound(NO_TRADER);
  return { grantIds: grants.map((g) => g.id), accounts: [...new Set(grants.flatMap((g) => g.accountIds))] };
}

export const gate = (database: Database, traderId: string, mentorId: string) =>
  database.withMentor(traderId, mentorId, (tx) => gateIn(tx, traderId, mentorId));

/**
 * The filter a mentor's read runs with: the accounts they asked for, each of which must be granted (else the same
 * 404 as an account that does not exist), or all the granted ones. Never 'unassigned' and never empty (all accounts).
 */
export function grantedFilter(filter: ReportFilter, accounts: readonly string[]): ReportFilter {
  const asked = filter.account;
  if (asked.some((id) => !accounts.includes(id))) throw notFound('Trading account not found');
  return { ...filter, account: asked.length > 0 ? [...asked] : [...accounts] };
}

/**
 * A mentor's look at the trader's figures: the live grant checked (else the 404 of an unknown trader), then each
 * filter narrowed to the granted accounts, and the viewer the engine reads with, so that row-level security shows the
 * shared accounts only even to a read that forgot to narrow.
 */
export async function mentorLook(database: Database, traderId: string, mentorId: string) {
  const { accounts } = await gate(database, traderId, mentorId);
  const viewer: ReportViewer = { mentorId };
  return { accounts, viewer, narrow: (filter: ReportFilter) => grantedFilter(filter, accounts) };
}
