import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { NoteSummary } from '../../../contract/notes';
import { centsToDecimalString, toCents } from '../../../domain/money';
import type { Tx } from '../../db/client';
import { attachments, noteFolders, noteTags, notes, tags, trades } from '../../db/schema';

export interface TagRef {
  id: string;
  name: string;
}

/** Keyset position in the list order (updated_at desc, id desc). */
export interface NoteCursor {
  updatedAt: string;
  id: string;
}

export interface NoteFilter {
  folderId?: string | 'none';
  tagId?: string;
  tradeId?: string;
  /** A to_tsquery('english', ...) text built from the trader's words (letters and digits only). */
  tsquery?: string;
}

/** A journal note's trading day as a UTC timestamp range: trades sit at 12:00 UTC of their day. */
const dayStart = (day: SQL) => sql`(${day}::timestamp at time zone 'UTC')`;
const dayEnd = (day: SQL) => sql`((${day} + 1)::timestamp at time zone 'UTC')`;

/**
 * Data access for notes, folders and tags. Every query names its owner; row-level security backs it up.
 * Correlated subqueries name the outer table in plain SQL (notes.id, note_folders.id): drizzle leaves a column
 * unqualified in a one-table query, and inside the subquery that would mean the subquery's own column.
 */
export const notesRepo = (tx: Tx, userId: string) => {
  const owner = eq(notes.userId, userId);
  const journalDay = sql`notes.journal_date`;

  /** A row of the notes list: the note without its body, with its tags and its P&L and symbols. */
  const listColumns = {
    id: notes.id,
    title: notes.title,
    folderId: notes.folderId,
    tradeId: notes.tradeId,
    journalDate: notes.journalDate,
    createdAt: notes.createdAt,
    updatedAt: notes.updatedAt,
    tradePnl: trades.pnl,
    tradeSymbol: trades.symbol,
    tradeDate: trades.tradeDate,
    tags: sql<TagRef[]>`(select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name), '[]'::json)
      from ${noteTags} nt join ${tags} g on g.id = nt.tag_id and g.user_id = nt.user_id
      where nt.user_id = ${userId} and nt.note_id = notes.id)`,
    // A journal note stands for its whole trading day: the day's summed P&L and the symbols traded.
    dayPnl: sql<string | null>`case when ${notes.journalDate} is null then null else
      (select sum(d.pnl)::text from ${trades} d where d.user_id = ${userId}
        and d.trade_date >= ${dayStart(journalDay)} and d.trade_date < ${dayEnd(journalDay)}) end`,
    daySymbols: sql<string | null>`case when ${notes.journalDate} is null then null else
      (select string_agg(distinct d.symbol, ', ' order by d.symbol) from ${trades} d where d.user_id = ${userId}
        and d.trade_date >= ${dayStart(journalDay)} and d.trade_date < ${dayEnd(journalDay)}) end`,
  };

  function where(filter: NoteFilter): SQL {
    const parts: SQL[] = [owner];
    if (filter.folderId === 'none') parts.push(sql`${notes.folderId} is null`);
    else if (filter.folderId) parts.push(eq(notes.folderId, filter.folderId));
    if (filter.tradeId) parts.push(eq(notes.tradeId, filter.tradeId));
    if (filter.tagId) {
      parts.push(sql`exists (select 1 from ${noteTags} nt where nt.user_id = ${userId} and nt.note_id = notes.id and nt.tag_id = ${filter.tagId})`);
    }
    if (filter.tsquery) parts.push(sql`${notes.search} @@ to_tsquery('english', ${filter.tsquery})`);
    return and(...parts)!;
  }

  const base = () =>
    tx
      .select(listColumns)
      .from(notes)
      .leftJoin(trades, and(eq(trades.id, notes.tradeId), eq(trades.userId, userId)));

  /**
   * A page of the list: the page's ids are chosen first (an index range, or one ranking pass), and only those rows
   * get their tags and P&L. Computing them in the same query as the sort made a database without statistics (PGlite
   * is never analyzed) work them out for all 10,000 notes before keeping 50: 2.3 s instead of milliseconds.
   */
  function listPage(where: SQL, order: SQL, limit: number, offset = 0) {
    const page = tx.$with('note_page').as(
      tx
        .select({ pageId: sql<string>`${notes.id}`.as('page_id') })
        .from(notes)
        .where(where)
        .orderBy(order)
        .limit(limit)
        .offset(offset),
    );
    return tx
      .with(page)
      .select(listColumns)
      .from(page)
      .innerJoin(notes, eq(notes.id, page.pageId))
      .leftJoin(trades, and(eq(trades.id, notes.tradeId), eq(trades.userId, userId)))
      .orderBy(order);
  }

  return {
    /** A page in list order: newest change first. */
    page(filter: NoteFilter, limit: number, cursor?: NoteCursor) {
      const after = cursor ? sql`(${notes.updatedAt}, ${notes.id}) < (${cursor.updatedAt}::timestamptz, ${cursor.id}::uuid)` : undefined;
      return listPage(and(where(filter), after)!, sql`${notes.updatedAt} desc, ${notes.id} desc`, limit);
    },

    /** Search results, best match first (title words weigh more than body words), then newest. */
    ranked(filter: NoteFilter & { tsquery: string }, limit: number, offset: number) {
      const order = sql`ts_rank_cd(${notes.search}, to_tsquery('english', ${filter.tsquery})) desc, ${notes.updatedAt} desc, ${notes.id} desc`;
      return listPage(where(filter), order, limit, offset);
    },

    async find(id: string) {
      const [row] = await base().where(and(owner, eq(notes.id, id)));
      if (!row) return undefined;
      const [body] = await tx
        .select({ content: notes.content })
        .from(notes)
        .where(and(owner, eq(notes.id, id)));
      return { ...row, content: body?.content ?? '' };
    },

    /** The daily journal's note of a trading day (one per date), or undefined before its first Save. */
    journalNote: (date: string) =>
      tx
        .select({ id: notes.id, title: notes.title, content: notes.content, folderId: notes.folderId, updatedAt: notes.updatedAt })
        .from(notes)
        .where(and(owner, eq(notes.journalDate, date)))
        .orderBy(desc(notes.updatedAt))
        .then((rows) => rows[0]),

    /** The bodies of these notes, by id (the list leaves bodies out). */
    async contents(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: notes.id, content: notes.content })
        .from(notes)
        .where(and(owner, inArray(notes.id, ids)));
      return new Map(rows.map((r) => [r.id, r.content]));
    },

    /**
     * The note's updated_at when it was saved after `base` (an updated_at as the API wrote it, to the millisecond:
     * the column keeps microseconds), else null.
     */
    async savedSince(id: string, base: string): Promise<string | null> {
      const [row] = await tx
        .select({ updatedAt: notes.updatedAt })
        .from(notes)
        .where(and(owner, eq(notes.id, id), sql`${notes.updatedAt} >= ${base}::timestamptz + interval '1 millisecond'`));
      return row ? new Date(row.updatedAt).toISOString() : null;
    },

    /** The note, locked against a concurrent delete until the transaction ends. */
    async lock(id: string): Promise<boolean> {
      const rows = await tx
        .select({ id: notes.id })
        .from(notes)
        .where(and(owner, eq(notes.id, id)))
        .for('update');
      return rows.length > 0;
    },

    async insert(values: { title: string; content: string; folderId: string | null; tradeId: string | null; journalDate?: string | null }) {
      const [row] = await tx
        .insert(notes)
        .values({ ...values, userId })
        .returning({ id: notes.id });
      return row!.id;
    },

    async update(id: string, values: Partial<{ title: string; content: string; folderId: string | null; tradeId: string | null }>) {
      await tx
        .update(notes)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(owner, eq(notes.id, id)));
    },

    async remove(id: string): Promise<boolean> {
      const rows = await tx
        .delete(notes)
        .where(and(owner, eq(notes.id, id)))
        .returning({ id: notes.id });
      return rows.length > 0;
    },

    /** Note_tags are deleted by note, then the new set inserted. */
    async replaceTags(noteId: string, tagIds: string[]) {
      await tx.delete(noteTags).where(and(eq(noteTags.userId, userId), eq(noteTags.noteId, noteId)));
      if (tagIds.length > 0) await tx.insert(noteTags).values(tagIds.map((tagId) => ({ noteId, tagId, userId })));
    },

    /** Urls of the note's attachments (the uploaded files are removed after the note is deleted). */
    attachmentUrls: (noteId: string) =>
      tx
        .select({ url: attachments.url })
        .from(attachments)
        .where(and(eq(attachments.userId, userId), eq(attachments.noteId, noteId)))
        .then((rows) => rows.map((r) => r.url)),

    // --- references, each held with a key-share lock so a concurrent delete waits for this write ---

    async folderExists(id: string): Promise<boolean> {
      const rows = await tx
        .select({ id: noteFolders.id })
        .from(noteFolders)
        .where(and(eq(noteFolders.userId, userId), eq(noteFolders.id, id)))
        .for('key share');
      return rows.length > 0;
    },

    async tradeExists(id: string): Promise<boolean> {
      const rows = await tx
        .select({ id: trades.id })
        .from(trades)
        .where(and(eq(trades.userId, userId), eq(trades.id, id)))
        .for('key share');
      return rows.length > 0;
    },

    /** How many of these tag ids are the trader's. */
    async ownedTagCount(ids: string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await tx
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.userId, userId), inArray(tags.id, ids)))
        .for('key share');
      return rows.length;
    },
  };
};

/** Folders (list ordered by name, create, get by name, update, delete). */
export const foldersRepo = (tx: Tx, userId: string) => {
  const owner = eq(noteFolders.userId, userId);
  const columns = {
    id: noteFolders.id,
    name: noteFolders.name,
    createdAt: noteFolders.createdAt,
    noteCount: sql<number>`(select count(*)::int from ${notes} n where n.user_id = ${userId} and n.folder_id = note_folders.id)`,
  };
  return {
    list: () => tx.select(columns).from(noteFolders).where(owner).orderBy(asc(noteFolders.name), asc(noteFolders.id)),

    find: (id: string) =>
      tx
        .select(columns)
        .from(noteFolders)
        .where(and(owner, eq(noteFolders.id, id)))
        .then((rows) => rows[0]),

    /** The new folder's id, or null when the trader already has a folder of that name. */
    async insert(name: string): Promise<string | null> {
      const rows = await tx.insert(noteFolders).values({ userId, name }).onConflictDoNothing().returning({ id: noteFolders.id });
      return rows[0]?.id ?? null;
    },

    /**
     * The folder of this name, created when missing. Safe under concurrent calls: the loser of the insert race
     * waits on the unique index, inserts nothing, and then reads the winner's row (a new snapshot per statement).
     */
    async getOrCreate(name: string): Promise<string> {
      await tx.insert(noteFolders).values({ userId, name }).onConflictDoNothing();
      const [row] = await tx
        .select({ id: noteFolders.id })
        .from(noteFolders)
        .where(and(owner, eq(noteFolders.name, name)));
      return row!.id;
    },

    async rename(id: string, name: string): Promise<'ok' | 'missing' | 'taken'> {
      const clash = await tx
        .select({ id: noteFolders.id })
        .from(noteFolders)
        .where(and(owner, eq(noteFolders.name, name), sql`${noteFolders.id} <> ${id}`));
      if (clash.length > 0) return 'taken';
      const rows = await tx
        .update(noteFolders)
        .set({ name })
        .where(and(owner, eq(noteFolders.id, id)))
        .returning({ id: noteFolders.id });
      return rows.length > 0 ? 'ok' : 'missing';
    },

    async remove(id: string): Promise<boolean> {
      const rows = await tx
        .delete(noteFolders)
        .where(and(owner, eq(noteFolders.id, id)))
        .returning({ id: noteFolders.id });
      return rows.length > 0;
    },
  };
};

/** Tags (list ordered by name, upsert on (user_id, name)). */
export const tagsRepo = (tx: Tx, userId: string) => {
  const owner = eq(tags.userId, userId);
  return {
    list: () => tx.select({ id: tags.id, name: tags.name }).from(tags).where(owner).orderBy(asc(tags.name), asc(tags.id)),

    /** The tag of this name, created when missing; `created` says which. */
    async upsert(name: string): Promise<{ id: string; name: string; created: boolean }> {
      const inserted = await tx.insert(tags).values({ userId, name }).onConflictDoNothing().returning({ id: tags.id, name: tags.name });
      if (inserted[0]) return { ...inserted[0], created: true };
      const [existing] = await tx
        .select({ id: tags.id, name: tags.name })
        .from(tags)
        .where(and(owner, eq(tags.name, name)));
      return { ...existing!, created: false };
    },
  };
};

export type NoteListRow = Awaited<ReturnType<ReturnType<typeof notesRepo>['page']>>[number];

const iso = (value: string) => new Date(value).toISOString();
const money = (value: string | null) => (value === null ? null : centsToDecimalString(toCents(value)));

/**
 * A row of the notes list (a note without its body): net_pl and stocks_traded come from
 * the linked trade, or, for a daily-journal note, from that day's trades.
 */
export function toNoteSummary(row: NoteListRow): NoteSummary {
  const linked = row.tradeId !== null && row.tradeSymbol !== null;
  return {
    id: row.id,
    title: row.title,
    folder_id: row.folderId,
    trade_id: row.tradeId,
    journal_date: row.journalDate,
    net_pl: linked ? money(row.tradePnl) : money(row.dayPnl),
    stocks_traded: linked ? row.tradeSymbol : row.daySymbols,
    tags: row.tags,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
export type NoteSummaryDto = ReturnType<typeof toNoteSummary>;
