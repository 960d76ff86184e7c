import { z } from 'zod';
import { NOTE_CONTENT_MAX } from '../domain/notes';
import { accountFilter, calendarDay, decimal, instant, instantInput } from './common';

/** The daily journal's contract. */

/** A calendar date that exists (2025-02-30 is refused, and year 0, which was a 500), as yyyy-MM-dd. */
const day = calendarDay('must be a date as yyyy-MM-dd that exists');

/** GET /api/journal/days: `account` narrows the days and their sums to one account (or to trades without one). */
export const journalDaysQuery = z.object({ date: day.optional(), account: accountFilter });
export const journalDateParam = z.object({ date: day });
/** GET /api/journal/:date */
export const journalDayQuery = z.object({ account: accountFilter });
/** PUT /api/journal/:date */
export const journalNoteInput = z.object({
  /**
   * The updated_at of the day's note the text grew from, or null when the day had none; when the
   * note changed since, the save is refused with 409 `note-changed`. Left out: no check.
   */
  base_updated_at: instantInput('must be the updated_at of the note the text was based on, or null').nullable().optional(),
  content: z.string({ error: 'content is required' }).max(NOTE_CONTENT_MAX, `must be at most ${NOTE_CONTENT_MAX.toLocaleString('en-US')} characters`),
});

/** One day of the day list: its trades summed, and whether it has a journal note. */
export const journalDay = z.strictObject({ date: z.iso.date(), trades: z.number().int().nonnegative(), pnl: decimal, has_note: z.boolean() });
/** GET /api/journal/days: newest first. */
export const journalDays = z.strictObject({ days: z.array(journalDay) });

export const journalNote = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  content: z.string(),
  folder_id: z.uuid().nullable(),
  updated_at: instant,
});

/** One trade of a journal day: what it was, and its execution where it has one. Money and prices exact. */
export const journalTrade = z.strictObject({
  id: z.uuid(),
  symbol: z.string(),
  /** Net of commission. */
  pnl: decimal,
  status: z.string(),
  period: z.string(),
  trade_type: z.string(),
  contract: z.string().nullable(),
  entry_time: instant.nullable(),
  exit_time: instant.nullable(),
  quantity: decimal.nullable(),
  entry_price: decimal.nullable(),
  exit_price: decimal.nullable(),
  gross_pnl: decimal.nullable(),
  /** Absolute. */
  commission: decimal,
  /** The trade's account (null: none), named so that the same trade in two accounts reads as two. */
  account_id: z.uuid().nullable(),
  account_name: z.string().nullable(),
});

/** GET /api/journal/:date: the day's trades, their summed P&L and the journal note (null before the first Save). */
export const journalDayDetail = z.strictObject({
  date: z.iso.date(),
  pnl: decimal,
  trades: z.array(journalTrade),
  note: journalNote.nullable(),
});
/** 409 of PATCH /api/notes/:id and PUT /api/journal/:date: the note was saved elsewhere after the text began. */
export const noteChanged = z.strictObject({
  error: z.string(),
  code: z.literal('note-changed'),
  /** The saved note's updated_at now (null: the journal day's note was deleted). */
  updated_at: instant.nullable(),
});

/** PUT /api/journal/:date */
export const journalSave = z.strictObject({ date: z.iso.date(), note: journalNote });

export type JournalDay = z.infer<typeof journalDay>;
export type JournalTrade = z.infer<typeof journalTrade>;
export type JournalDays = z.infer<typeof journalDays>;
export type JournalNote = z.infer<typeof journalNote>;
export type JournalDayDetail = z.infer<typeof journalDayDetail>;
export type JournalSave = z.infer<typeof journalSave>;
export type NoteChanged = z.infer<typeof noteChanged>;
