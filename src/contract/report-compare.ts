import { z } from 'zod';
import { breakdownReport, equityReport, overviewReport } from './reports';
import { BREAKDOWNS } from '../domain/reports/breakdown';
import { MAX_COMPARE_SETS } from '../domain/reports/compare-sets';
import { reportFilterText } from './report-filter-text';

/**
 * GET /api/reports/compare?a=...[&b=...][&c=...][&d=...][&by=...]: each set a Reports filter as its URL text (encoded),
 * A always, C only with B, D only with C, so the sets keep their letters. `by` asks for each set's breakdown by that
 * dimension as well (the breakdowns side by side). The page asks for each set on its own (A only), so that a change to
 * one set's filter reads that set alone; several sets in one request answer them in order.
 */
export const compareQuery = z
  .object({
    a: reportFilterText,
    b: reportFilterText.optional(),
    c: reportFilterText.optional(),
    d: reportFilterText.optional(),
    by: z.enum(BREAKDOWNS, { error: `by must be one of ${BREAKDOWNS.join(', ')}` }).optional(),
  })
  .refine((q) => q.c === undefined || q.b !== undefined, { message: 'give set b before set c', path: ['c'] })
  .refine((q) => q.d === undefined || q.c !== undefined, { message: 'give set c before set d', path: ['d'] });

/**
 * One set's answer: the Overview's figures of its trades (as GET /api/reports/overview answers them), its equity curve
 * in dollars and in R trade by trade (as GET /api/reports/equity; the overlaid curves are drawn by trade, so the
 * day-by-day curves are left out of Compare's answer), and, when `by` was asked, its breakdown (as GET
 * /api/reports/breakdown).
 */
export const compareSet = overviewReport.extend({
  equity: equityReport.shape.equity.omit({ byDay: true }),
  equityR: equityReport.shape.r.omit({ byDay: true }),
  breakdown: breakdownReport.shape.breakdown.optional(),
});
/** GET /api/reports/compare: the sets in the order asked (A, B, C, D). */
export const compareReport = z.strictObject({ sets: z.array(compareSet).min(1).max(MAX_COMPARE_SETS) });

export type CompareQuery = z.infer<typeof compareQuery>;
export type CompareSet = z.infer<typeof compareSet>;
export type CompareReport = z.infer<typeof compareReport>;
