import { z } from 'zod';
import { NOTE_CONTENT_MAX } from '../../../domain/notes';

/** A calendar date that exists (2025-02-30 is refused), as yyyy-MM-dd. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as yyyy-MM-dd')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'must be a date that exists');

export const journalDaysQuery = z.object({ date: day.optional() });
export const journalDateParam = z.object({ date: day });
export const journalNoteInput = z.object({
  content: z.string({ error: 'content is required' }).max(NOTE_CONTENT_MAX, `must be at most ${NOTE_CONTENT_MAX.toLocaleString('en-US')} characters`),
});
