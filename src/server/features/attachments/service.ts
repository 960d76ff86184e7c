import crypto from 'node:crypto';
import type { ImageType } from '../../../domain/files/image-type';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import type { FileStorage } from '../../storage';
import {
  ATTACHMENT_FILE_NAME,
  ATTACHMENT_FILES_PATH,
  attachmentStorageKey,
  attachmentsRepo,
  removeStoredFiles,
  toAttachmentDto,
  type AttachmentTarget,
} from '../../core/attachments/repo';

type TargetInput = { note_id?: string; trade_id?: string; playbook_id?: string };

const targetOf = (input: TargetInput): AttachmentTarget =>
  input.note_id
    ? { kind: 'note', id: input.note_id }
    : input.trade_id
      ? { kind: 'trade', id: input.trade_id }
      : { kind: 'playbook', id: input.playbook_id! };

const missingText = { note: 'Note not found', trade: 'Trade not found', playbook: 'Playbook not found' } as const;
const missing = (target: AttachmentTarget) => missingText[target.kind];
const field = (target: AttachmentTarget) => `${target.kind}_id`;

export const attachmentsService = {
  async list(db: Database, userId: string, input: TargetInput) {
    const target = targetOf(input);
    return db.withUser(userId, async (tx) => {
      const repo = attachmentsRepo(tx, userId);
      if (!(await repo.targetExists(target))) throw notFound(missing(target));
      return (await repo.list(target)).map(toAttachmentDto);
    });
  },

  /** Insert {user_id, note_id or trade_id (or playbook_id), url, caption}. */
  async addUrl(db: Database, userId: string, input: TargetInput & { url: string; caption?: string | null }) {
    const target = targetOf(input);
    return db.withUser(userId, async (tx) => {
      const repo = attachmentsRepo(tx, userId);
      if (!(await repo.targetExists(target))) throw badRequest(`${field(target)}: ${missing(target)}`);
      return toAttachmentDto(await repo.insert(target, input.url, input.caption || null));
    });
  },

  /**
   * An uploaded image (its type already checked from its bytes): the target is checked first, so no file is stored
   * for a note, trade or playbook that is not the trader's; a failed insert removes the stored file again.
   */
  async addUpload(
    db: Database,
    storage: FileStorage,
    userId: string,
    input: TargetInput & { caption?: string | null },
    upload: { bytes: Uint8Array; type: ImageType },
  ) {
    const target = targetOf(input);
    const file = `${crypto.randomUUID()}.${upload.type.ext}`;
    return db.withUser(userId, async (tx) => {
      const repo = attachmentsRepo(tx, userId);
      if (!(await repo.targetExists(target))) throw badRequest(`${field(target)}: ${missing(target)}`);
      await storage.put(attachmentStorageKey(userId, file), upload.bytes);
      try {
        return toAttachmentDto(await repo.insert(target, `${ATTACHMENT_FILES_PATH}${file}`, input.caption || null));
      } catch (error) {
        await storage.remove(attachmentStorageKey(userId, file)).catch(() => undefined);
        throw error;
      }
    });
  },

  async remove(db: Database, storage: FileStorage, userId: string, id: string) {
    const row = await db.withUser(userId, (tx) => attachmentsRepo(tx, userId).remove(id));
    if (!row) throw notFound('Attachment not found');
    await removeStoredFiles(storage, userId, [row.url]);
  },

  /**
   * An uploaded file, from the signed-in trader's own folder only (the owner comes from the session), and only while
   * an attachment still holds it: the image of a deleted trade (its rows go with it) is not served any more.
   */
  async readFile(db: Database, storage: FileStorage, userId: string, file: string) {
    if (!ATTACHMENT_FILE_NAME.test(file)) throw notFound();
    const attached = await db.withUser(userId, (tx) => attachmentsRepo(tx, userId).hasUrl(`${ATTACHMENT_FILES_PATH}${file}`));
    if (!attached) return null;
    return storage.get(attachmentStorageKey(userId, file));
  },
};
