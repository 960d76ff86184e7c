import { z } from 'zod';
import { REVIEW_MONTH, type MonthlyReview } from '../domain/reports/monthly-review';
import { agree, type Same } from './common';
import {
  breakdownReport,
  calendarReport,
  depthReport,
  equityReport,
  mistakesReport,
  normalizeReportFilter,
  reportBasis,
  reportFilterFields,
  reportOverviewShape,
} from './reports';

/**
 * GET /api/reports/monthly-review?month=2026-11 and the Reports filter: the month's trades of the filter. The month
 * sets the days, so a range, from or to in the query gives way to it; every other key of the filter narrows the trades
 * as it does in every report.
 */
export const monthlyReviewQuery = z
  .object({
    ...reportFilterFields,
    month: z.string({ error: 'month must be a month as yyyy-MM' }).regex(REVIEW_MONTH, 'month must be a month as yyyy-MM'),
  })
  .transform(({ month, ...fields }, ctx) => ({ month, filter: normalizeReportFilter(fields, ctx) }));
export type MonthlyReviewQuery = z.output<typeof monthlyReviewQuery>;

const breakdownRow = breakdownReport.shape.breakdown.shape.rows.element;
const ranked = <T extends z.ZodType>(row: T) => z.strictObject({ top: z.array(row), bottom: z.array(row) });
const playbookRow = z.strictObject({
  key: z.string(),
  label: z.string(),
  trades: z.number().int().nonnegative(),
  winRate: z.number().min(0).max(100).nullable(),
  netCents: z.number().int(),
});

export const monthlyReviewShape = z.strictObject({
  month: z.string().regex(REVIEW_MONTH),
  overview: reportOverviewShape,
  days: calendarReport.shape.calendar.shape.days,
  equity: equityReport.shape.equity.shape.byDay,
  instruments: ranked(breakdownRow),
  setups: ranked(breakdownRow),
  playbooks: ranked(playbookRow),
  streaks: depthReport.shape.depth.shape.streaks,
  mistakes: z.strictObject({
    rows: mistakesReport.shape.mistakes.shape.mistakes,
    tradesWithMistakes: z.number().int().nonnegative(),
  }),
});
agree<Same<z.infer<typeof monthlyReviewShape>, MonthlyReview>>(true);

/** The answer: what the month's figures are of (the filter with the month's days), and the review. */
export const monthlyReviewReport = z.strictObject({ basis: reportBasis, review: monthlyReviewShape });
export type MonthlyReviewReport = z.infer<typeof monthlyReviewReport>;
