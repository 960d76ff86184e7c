import type { Attachment } from '../../../contract/attachments';
import { and, desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { attachments, notes, playbooks, trades } from '../../db/schema';
import type { FileStorage } from '../../storage';

/** Uploaded images are served from here; the file name is the storage name under the owner's folder. */
export const ATTACHMENT_FILES_PATH = '/api/attachments/files/';
export const ATTACHMENT_FILE_NAME = /^[0-9a-f-]{36}\.(jpg|png|webp|gif)$/;

export type AttachmentTarget = { kind: 'note' | 'trade' | 'playbook'; id: string };

/** Each owner kind's column of attachments and its own table, to check the owner row is the trader's. */
const ownerColumns = {
  note: { column: attachments.noteId, table: notes },
  trade: { column: attachments.tradeId, table: trades },
  playbook: { column: attachments.playbookId, table: playbooks },
} as const;

/** attachments/{userId}/{file}: each trader's uploads in their own folder, like avatars. */
export const attachmentStorageKey = (userId: string, file: string) => `attachments/${userId}/${file}`;

type Row = typeof attachments.$inferSelect;

export function toAttachmentDto(row: Row): Attachment {
  return {
    id: row.id,
    note_id: row.noteId,
    trade_id: row.tradeId,
    playbook_id: row.playbookId,
    url: row.url,
    caption: row.caption,
    uploaded: row.url.startsWith(ATTACHMENT_FILES_PATH),
    created_at: new Date(row.createdAt).toISOString(),
  };
}
export type AttachmentDto = ReturnType<typeof toAttachmentDto>;

/** Data access for attachments (list by note, trade or playbook, newest first; insert; delete by id). */
export const attachmentsRepo = (tx: Tx, userId: string) => {
  const owner = eq(attachments.userId, userId);
  return {
    list: (target: AttachmentTarget) =>
      tx
        .select()
        .from(attachments)
        .where(and(owner, eq(ownerColumns[target.kind].column, target.id)))
        .orderBy(desc(attachments.createdAt), desc(attachments.id)),

    /** One attachment, only when it belongs to this note, trade or playbook. */
    find: (target: AttachmentTarget, id: string) =>
      tx
        .select()
        .from(attachments)
        .where(and(owner, eq(ownerColumns[target.kind].column, target.id), eq(attachments.id, id)))
        .then((rows) => rows[0]),

    /** Whether the note, trade or playbook is the trader's, held with a key-share lock until the transaction ends. */
    async targetExists(target: AttachmentTarget): Promise<boolean> {
      const { table } = ownerColumns[target.kind];
      const rows = await tx
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.userId, userId), eq(table.id, target.id)))
        .for('key share');
      return rows.length > 0;
    },

    /** Urls of a playbook's attachments (its uploaded files are removed after the playbook is deleted). */
    playbookUrls: async (playbookId: string) =>
      (
        await tx
          .select({ url: attachments.url })
          .from(attachments)
          .where(and(owner, eq(attachments.playbookId, playbookId)))
      ).map((r) => r.url),

    async insert(target: AttachmentTarget, url: string, caption: string | null): Promise<Row> {
      const [row] = await tx
        .insert(attachments)
        .values({
          userId,
          noteId: target.kind === 'note' ? target.id : null,
          tradeId: target.kind === 'trade' ? target.id : null,
          playbookId: target.kind === 'playbook' ? target.id : null,
          url,
          caption,
        })
        .returning();
      return row!;
    },

    /** Whether one of the trader's attachments is this url (an uploaded file is served only while it is attached). */
    async hasUrl(url: string): Promise<boolean> {
      const rows = await tx
        .select({ id: attachments.id })
        .from(attachments)
        .where(and(owner, eq(attachments.url, url)))
        .limit(1);
      return rows.length > 0;
    },

    async remove(id: string): Promise<Row | undefined> {
      const [row] = await tx
        .delete(attachments)
        .where(and(owner, eq(attachments.id, id)))
        .returning();
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
