import type {
  CreatedMentorGrant,
  MentorViewList,
  MentorAccount,
  MentorComment,
  MentorCommentInput,
  MentorCommentList,
  MentorGrant,
  MentoredTrader,
  MentorTradePage,
  MentorTradesQuery,
} from '../../../contract/mentors';
import type { Trade } from '../../../contract/trades';
import { hasMistakeFilter, hasRiskFilter, resolveReportRange, selectTrades } from '../../../domain/reports';
import type { Database, Tx } from '../../db/client';
import type { Email, Mailer } from '../../email';
import type { Logger } from '../../logger';
import { badRequest, notFound } from '../../http/errors';
import { gate, gateIn, grantedFilter, liveGrantsIn } from '../../core/mentors/gate';
import { withReportScope } from '../../core/engine/scope';
import { loadMistakeTags, loadRiskDefaults } from '../../core/risk/repo';
import { toTradeDto } from '../../core/trades/dto';
import { tradesRepo } from '../../core/trades/repo';
import { hashSecretToken, isTokenShaped, lookupOf, newSecretToken, sameHash } from '../../core/tokens/secret-token';
import {
  findGrantByLookup,
  mentorRepo,
  mentorViewsRepo,
  tradersOfMentor,
  userNames,
  usersById,
  type MentorCommentRow,
  type MentorGrantRow,
} from './repo';

/** One answer for an unknown, mistyped, revoked or already taken invitation. */
const NO_INVITE = 'Invitation not found';

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function accountsOf(ids: readonly string[], names: ReadonlyMap<string, string>): MentorAccount[] {
  // An account deleted since the invitation is no longer listed: it has no trades left to see.
  return ids.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! }));
}

function toGrantDto(row: MentorGrantRow, names: ReadonlyMap<string, string>, mentors: ReadonlyMap<string, string>): MentorGrant {
  return {
    id: row.id,
    email: row.email,
    mentor_name: row.mentorUserId ? (mentors.get(row.mentorUserId) ?? null) : null,
    accounts: accountsOf(row.accountIds, names),
    share_journal: row.shareJournal,
    created_at: new Date(row.createdAt).toISOString(),
    accepted_at: iso(row.acceptedAt),
    revoked_at: iso(row.revokedAt),
  };
}

function toCommentDto(row: MentorCommentRow, labels: ReadonlyMap<string, string> = new Map()): MentorComment {
  return {
    id: row.id,
    parent_id: row.parentId,
    author_name: row.authorName,
    from_mentor: row.parentId === null,
    trade_id: row.tradeId,
    trade_label: row.tradeId === null ? null : (labels.get(row.tradeId) ?? null),
    trade_date: row.tradeDate,
    body: row.body,
    created_at: new Date(row.createdAt).toISOString(),
    seen_at: iso(row.seenAt),
  };
}

/**
 * The commented trades in words: the symbol, the side and the trading day. In a mentor's transaction only those of the
 * shared accounts are found.
 */
async function tradeLabels(tx: Tx, traderId: string, rows: readonly MentorCommentRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.tradeId ? [r.tradeId] : [])))];
  const found = await tradesRepo(tx, traderId).findMany(ids);
  return new Map(found.map((t) => [t.id, `${t.symbol}${t.side ? ` ${t.side}` : ''}, ${new Date(t.tradeDate).toISOString().slice(0, 10)}`]));
}

/** The shared accounts with their names, read in the mentor's transaction; null without a live grant. */
async function sharedAccounts(tx: Tx, traderId: string, mentorId: string): Promise<MentorAccount[] | null> {
  const grants = await liveGrantsIn(tx, traderId, mentorId);
  if (grants.length === 0) return null;
  // Row-level security lists only the shared accounts here.
  const names = new Map((await mentorRepo(tx, traderId).accountNames()).map((a) => [a.id, a.name]));
  return accountsOf([...new Set(grants.flatMap((g) => g.accountIds))], names);
}

/** What a new comment or reply needs to tell the other side by email. */
export interface CommentMail {
  mailer: Mailer;
  logger: Pick<Logger, 'warn'>;
  baseUrl: string;
}

/**
 * Tells the other side of a conversation by email, when the server sends email (without SMTP the count in the header
 * is the only sign). Sent once the comment is saved, without holding its answer: a mail server that is down costs a
 * line in the log, never the comment.
 */
async function notify(
  mail: CommentMail,
  database: Database,
  to: string | null,
  email: (name: string) => Omit<Email, 'to'>,
  failure = 'comment email not sent',
) {
  if (!mail.mailer.delivers || to === null) return;
  const address = (await usersById(database, [to])).get(to);
  if (!address) return;
  mail.mailer.send({ to: address.email, ...email(address.name) }).catch((err: unknown) => mail.logger.warn({ err }, failure));
}

/** Where a comment stands, in words: the trade, or the trading day. */
const placeOf = (row: MentorCommentRow, labels: ReadonlyMap<string, string>) =>
  row.tradeId !== null ? `your trade ${labels.get(row.tradeId) ?? ''}`.trim() : `your trading day ${row.tradeDate}`;

export const mentorsService = {
  async invite(
    database: Database,
    mailer: Mailer,
    userId: string,
    inviter: string,
    input: { email: string; account_ids: string[]; share_journal?: boolean },
    baseUrl: string,
  ): Promise<CreatedMentorGrant> {
    const token = newSecretToken();
    const hash = hashSecretToken(token);
    const accountIds = [...new Set(input.account_ids)];
    const { row, names } = await database.withUser(userId, async (tx) => {
      const repo = mentorRepo(tx, userId);
      const names = new Map((await repo.accountNames()).map((a) => [a.id, a.name]));
      // Only the trader's own accounts: another trader's account id is as unknown as a made-up one.
      if (accountIds.some((id) => !names.has(id))) throw badRequest('account_ids: Trading account not found');
      const row = await repo.insertGrant({
        email: input.email.trim().toLowerCase(),
        tokenLookup: lookupOf(hash),
        tokenHash: hash,
        accountIds,
        shareJournal: input.share_journal ?? false,
      });
      return { row, names };
    });
    // The secret travels in the address's fragment, which no browser sends to a server, so no request log holds it.
    const url = `${baseUrl.replace(/\/$/, '')}/mentor/accept#${token}`;
    let emailed = false;
    if (mailer.delivers) {
      await mailer.send({
        to: row.email,
        subject: `${inviter} invited you to mentor their trading on Edgebook`,
        text: `${inviter} invited you to see some of their trades on Edgebook and comment on them.\n\nSign in (or create an account), then open this link to accept:\n${url}\n\nIf you did not expect this, ignore this email.`,
      });
      emailed = true;
    }
    return { ...toGrantDto(row, names, new Map()), url, emailed };
  },

  async list(database: Database, userId: string): Promise<MentorGrant[]> {
    const { rows, names } = await database.withUser(userId, async (tx) => {
      const repo = mentorRepo(tx, userId);
      return { rows: await repo.grants(), names: new Map((await repo.accountNames()).map((a) => [a.id, a.name])) };
    });
    const mentors = await userNames(
      database,
      rows.flatMap((r) => (r.mentorUserId ? [r.mentorUserId] : [])),
    );
    return rows.map((row) => toGrantDto(row, names, mentors));
  },

  async revoke(database: Database, userId: string, id: string, now: Date): Promise<void> {
    if (!(await database.withUser(userId, (tx) => mentorRepo(tx, userId).revoke(id, now)))) throw notFound('Mentor grant not found');
  },

  /** The signed-in user accepts an invitation: it binds to them for good. Anything else is one 404. */
  async accept(database: Database, mentorId: string, token: string, now: Date): Promise<MentoredTrader> {
    if (!isTokenShaped(token)) throw notFound(NO_INVITE);
    const hash = hashSecretToken(token);
    const match = (await findGrantByLookup(database, lookupOf(hash))).find((row) => sameHash(row.tokenHash, hash));
    if (!match) throw notFound(NO_INVITE);
    // The binding is the trader's row, written as the trader: the mentor has no grant yet to act under.
    const bound = await database.withUser(match.userId, (tx) => mentorRepo(tx, match.userId).accept(match.id, mentorId, now));
    if (!bound) throw notFound(NO_INVITE);
    // What it shows, read as the mentor it now binds; revoked in between, it shows nothing.
    const seen = await database.withMentor(match.userId, mentorId, (tx) => sharedAccounts(tx, match.userId, mentorId));
    if (!seen) throw notFound(NO_INVITE);
    const name = (await userNames(database, [match.userId])).get(match.userId) ?? '';
    return { trader_id: match.userId, name, accounts: seen };
  },

  /** The traders who granted the signed-in mentor, each with the accounts they see. */
  async traders(database: Database, mentorId: string): Promise<MentoredTrader[]> {
    const traders = await tradersOfMentor(database, mentorId);
    const out: MentoredTrader[] = [];
    for (const trader of traders) {
      const seen = await database.withMentor(trader.traderId, mentorId, (tx) => sharedAccounts(tx, trader.traderId, mentorId));
      if (seen) out.push({ trader_id: trader.traderId, name: trader.name, accounts: seen });
    }
    return out;
  },

  /**
   * A page of the trader's Trade Log as the mentor may see it: the filter's trades of the granted accounts, newest
   * first, picked by the engine's rule from the mentor's scope, then read in the mentor's transaction.
   */
  async trades(database: Database, mentorId: string, traderId: string, query: MentorTradesQuery, now: Date): Promise<MentorTradePage> {
    const { accounts } = await gate(database, traderId, mentorId);
    const filter = grantedFilter(query.filter, accounts);
    const mistakeTags = hasMistakeFilter(filter) ? await database.withMentor(traderId, mentorId, (tx) => loadMistakeTags(tx, traderId)) : [];
    const viewer = { mentorId };
    const { ids, total } = await withReportScope(
      database,
      traderId,
      filter,
      now,
      (scope) => {
        // Every currency's trades: a list adds nothing up, so it is not narrowed to one currency as figures are. The
        // scope's filter as asked is limited to the shared accounts already.
        const asked = scope.asked;
        const range = resolveReportRange(asked, now, scope.timeZone);
        const { rows } = selectTrades(scope.columns, asked, range, scope.timeZone, {
          risk: hasRiskFilter(asked) ? scope.risk() : undefined,
          mistakeTags,
          newsEvents: scope.newsEvents,
        });
        const ids: string[] = [];
        for (let k = query.offset; k < Math.min(rows.length, query.offset + query.limit); k++)
          ids.push(scope.columns.id[rows[rows.length - 1 - k]!]!);
        return { ids, total: rows.length };
      },
      viewer,
    );
    const trades = await database.withMentor(traderId, mentorId, async (tx) => {
      // Checked again in the transaction that reads the trades: a grant revoked a moment ago shows nothing.
      const live = await gateIn(tx, traderId, mentorId);
      const found = new Map((await tradesRepo(tx, traderId).findMany(ids)).map((row) => [row.id, row]));
      const defaults = await loadRiskDefaults(tx, traderId);
      return ids.flatMap((id): Trade[] => {
        const row = found.get(id);
        return row && row.accountId !== null && live.accounts.includes(row.accountId) ? [toTradeDto(row, defaults)] : [];
      });
    });
    return { trades, total };
  },

  /** One trade, only when it is in a granted account; otherwise the same 404 as a trade that does not exist. */
  trade: (database: Database, mentorId: string, traderId: string, id: string): Promise<Trade> =>
    database.withMentor(traderId, mentorId, async (tx) => {
      const { accounts } = await gateIn(tx, traderId, mentorId);
      const row = await tradesRepo(tx, traderId).find(id);
      if (!row || row.accountId === null || !accounts.includes(row.accountId)) throw notFound('Trade not found');
      return toTradeDto(row, await loadRiskDefaults(tx, traderId));
    }),

  /** The mentor's comments to this trader and the trader's replies to them, newest first. */
  mentorComments: (database: Database, mentorId: string, traderId: string): Promise<MentorComment[]> =>
    database.withMentor(traderId, mentorId, async (tx) => {
      const { grantIds } = await gateIn(tx, traderId, mentorId);
      const rows = await mentorRepo(tx, traderId).comments(grantIds);
      const labels = await tradeLabels(tx, traderId, rows);
      return rows.map((row) => toCommentDto(row, labels));
    }),

  /**
   * A mentor's comment on a trade of a granted account, or on a trading day: the only thing a mentor writes. The
   * trader hears of it by email when the server sends email.
   */
  async comment(
    database: Database,
    mail: CommentMail,
    mentor: { id: string; name: string },
    traderId: string,
    input: MentorCommentInput & { body: string },
  ): Promise<MentorComment> {
    // The one transaction of a mentor that writes: its role may add a comment and change nothing else.
    const { row, labels } = await database.withMentor(
      traderId,
      mentor.id,
      async (tx) => {
        const { grantIds, accounts } = await gateIn(tx, traderId, mentor.id);
        if (input.trade_id !== undefined) {
          const trade = await tradesRepo(tx, traderId).find(input.trade_id);
          if (!trade || trade.accountId === null || !accounts.includes(trade.accountId)) throw notFound('Trade not found');
        }
        const row = await mentorRepo(tx, traderId).insertComment({
          grantId: grantIds[0]!,
          authorId: mentor.id,
          authorName: mentor.name,
          tradeId: input.trade_id ?? null,
          tradeDate: input.trade_date ?? null,
          body: input.body,
        });
        return { row, labels: await tradeLabels(tx, traderId, [row]) };
      },
      'comment',
    );
    await notify(mail, database, traderId, () => ({
      subject: `${mentor.name} commented on your trading`,
      text: `${mentor.name} commented on ${placeOf(row, labels)}:\n\n${row.body}\n\nRead it and reply on Edgebook:\n${mail.baseUrl}/mentor\n\nYou get this email because you invited ${mentor.name} to mentor you. Revoking their access in Settings > Mentors stops these emails.`,
    }));
    return toCommentDto(row, labels);
  },

  /** The trader's comments from every mentor (and their own replies), and how many are new. */
  traderComments: (database: Database, userId: string): Promise<MentorCommentList> =>
    database.withUser(userId, async (tx) => {
      const rows = await mentorRepo(tx, userId).comments();
      const labels = await tradeLabels(tx, userId, rows);
      return { comments: rows.map((row) => toCommentDto(row, labels)), unseen: rows.filter((r) => r.parentId === null && r.seenAt === null).length };
    }),

  /** The trader answers a mentor's comment; the answer is on the same trade or day, through the same grant. The mentor hears of it by email. */
  async reply(database: Database, mail: CommentMail, trader: { id: string; name: string }, commentId: string, body: string): Promise<MentorComment> {
    const { row, labels, mentorId } = await database.withUser(trader.id, async (tx) => {
      const repo = mentorRepo(tx, trader.id);
      const parent = await repo.comment(commentId);
      if (!parent || parent.parentId !== null) throw notFound('Comment not found');
      const row = await repo.insertComment({
        grantId: parent.grantId,
        authorId: trader.id,
        authorName: trader.name,
        parentId: parent.id,
        tradeId: parent.tradeId,
        tradeDate: parent.tradeDate,
        body,
      });
      return { row, labels: await tradeLabels(tx, trader.id, [row]), mentorId: await repo.grantMentor(parent.grantId) };
    });
    await notify(mail, database, mentorId, () => ({
      subject: `${trader.name} replied to your comment`,
      text: `${trader.name} replied on ${placeOf(row, labels).replace(/^your /, 'their ')}:\n\n${row.body}\n\nSee the conversation on Edgebook:\n${mail.baseUrl}/mentor/${trader.id}`,
    }));
    return toCommentDto(row, labels);
  },

  markSeen: async (database: Database, userId: string, now: Date): Promise<void> => {
    await database.withUser(userId, (tx) => mentorRepo(tx, userId).markSeen(now));
  },

  /**
   * A mentor's read of the trader's screens, once it passed the grant check: the day's row of this mentor is added or
   * moved on, a new visit counted after a pause (one statement in the trader's transaction, which adds nothing without
   * a live grant). The day's first read emails the trader, when the server sends email, after the answer and without
   * holding it: at most one email per mentor per day.
   */
  async recordView(database: Database, mail: CommentMail, mentor: { id: string; name: string }, traderId: string, now: Date): Promise<void> {
    const recorded = await database.withUser(traderId, (tx) => mentorViewsRepo(tx, traderId).record(mentor.id, now));
    if (!recorded?.first) return;
    void notify(
      mail,
      database,
      traderId,
      () => ({
        subject: `${mentor.name} viewed your journal`,
        text: `${mentor.name} viewed your journal on Edgebook today.\n\nSee who viewed it and when:\n${mail.baseUrl}/mentor\n\nYou get this email at most once a day for each mentor you invited. Revoking their access in Settings > Mentors stops these emails.`,
      }),
      'mentor view email not sent',
    ).catch((err: unknown) => mail.logger.warn({ err }, 'mentor view email not sent'));
  },

  /**
   * Who of the trader's mentors viewed their screens on each of the last days, and how many of those days are new. A
   * mentor with a comment the trader has not seen is counted once, by the comment (the header adds both counts): their
   * views are what the comment came from, and the same look at the page shows both.
   */
  async traderViews(database: Database, userId: string, now: Date): Promise<MentorViewList> {
    const { rows, commenters } = await database.withUser(userId, async (tx) => ({
      rows: await mentorViewsRepo(tx, userId).list(now),
      commenters: new Set(await mentorRepo(tx, userId).unseenCommentAuthors()),
    }));
    const names = await userNames(
      database,
      rows.map((r) => r.mentorId),
    );
    const views = rows.map((row) => ({
      mentor_id: row.mentorId,
      mentor_name: names.get(row.mentorId) ?? 'A former mentor',
      day: row.day,
      first_seen_at: new Date(row.firstSeenAt).toISOString(),
      last_seen_at: new Date(row.lastSeenAt).toISOString(),
      count: row.viewCount,
      new: row.seenAt === null || new Date(row.lastSeenAt) > new Date(row.seenAt),
    }));
    return { views, unseen: views.filter((v) => v.new && !commenters.has(v.mentor_id)).length };
  },

  markViewsSeen: async (database: Database, userId: string, now: Date): Promise<void> => {
    await database.withUser(userId, (tx) => mentorViewsRepo(tx, userId).markSeen(now));
  },
};
