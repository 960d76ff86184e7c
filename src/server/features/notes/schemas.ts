import { z } from 'zod';
import { FOLDER_NAME_MAX, NOTE_CONTENT_MAX, NOTE_TITLE_MAX, TAG_NAME_MAX, normalizeName } from '../../../domain/notes';

/** The notes layer over the API (spec part 2 §3 "Notes layer tables", "Note (screen model)", §7 "Notes layer"). */

const name = (label: string, max: number) =>
  z
    .string({ error: `${label} name is required` })
    .transform(normalizeName)
    .pipe(z.string().min(1, `${label} name is required`).max(max, `${label} name must be at most ${max} characters`));

export const folderInput = z.object({ name: name('Folder', FOLDER_NAME_MAX) });
export const tagInput = z.object({ name: name('Tag', TAG_NAME_MAX) });

const title = z.string().max(NOTE_TITLE_MAX, `must be at most ${NOTE_TITLE_MAX} characters`);
const content = z.string().max(NOTE_CONTENT_MAX, `must be at most ${NOTE_CONTENT_MAX.toLocaleString('en-US')} characters`);
const tagIds = z.array(z.uuid('tag_ids must be tag ids')).max(100, 'at most 100 tags on a note');

export const noteInput = z.object({
  title: title.default(''),
  content: content.default(''),
  folder_id: z.uuid('folder_id must be a folder id').nullable().optional(),
  trade_id: z.uuid('trade_id must be a trade id').nullable().optional(),
  // Saving replaces the note's tag set (spec part 2 §4 "Notebook").
  tag_ids: tagIds.optional(),
});
export type NoteInput = z.infer<typeof noteInput>;

export const notePatch = z.object({
  title: title.optional(),
  content: content.optional(),
  folder_id: z.uuid('folder_id must be a folder id').nullable().optional(),
  trade_id: z.uuid('trade_id must be a trade id').nullable().optional(),
  tag_ids: tagIds.optional(),
});
export type NotePatch = z.infer<typeof notePatch>;

export const noteListQuery = z.object({
  // 'none' lists the notes outside any folder.
  folder_id: z.union([z.literal('none'), z.uuid('folder_id must be a folder id or none')]).optional(),
  tag_id: z.uuid('tag_id must be a tag id').optional(),
  trade_id: z.uuid('trade_id must be a trade id').optional(),
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(300).optional(),
});
export type NoteListQuery = z.infer<typeof noteListQuery>;

export const noteIdParam = z.object({ id: z.uuid('id must be a note id') });
export const folderIdParam = z.object({ id: z.uuid('id must be a folder id') });

/** 'Write with AI' (DESIGN.md: the notebook's AI button drafts with the configured provider). */
export const draftInput = z.object({
  title: title.default(''),
  content: content.default(''),
  instruction: z.string().max(2000, 'must be at most 2,000 characters').default(''),
  trade_id: z.uuid('trade_id must be a trade id').nullable().optional(),
});
export type DraftInput = z.infer<typeof draftInput>;
