import type { Attachment } from '../../../contract/attachments';
import { and, desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { attachments, notes, trades } from '../../db/schema';
import type { FileStorage } from '../../storage';

/** Uploaded images are served from here; the file name is the storage name under the owner's folder. */
export const ATTACHMENT_FILES_PATH = '/api/attachments/files/';
export const ATTACHMENT_FILE_NAME = /^[0-9a-f-]{36}\.(jpg|png|webp|gif)$/;

export type AttachmentTarget = { noteId: string; tradeId?: undefined } | { tradeId: string; noteId?: undefined };

/** attachments/{userId}/{file}: each trader's uploads in their own folder, like avatars. */
export const attachmentStorageKey = (userId: string, file: string) => `attachments/${userId}/${file}`;

type Row = typeof attachments.$inferSelect;

export function toAttachmentDto(row: Row): Attachment {
  return {
    id: row.id,
    note_id: row.noteId,
    trade_id: row.tradeId,
    url: row.url,
    caption: row.caption,
    uploaded: row.url.startsWith(ATTACHMENT_FILES_PATH),
    created_at: new Date(row.createdAt).toISOString(),
  };
}
export type AttachmentDto = ReturnType<typeof toAttachmentDto>;

/** Data access for attachments (spec part 2 §7: list by note or trade, newest first; insert; delete by id). */
export const attachmentsRepo = (tx: Tx, userId: string) => {
  const owner = eq(attachments.userId, userId);
  return {
    list: (target: AttachmentTarget) =>
      tx
        .select()
        .from(attachments)
        .where(and(owner, target.noteId ? eq(attachments.noteId, target.noteId) : eq(attachments.tradeId, target.tradeId!)))
        .orderBy(desc(attachments.createdAt), desc(attachments.id)),

    /** Whether the note or trade is the trader's, held with a key-share lock until the transaction ends. */
    async targetExists(target: AttachmentTarget): Promise<boolean> {
      const rows = target.noteId
        ? await tx.select({ id: notes.id }).from(notes).where(and(eq(notes.userId, userId), eq(notes.id, target.noteId))).for('key share')
        : await tx.select({ id: trades.id }).from(trades).where(and(eq(trades.userId, userId), eq(trades.id, target.tradeId!))).for('key share');
      return rows.length > 0;
    },

    async insert(target: AttachmentTarget, url: string, caption: string | null): Promise<Row> {
      const [row] = await tx
        .insert(attachments)
        .values({ userId, noteId: target.noteId ?? null, tradeId: target.tradeId ?? null, url, caption })
        .returning();
      return row!;
    },

    /** Whether one of the trader's attachments is this url (an uploaded file is served only while it is attached). */
    async hasUrl(url: string): Promise<boolean> {
      const rows = await tx.select({ id: attachments.id }).from(attachments).where(and(owner, eq(attachments.url, url))).limit(1);
      return rows.length > 0;
    },

    async remove(id: string): Promise<Row | undefined> {
      const [row] = await tx.delete(attachments).where(and(owner, eq(attachments.id, id))).returning();
      return row;
    },
  };
};

/** Removes the stored files behind uploaded attachments' urls (urls of other sites are left alone). */
export async function removeStoredFiles(storage: FileStorage, userId: string, urls: string[]) {
  for (const url of urls) {
    if (!url.startsWith(ATTACHMENT_FILES_PATH)) continue;
    const file = url.slice(ATTACHMENT_FILES_PATH.length);
    if (ATTACHMENT_FILE_NAME.test(file)) await storage.remove(attachmentStorageKey(userId, file)).catch(() => undefined);
  }
}
