import { z } from 'zod';
import { equityReport, overviewReport } from './reports';
import { MAX_COMPARE_SETS } from '../domain/reports/compare-sets';
import { reportFilterText } from './report-filter-text';

/**
 * GET /api/reports/compare?a=...&b=...[&c=...][&d=...]: each set a Reports filter as its URL text (encoded), A and B
 * always, C only with B, D only with C, so the sets keep their letters.
 */
export const compareQuery = z
  .object({ a: reportFilterText, b: reportFilterText, c: reportFilterText.optional(), d: reportFilterText.optional() })
  .refine((q) => q.d === undefined || q.c !== undefined, { message: 'give set c before set d', path: ['d'] });

/** One set's answer: the Overview's figures of its trades (as GET /api/reports/overview answers them) and its equity curve. */
export const compareSet = overviewReport.extend({ equity: equityReport.shape.equity });
/** GET /api/reports/compare: the sets in the order asked (A, B, C, D). */
export const compareReport = z.strictObject({ sets: z.array(compareSet).min(2).max(MAX_COMPARE_SETS) });

export type CompareQuery = z.infer<typeof compareQuery>;
export type CompareSet = z.infer<typeof compareSet>;
export type CompareReport = z.infer<typeof compareReport>;
