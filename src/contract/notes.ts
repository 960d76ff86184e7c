import { z } from 'zod';
import { FOLDER_NAME_MAX, NOTE_CONTENT_MAX, NOTE_TITLE_MAX, TAG_NAME_MAX, normalizeName } from '../domain/notes';
import { attachment } from './attachments';
import { decimal, instant, instantInput } from './common';

/**
 * The notes layer's contract: /api/notes, /api/note-folders, /api/tags.
 * Money as decimal strings.
 */

const name = (label: string, max: number) =>
  z
    .string({ error: `${label} name is required` })
    .transform(normalizeName)
    .pipe(z.string().min(1, `${label} name is required`).max(max, `${label} name must be at most ${max} characters`));

/** POST and PATCH /api/note-folders */
export const folderInput = z.object({ name: name('Folder', FOLDER_NAME_MAX) });
/** POST /api/tags */
export const tagInput = z.object({ name: name('Tag', TAG_NAME_MAX) });

const title = z.string().max(NOTE_TITLE_MAX, `must be at most ${NOTE_TITLE_MAX} characters`);
const content = z.string().max(NOTE_CONTENT_MAX, `must be at most ${NOTE_CONTENT_MAX.toLocaleString('en-US')} characters`);
const tagIds = z.array(z.uuid('tag_ids must be tag ids')).max(100, 'at most 100 tags on a note');

/** POST /api/notes */
export const noteInput = z.object({
  title: title.default(''),
  content: content.default(''),
  folder_id: z.uuid('folder_id must be a folder id').nullable().optional(),
  trade_id: z.uuid('trade_id must be a trade id').nullable().optional(),
  // Saving replaces the note's tag set.
  tag_ids: tagIds.optional(),
});
/**
 * The updated_at of the saved version the trader's text grew from. When the note was saved again
 * since (another tab, another device), the save is refused with 409 `note-changed` rather than replacing newer words.
 */
export const baseUpdatedAt = instantInput('must be the updated_at of the note the text was based on');

/** PATCH /api/notes/:id */
export const notePatch = z.object({
  base_updated_at: baseUpdatedAt.optional(),
  title: title.optional(),
  content: content.optional(),
  folder_id: z.uuid('folder_id must be a folder id').nullable().optional(),
  trade_id: z.uuid('trade_id must be a trade id').nullable().optional(),
  tag_ids: tagIds.optional(),
});
/** GET /api/notes */
export const noteListQuery = z.object({
  // 'none' lists the notes outside any folder.
  folder_id: z.union([z.literal('none'), z.uuid('folder_id must be a folder id or none')]).optional(),
  tag_id: z.uuid('tag_id must be a tag id').optional(),
  trade_id: z.uuid('trade_id must be a trade id').optional(),
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(300).optional(),
});
export const noteIdParam = z.object({ id: z.uuid('id must be a note id') });
export const folderIdParam = z.object({ id: z.uuid('id must be a folder id') });

/** POST /api/notes/draft: 'Write with AI' (the notebook's AI button drafts with the configured provider). */
export const draftInput = z.object({
  title: title.default(''),
  content: content.default(''),
  instruction: z.string().max(2000, 'must be at most 2,000 characters').default(''),
  trade_id: z.uuid('trade_id must be a trade id').nullable().optional(),
});
/** POST /api/notes/draft without Accept: text/event-stream. */
export const draftResult = z.strictObject({ text: z.string() });
/**
 * POST /api/notes/draft with Accept: text/event-stream: each event before `data: [DONE]`. `restart`: the provider's
 * stream broke and the fallback starts the draft over.
 */
export const draftEvent = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), delta: z.string() }),
  z.strictObject({ type: z.literal('restart') }),
  z.strictObject({ type: z.literal('done') }),
  z.strictObject({ type: z.literal('error'), status: z.number().int(), message: z.string() }),
]);

/** GET /api/tags, POST /api/tags */
export const tagRef = z.strictObject({ id: z.uuid(), name: z.string() });
export const tagList = z.array(tagRef);

/** A row of the notes list: net_pl and stocks_traded come from the linked trade, or the journal day's trades. */
export const noteSummary = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  folder_id: z.uuid().nullable(),
  trade_id: z.uuid().nullable(),
  /** yyyy-MM-dd for a daily-journal note. */
  journal_date: z.iso.date().nullable(),
  net_pl: decimal.nullable(),
  stocks_traded: z.string().nullable(),
  tags: z.array(tagRef),
  created_at: instant,
  updated_at: instant,
});

/** A trade as the notebook and the journal read it. */
export const noteTrade = z.strictObject({
  id: z.uuid(),
  symbol: z.string(),
  pnl: decimal,
  status: z.string(),
  notes: z.string(),
  trade_date: instant,
  date: z.iso.date(),
});

/** GET /api/notes/:id, POST and PATCH /api/notes: the whole note. */
export const note = noteSummary.extend({
  content: z.string(),
  trade: noteTrade.nullable(),
  attachments: z.array(attachment),
});

/** GET /api/notes */
export const notePage = z.strictObject({ notes: z.array(noteSummary), next_cursor: z.string().nullable() });

/** GET /api/note-folders, POST and PATCH */
export const noteFolder = z.strictObject({ id: z.uuid(), name: z.string(), note_count: z.number().int().nonnegative(), created_at: instant });
export const noteFolderList = z.array(noteFolder);

export type NoteInput = z.infer<typeof noteInput>;
export type NotePatch = z.infer<typeof notePatch>;
export type NoteListQuery = z.infer<typeof noteListQuery>;
export type DraftInput = z.infer<typeof draftInput>;
export type DraftResult = z.infer<typeof draftResult>;
export type DraftEvent = z.infer<typeof draftEvent>;
export type TagRef = z.infer<typeof tagRef>;
export type NoteSummary = z.infer<typeof noteSummary>;
export type NoteTrade = z.infer<typeof noteTrade>;
export type Note = z.infer<typeof note>;
export type NotePage = z.infer<typeof notePage>;
export type NoteFolder = z.infer<typeof noteFolder>;
