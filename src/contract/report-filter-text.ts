import { z } from 'zod';
import { readReportFilterParams } from '../domain/reports/filter';
import { reportFilter } from './reports';

/** The longest Reports filter read as text: far more than every filter key set at once. */
export const FILTER_TEXT_MAX = 4000;

/**
 * A Reports filter given as its URL text ('range=this-month&symbol=NQ', a leading '?' allowed), read exactly as the
 * reports' endpoints read their query. A bad parameter is named inside the field's message ('range: ...').
 */
export const reportFilterText = z
  .string({ error: 'must be a Reports filter as URL text' })
  .max(FILTER_TEXT_MAX, `must be at most ${FILTER_TEXT_MAX} characters`)
  .transform((text, ctx) => {
    const parsed = reportFilter.safeParse(readReportFilterParams(new URLSearchParams(text)));
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    ctx.addIssue({ code: 'custom', message: `${issue.path.map(String).join('.') || 'filter'}: ${issue.message}` });
    return z.NEVER;
  });
