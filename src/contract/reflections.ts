import { z } from 'zod';
import type { AnalysisEvent, AnalysisReport, PeriodSummaryData, ReflectionPeriod, ReflectionsPageData } from '../domain/reflections';
import { REFLECTION_PERIODS } from '../domain/reflections';
import { accountFilter, agree, type Same } from './common';
import { playbookReportShape } from './playbooks';

/**
 * The reflections endpoints' contract: GET /api/reflections, /summary, PATCH /api/reflections/:tradeId,
 * POST /api/analyze-reflections. The answers are built by src/domain/reflections, whose types the server returns and
 * the web app reads; the schemas below describe them for the API tests, and the checks at the end make a schema that
 * drifts from the domain's types a type error. Money in integer cents.
 */

const period = z.enum(REFLECTION_PERIODS as ['day', 'week', 'month'], { error: 'period must be day, week or month' });
// Ten years of days back is far beyond any journal; a bound keeps the date arithmetic sane.
// A number, or its digits in a query string: true, null or [] are no offset (z.coerce read them as 1, 0 and 0).
const offset = z
  .preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: 'offset must be a whole number' })
      .int('offset must be a whole number')
      .min(0, 'offset must be 0 or more')
      .max(3660, 'offset must be at most 3660'),
  )
  .default(0);

/** GET /api/reflections and /summary */
export const reflectionsQuery = z.object({ period: period.default('week'), offset, account: accountFilter });
export const reflectionTradeIdParam = z.object({ tradeId: z.uuid('tradeId must be a trade id') });

const tag = z.string().trim().min(1, 'tags must not be blank').max(50, 'tags must be at most 50 characters each');
/** PATCH /api/reflections/:tradeId */
export const overridePatch = z
  .object({
    followed_rules: z.boolean({ error: 'followed_rules must be true, false or null' }).nullable().optional(),
    tags: z.array(tag, { error: 'tags must be a list of tags' }).max(20, 'tags must be at most 20').nullable().optional(),
    description: z.string({ error: 'description must be text' }).max(5000, 'description must be at most 5000 characters').nullable().optional(),
  })
  .strict()
  .refine((p) => p.followed_rules !== undefined || p.tags !== undefined || p.description !== undefined, 'Nothing to update');

/**
 * POST /api/analyze-reflections. Our page sends {period, offset, account}. The spec's analysis server took
 * {trades, timeframe}: `timeframe` is read as the period, and `trades` (reflections or trades with an
 * id) narrows the analysis to those of the trader's own trades; their contents are never trusted, the figures always
 * come from the database.
 */
export const analyzeInput = z
  .object({
    period: period.optional(),
    timeframe: period.optional(),
    offset,
    account: accountFilter,
    trades: z
      .array(z.object({ tradeId: z.uuid().optional(), id: z.string().max(100).optional() }).passthrough(), { error: 'trades must be a list' })
      .max(10_000, 'trades must be at most 10000')
      .optional(),
  })
  .strict();

const cents = z.number().int();
const count = z.number().int().nonnegative();
const percent = z.number().min(0).max(100);
const figures = { totalTrades: count, wins: count, losses: count, breakEvens: count, winRate: percent, pnlCents: cents };
const groupFigures = z.strictObject(figures);

export const reflection = z.strictObject({
  /** r-{tradeId}. */
  id: z.string(),
  tradeId: z.uuid(),
  date: z.iso.date(),
  day: z.string(),
  week: z.string(),
  symbol: z.string(),
  session: z.string(),
  type: z.string(),
  /** Long or Short, apart from the setup. */
  side: z.enum(['Long', 'Short']).nullable(),
  result: z.enum(['Win', 'Loss', 'BE']),
  followedRules: z.boolean().nullable(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  tags: z.array(z.string()),
  link: z.string(),
  pnlCents: cents,
  accountId: z.uuid().nullable(),
});

const totals = groupFigures.extend({
  grossProfitCents: cents,
  grossLossCents: cents,
  profitFactor: z.number().nonnegative().nullable(),
  averageWinCents: cents.nullable(),
  averageLossCents: cents.nullable(),
  largestWinCents: cents.nullable(),
  largestLossCents: cents.nullable(),
  tradingDays: count,
});
const adherence = z.strictObject({
  rated: count,
  followed: count,
  notFollowed: count,
  unrated: count,
  adherenceRate: percent.nullable(),
  whenFollowed: groupFigures,
  whenNotFollowed: groupFigures,
});
export const reflectionStatistics = z.strictObject({
  totals,
  byTimeOfDay: z.array(groupFigures.extend({ session: z.string() })),
  bySetupType: z.array(groupFigures.extend({ setup: z.string() })),
  byMarketCondition: z.array(groupFigures.extend({ day: z.string() })),
  byTag: z.array(groupFigures.extend({ tag: z.string() })),
  adherence,
});

export const periodComparison = z.strictObject({
  unit: z.enum(['week', 'month']),
  previous: z.array(
    z.strictObject({ from: z.iso.date(), to: z.iso.date(), totalTrades: count, wins: count, losses: count, winRate: percent, pnlCents: cents }),
  ),
  previousAverage: z.strictObject({ totalTrades: z.number().nonnegative(), winRate: percent, pnlCents: cents }),
  winRateChange: z.number().nullable(),
  pnlChangeCents: cents,
  text: z.string(),
});

const periodFields = {
  period,
  offset: z.number().int().nonnegative(),
  label: z.string(),
  from: z.iso.date(),
  to: z.iso.date(),
  account: z.string(),
  accountName: z.string(),
};

/** GET /api/reflections */
export const reflectionsPage = z.strictObject({
  ...periodFields,
  timeZone: z.string(),
  reflections: z.array(reflection),
  statistics: reflectionStatistics,
  comparison: periodComparison.nullable(),
  insights: z.array(
    z.strictObject({
      kind: z.enum(['best-performance', 'review-plan', 'fomo', 'rules-broken', 'rate-your-trades']),
      tone: z.enum(['positive', 'warning', 'neutral']),
      text: z.string(),
    }),
  ),
});

/** GET /api/reflections/summary */
export const periodSummary = z.strictObject({
  label: z.string(),
  from: z.iso.date(),
  to: z.iso.date(),
  headline: z.string(),
  lines: z.array(z.string()),
});

/** PATCH /api/reflections/:tradeId: the trade's reflection override as stored. */
export const reflectionOverride = z.strictObject({
  trade_id: z.uuid(),
  followed_rules: z.boolean().nullable(),
  tags: z.array(z.string()).nullable(),
  description: z.string().nullable(),
  updated_at: z.iso.datetime(),
});

/** A group's figures in an analysis: its wins and losses say whether it has a win rate at all. */
const analysisGroup = { totalTrades: count, wins: count, losses: count, winRate: percent, pnlCents: cents };

export const analysisResult = z.strictObject({
  summary: z.strictObject({ totalTrades: count, winRate: percent, patterns: z.array(z.string()) }),
  strengths: z.array(z.string()),
  weaknesses: z.array(z.string()),
  suggestions: z.array(z.string()),
  actionPlan: z.array(z.string()),
  statistics: z.strictObject({
    byTimeOfDay: z.array(z.strictObject({ session: z.string(), ...analysisGroup })),
    bySetupType: z.array(z.strictObject({ setup: z.string(), ...analysisGroup })),
    byMarketCondition: z.array(z.strictObject({ day: z.string(), ...analysisGroup })),
  }),
});

const rSummary = {
  trades: count,
  tradesWithRisk: count,
  tradesWithoutRisk: count,
  totalR: z.number().nullable(),
  expectancyR: z.number().nullable(),
  averageWinR: z.number().nullable(),
  averageLossR: z.number().nullable(),
  netCentsWithRisk: z.number().int(),
  profitFactorR: z.number().nonnegative().nullable(),
};
/** The analysis's tables in R. */
const rStatistics = z.strictObject({
  totals: z.strictObject(rSummary),
  byTimeOfDay: z.array(z.strictObject({ session: z.string(), ...rSummary })),
  bySetupType: z.array(z.strictObject({ setup: z.string(), ...rSummary })),
  byMarketCondition: z.array(z.strictObject({ day: z.string(), ...rSummary })),
  adherence: z.strictObject({ whenFollowed: z.strictObject(rSummary), whenNotFollowed: z.strictObject(rSummary) }),
  /** Against the previous four weeks or months in R; null for a day or a chosen set of trades. */
  comparison: z
    .strictObject({
      unit: z.enum(['week', 'month']),
      previous: z.array(z.strictObject({ from: z.iso.date(), to: z.iso.date(), ...rSummary })),
      previousAverageR: z.number().nullable(),
      changeR: z.number().nullable(),
      text: z.string(),
    })
    .nullable(),
});

/** The analysis, our figures around it, and where the prose came from. */
export const analysisReport = z.strictObject({
  ...periodFields,
  source: z.enum(['ai', 'local']),
  model: z.string().nullable(),
  analysis: analysisResult,
  totals,
  adherence,
  r: rStatistics,
  playbooks: z.array(z.strictObject({ id: z.uuid(), name: z.string(), report: playbookReportShape })),
  comparison: periodComparison.nullable(),
  notice: z.strictObject({ title: z.string(), message: z.string(), detail: z.string().optional() }).nullable(),
  /** Money or percentages in the AI's prose that Edgebook did not give it. */
  unverifiedFigures: z.array(z.string()),
  generatedAt: z.iso.datetime(),
});

/** POST /api/analyze-reflections without Accept: text/event-stream: the spec's {success, analysis}, and the report. */
export const analyzeResult = z.strictObject({ success: z.literal(true), analysis: analysisResult, report: analysisReport });

/** POST /api/analyze-reflections with Accept: text/event-stream: each event before `data: [DONE]`. */
export const analysisEvent = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('progress'), stage: z.string(), percent: percent }),
  z.strictObject({ type: z.literal('result'), report: analysisReport }),
  z.strictObject({ type: z.literal('error'), status: z.number().int(), message: z.string() }),
]);

export type ReflectionsQuery = z.infer<typeof reflectionsQuery>;
export type OverridePatch = z.infer<typeof overridePatch>;
export type AnalyzeInput = z.infer<typeof analyzeInput>;
export type ReflectionOverride = z.infer<typeof reflectionOverride>;
export type AnalyzeResult = z.infer<typeof analyzeResult>;
export type { AnalysisEvent, AnalysisReport, PeriodSummaryData, ReflectionPeriod, ReflectionsPageData };

/** The schemas and the domain's types must say the same, both ways: a drift on either side fails the type check. */
agree<Same<z.infer<typeof reflectionsPage>, ReflectionsPageData>>(true);
agree<Same<z.infer<typeof periodSummary>, PeriodSummaryData>>(true);
agree<Same<z.infer<typeof analysisReport>, AnalysisReport>>(true);
agree<Same<z.infer<typeof analysisEvent>, AnalysisEvent>>(true);
