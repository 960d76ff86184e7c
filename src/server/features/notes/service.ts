import type { Note, NoteFolder, NotePage } from '../../../contract/notes';
import { isInstant } from '../../../domain/dates';
import type { Database, Tx } from '../../db/client';
import type { FileStorage } from '../../storage';
import { badRequest, conflict, notFound } from '../../http/errors';
import { tradesRepo } from '../../core/trades/repo';
import { attachmentsRepo, removeStoredFiles, toAttachmentDto } from '../../core/attachments/repo';
import {
  foldersRepo,
  notesRepo,
  tagsRepo,
  toNoteSummary,
  type NoteCursor,
  type NoteFilter,
  type NoteListRow as ListRow,
  type TagRef,
} from '../../core/notes/repo';
import type { NoteInput, NoteListQuery, NotePatch } from './schemas';

const iso = (value: string) => new Date(value).toISOString();

/**
 * The trader's words as a PostgreSQL text-search query: each word (letters and digits only, so nothing the
 * trader types is an operator) must match, the last ones as prefixes so results come while typing. Null when the
 * text has no word at all.
 */
export function toPrefixTsquery(text: string): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
  if (words.length === 0) return null;
  return words.map((w) => `${w}:*`).join(' & ');
}

function encodeCursor(row: ListRow): string {
  return Buffer.from(JSON.stringify([row.updatedAt, row.id])).toString('base64url');
}

/**
 * A cursor as encodeCursor wrote it. Its time is checked as PostgreSQL will read it, not with Date.parse, which takes
 * '1', '2026', '2026-02-30' and years PostgreSQL refuses: forged, each of those was a 500.
 */
function decodeCursor(cursor: string): NoteCursor {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  const [updatedAt, id] = Array.isArray(parts) ? parts : [];
  if (!isInstant(updatedAt) || typeof id !== 'string' || !UUID.test(id)) throw badRequest('cursor: invalid page cursor');
  return { updatedAt, id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decodeOffset(cursor: string): number {
  const match = /^o(\d{1,6})$/.exec(cursor);
  if (!match) throw badRequest('cursor: invalid page cursor');
  return Number(match[1]);
}

/** The 409 of a save whose text grew from an older version of the note (two tabs). */
export function noteChanged(updatedAt: string | null) {
  return conflict('This note was saved in another tab or device after you started editing it.', { code: 'note-changed', updated_at: updatedAt });
}

/** Checks every referenced folder, trade and tag is the trader's (400 naming the field otherwise). */
async function checkReferences(tx: Tx, userId: string, input: { folder_id?: string | null; trade_id?: string | null; tag_ids?: string[] }) {
  const repo = notesRepo(tx, userId);
  if (input.folder_id && !(await repo.folderExists(input.folder_id))) throw badRequest('folder_id: Folder not found');
  if (input.trade_id && !(await repo.tradeExists(input.trade_id))) throw badRequest('trade_id: Trade not found');
  if (input.tag_ids) {
    const unique = [...new Set(input.tag_ids)];
    if ((await repo.ownedTagCount(unique)) !== unique.length) throw badRequest('tag_ids: Tag not found');
    return unique;
  }
  return undefined;
}

/** The whole note: body, tags, the linked trade as the notebook reads it, its attachments. */
async function readNote(tx: Tx, userId: string, id: string): Promise<Note | undefined> {
  const row = await notesRepo(tx, userId).find(id);
  if (!row) return undefined;
  const trade = row.tradeId ? await tradesRepo(tx, userId).find(row.tradeId) : undefined;
  const files = await attachmentsRepo(tx, userId).list({ kind: 'note', id });
  return {
    ...toNoteSummary(row),
    content: row.content,
    trade: trade
      ? {
          id: trade.id,
          symbol: trade.symbol,
          pnl: trade.pnl,
          status: trade.status,
          notes: trade.notes,
          trade_date: iso(trade.tradeDate),
          date: iso(trade.tradeDate).slice(0, 10),
        }
      : null,
    attachments: files.map(toAttachmentDto),
  };
}
export type NoteDto = NonNullable<Awaited<ReturnType<typeof readNote>>>;

export const notesService = {
  async list(db: Database, userId: string, query: NoteListQuery): Promise<NotePage> {
    const filter: NoteFilter = { folderId: query.folder_id, tagId: query.tag_id, tradeId: query.trade_id };
    const text = query.q?.trim();
    return db.withUser(userId, async (tx) => {
      const repo = notesRepo(tx, userId);
      if (text) {
        const tsquery = toPrefixTsquery(text);
        if (!tsquery) return { notes: [], next_cursor: null };
        const offset = query.cursor ? decodeOffset(query.cursor) : 0;
        const rows = await repo.ranked({ ...filter, tsquery }, query.limit + 1, offset);
        return {
          notes: rows.slice(0, query.limit).map(toNoteSummary),
          next_cursor: rows.length > query.limit ? `o${offset + query.limit}` : null,
        };
      }
      const rows = await repo.page(filter, query.limit + 1, query.cursor ? decodeCursor(query.cursor) : undefined);
      const page = rows.slice(0, query.limit);
      return {
        notes: page.map(toNoteSummary),
        next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
      };
    });
  },

  async get(db: Database, userId: string, id: string) {
    const note = await db.withUser(userId, (tx) => readNote(tx, userId, id));
    if (!note) throw notFound('Note not found');
    return note;
  },

  /** A new note is created on its first Save (with its tags). */
  async create(db: Database, userId: string, input: NoteInput) {
    return db.withUser(userId, async (tx) => {
      const tagIds = await checkReferences(tx, userId, input);
      const repo = notesRepo(tx, userId);
      const id = await repo.insert({
        title: input.title,
        content: input.content,
        folderId: input.folder_id ?? null,
        tradeId: input.trade_id ?? null,
      });
      if (tagIds) await repo.replaceTags(id, tagIds);
      return (await readNote(tx, userId, id))!;
    });
  },

  /** Later Saves update the note; `tag_ids`, when sent, replaces its tag set. All in one transaction. */
  async update(db: Database, userId: string, id: string, patch: NotePatch) {
    return db.withUser(userId, async (tx) => {
      const repo = notesRepo(tx, userId);
      if (!(await repo.lock(id))) throw notFound('Note not found');
      if (patch.base_updated_at) {
        const newer = await repo.savedSince(id, patch.base_updated_at);
        if (newer) throw noteChanged(newer);
      }
      const tagIds = await checkReferences(tx, userId, patch);
      await repo.update(id, {
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.content !== undefined && { content: patch.content }),
        ...(patch.folder_id !== undefined && { folderId: patch.folder_id }),
        ...(patch.trade_id !== undefined && { tradeId: patch.trade_id }),
      });
      if (tagIds) await repo.replaceTags(id, tagIds);
      return (await readNote(tx, userId, id))!;
    });
  },

  /** Deletes the note with its tags and attachments, then the files it had uploaded. */
  async remove(db: Database, storage: FileStorage, userId: string, id: string) {
    const urls = await db.withUser(userId, async (tx) => {
      const repo = notesRepo(tx, userId);
      const owned = await repo.attachmentUrls(id);
      if (!(await repo.remove(id))) throw notFound('Note not found');
      return owned;
    });
    await removeStoredFiles(storage, userId, urls);
  },
};

export function toFolderDto(row: { id: string; name: string; createdAt: string; noteCount: number }): NoteFolder {
  return { id: row.id, name: row.name, note_count: row.noteCount, created_at: iso(row.createdAt) };
}

export const foldersService = {
  list: (db: Database, userId: string) => db.withUser(userId, async (tx) => (await foldersRepo(tx, userId).list()).map(toFolderDto)),

  async create(db: Database, userId: string, name: string) {
    return db.withUser(userId, async (tx) => {
      const repo = foldersRepo(tx, userId);
      const id = await repo.insert(name);
      if (!id) throw conflict(`A folder named "${name}" already exists`);
      return toFolderDto((await repo.find(id))!);
    });
  },

  async rename(db: Database, userId: string, id: string, name: string) {
    return db.withUser(userId, async (tx) => {
      const repo = foldersRepo(tx, userId);
      const result = await repo.rename(id, name);
      if (result === 'missing') throw notFound('Folder not found');
      if (result === 'taken') throw conflict(`A folder named "${name}" already exists`);
      return toFolderDto((await repo.find(id))!);
    });
  },

  /** The folder goes; its notes stay, outside any folder (ON DELETE SET NULL (folder_id)). */
  async remove(db: Database, userId: string, id: string) {
    const removed = await db.withUser(userId, (tx) => foldersRepo(tx, userId).remove(id));
    if (!removed) throw notFound('Folder not found');
  },
};

export const tagsService = {
  list: (db: Database, userId: string): Promise<TagRef[]> => db.withUser(userId, (tx) => tagsRepo(tx, userId).list()),
  upsert: (db: Database, userId: string, name: string) => db.withUser(userId, (tx) => tagsRepo(tx, userId).upsert(name)),
};
