import { z } from 'zod';
import { breakdownReport, equityReport, overviewReport } from './reports';
import { BREAKDOWNS } from '../domain/reports/breakdown';
import { MAX_COMPARE_SETS } from '../domain/reports/compare-sets';
import { reportFilterText } from './report-filter-text';

/**
 * GET /api/reports/compare?a=...&b=...[&c=...][&d=...][&by=...]: each set a Reports filter as its URL text (encoded), A
 * and B always, C only with B, D only with C, so the sets keep their letters. `by` asks for each set's breakdown by
 * that dimension as well (the breakdowns side by side).
 */
export const compareQuery = z
  .object({
    a: reportFilterText,
    b: reportFilterText,
    c: reportFilterText.optional(),
    d: reportFilterText.optional(),
    by: z.enum(BREAKDOWNS, { error: `by must be one of ${BREAKDOWNS.join(', ')}` }).optional(),
  })
  .refine((q) => q.d === undefined || q.c !== undefined, { message: 'give set c before set d', path: ['d'] });

/**
 * One set's answer: the Overview's figures of its trades (as GET /api/reports/overview answers them), its equity curve
 * in dollars and in R trade by trade (as GET /api/reports/equity; the overlaid curves are drawn by trade, so the
 * day-by-day curves are left out of four sets' answer), and, when `by` was asked, its breakdown (as GET
 * /api/reports/breakdown).
 */
export const compareSet = overviewReport.extend({
  equity: equityReport.shape.equity.omit({ byDay: true }),
  equityR: equityReport.shape.r.omit({ byDay: true }),
  breakdown: breakdownReport.shape.breakdown.optional(),
});
/** GET /api/reports/compare: the sets in the order asked (A, B, C, D). */
export const compareReport = z.strictObject({ sets: z.array(compareSet).min(2).max(MAX_COMPARE_SETS) });

export type CompareQuery = z.infer<typeof compareQuery>;
export type CompareSet = z.infer<typeof compareSet>;
export type CompareReport = z.infer<typeof compareReport>;
