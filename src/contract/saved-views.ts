import { z } from 'zod';
import { writeReportFilterParams } from '../domain/reports/filter';
import { SAVED_VIEW_NAME_MAX } from '../domain/reports/saved-views';
import { instant } from './common';
import { reportFilterText } from './report-filter-text';

/** The saved-views endpoints' contract. */

const name = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(SAVED_VIEW_NAME_MAX, `must be at most ${SAVED_VIEW_NAME_MAX} characters`);

/** The Reports filter as its URL text, kept as the Reports page writes it: a view opens exactly the filter it saved. */
const filter = reportFilterText.transform((parsed) => writeReportFilterParams(parsed).toString());

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
