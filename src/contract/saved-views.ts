import { z } from 'zod';
import { readReportFilterParams, writeReportFilterParams } from '../domain/reports/filter';
import { SAVED_VIEW_FILTER_MAX, SAVED_VIEW_NAME_MAX } from '../domain/reports/saved-views';
import { instant } from './common';
import { reportFilter } from './reports';

/** The saved-views endpoints' contract. */

const name = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(SAVED_VIEW_NAME_MAX, `must be at most ${SAVED_VIEW_NAME_MAX} characters`);

/**
 * The Reports filter as its URL text ('range=this-month&symbol=NQ'). It is read as the reports' endpoints read their
 * query, and kept as the Reports page writes it, so a view opens exactly the filter it was saved with.
 */
const filter = z
  .string({ error: 'filter must be the Reports filter as URL text' })
  .max(SAVED_VIEW_FILTER_MAX, `must be at most ${SAVED_VIEW_FILTER_MAX} characters`)
  .transform((text, ctx) => {
    const parsed = reportFilter.safeParse(readReportFilterParams(new URLSearchParams(text)));
    if (parsed.success) return writeReportFilterParams(parsed.data).toString();
    const issue = parsed.error.issues[0]!;
    ctx.addIssue({ code: 'custom', message: `${issue.path.map(String).join('.') || 'filter'}: ${issue.message}` });
    return z.NEVER;
  });

/** POST /api/saved-views */
export const savedViewInput = z.object({ name, filter: filter.default('') });
/** PATCH /api/saved-views/:id: a rename. */
export const savedViewPatch = z.object({ name });
export const savedViewIdParam = z.object({ id: z.uuid('id must be a saved view id') });

/** One view, as every saved-views endpoint answers it. */
export const savedView = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  filter: z.string(),
  created_at: instant,
  updated_at: instant,
});
/** GET /api/saved-views: in name order. */
export const savedViewList = z.array(savedView);

export type SavedViewBody = z.input<typeof savedViewInput>;
export type SavedView = z.infer<typeof savedView>;
