import { z } from 'zod';
import { isWebUrl } from '../domain/links/quick-links';
import { instant } from './common';

/** The attachments endpoints' contract: images on notes, trades and playbooks, by URL or uploaded. */

const caption = z.string().trim().max(300, 'must be at most 300 characters').nullable().optional();
const noteId = z.uuid('note_id must be a note id').optional();
const tradeId = z.uuid('trade_id must be a trade id').optional();
const playbookId = z.uuid('playbook_id must be a playbook id').optional();

/** Exactly one of note_id, trade_id and playbook_id: an attachment belongs to a note, a trade or a playbook. */
const oneTarget = (v: { note_id?: string; trade_id?: string; playbook_id?: string }) =>
  [v.note_id, v.trade_id, v.playbook_id].filter((id) => id !== undefined).length === 1;
const oneTargetError = { error: 'note_id, trade_id or playbook_id is required (one of them)', path: ['note_id'] };

/** POST /api/attachments */
export const attachmentUrlInput = z
  .object({
    note_id: noteId,
    trade_id: tradeId,
    playbook_id: playbookId,
    url: z
      .string({ error: 'Image URL is required' })
      .trim()
      .min(1, 'Image URL is required')
      .refine(isWebUrl, 'Only http and https image addresses can be attached'),
    caption,
  })
  .refine(oneTarget, oneTargetError);
/** POST /api/attachments/upload: the text fields of the multipart form. */
export const attachmentUploadFields = z
  .object({ note_id: noteId, trade_id: tradeId, playbook_id: playbookId, caption })
  .refine(oneTarget, oneTargetError);
/** GET /api/attachments */
export const attachmentListQuery = z.object({ note_id: noteId, trade_id: tradeId, playbook_id: playbookId }).refine(oneTarget, oneTargetError);
export const attachmentIdParam = z.object({ id: z.uuid('id must be an attachment id') });
/** GET /api/attachments/files/:file (a name that is none of ours is not found, 404). */
export const attachmentFileParam = z.object({ file: z.string() });

/** One attachment, as every attachments endpoint (and a note, a trade's page and a playbook's) answers it. */
export const attachment = z.strictObject({
  id: z.uuid(),
  note_id: z.uuid().nullable(),
  trade_id: z.uuid().nullable(),
  playbook_id: z.uuid().nullable(),
  url: z.string(),
  caption: z.string().nullable(),
  /** Stored by us (served from /api/attachments/files/...), as opposed to an image URL. */
  uploaded: z.boolean(),
  created_at: instant,
});
/** GET /api/attachments */
export const attachmentList = z.array(attachment);

export type Attachment = z.infer<typeof attachment>;
