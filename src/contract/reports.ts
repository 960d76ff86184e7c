import { z } from 'zod';
import { BREAKDOWNS, type Breakdown } from '../domain/reports/breakdown';
import { CURRENCIES } from '../domain/reports/currency';
import { DISTRIBUTIONS } from '../domain/reports/distribution';
import {
  DATE_PRESETS,
  HOLD_BUCKET_IDS,
  MARKET_GROUPINGS,
  MAX_R_BOUND,
  NEWS_MODES,
  NEWS_WINDOWS,
  R_BOUND,
  TAG_MODES,
  TRADE_RESULTS,
  UNASSIGNED,
  WITH_WITHOUT,
  type ReportFilter,
} from '../domain/reports/filter';
import type { ExcursionSummary } from '../domain/market/excursion-summary';
import type { YearCalendar } from '../domain/reports/calendar';
import type { EquityRSeries } from '../domain/reports/equity';
import type { Heatmap } from '../domain/reports/heatmap';
import type { DepthReport } from '../domain/reports/depth';
import type { ReportOverview } from '../domain/reports/overview';
import type { ROverview } from '../domain/reports/r-multiples';
import type { MistakesReport as DomainMistakesReport } from '../domain/reports/mistakes';
import type { RPeriods } from '../domain/risk/r-summary';
import { agree, awaitingUndo, calendarDay, type Same } from './common';

/**
 * The reports' contract: the one filter model, parsed here for every endpoint that takes it (the reports,
 * the Trade Log's list and statistics, the AI's report tool), and each report's answer. The filter's keys are the
 * URL's parameter names: lists repeat the parameter (?symbol=NQ&symbol=ES), so a value may hold a comma. A bad value
 * is a 400 that names the parameter ("hour.0: must be a whole hour from 0 to 23").
 */

const MAX_VALUES = 100;
const list = <T extends z.ZodType>(item: T, name: string) => z.array(item).max(MAX_VALUES, `${name}: at most ${MAX_VALUES} values`).default([]);
const text = (max: number, name: string) =>
  z.string().trim().min(1, `${name} must not be empty`).max(max, `${name} must be at most ${max} characters`);

/** A whole number written as digits (a URL's "14") or given as a number (a tool's 14); "" is not 0. */
const wholeNumber = (min: number, max: number, message: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, message)])
    .transform(Number)
    .pipe(z.number({ error: message }).int(message).min(min, message).max(max, message));

const size = (name: string) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?$/, `${name} must be a number of contracts or shares, 0 or more`),
    ])
    .transform(Number)
    .pipe(z.number().min(0, `${name} must be 0 or more`).max(1e12, `${name} is too large`));

/** An R-multiple bound: '-1', '0.5' (a URL) or -1 (a tool); two decimals at most, as R is shown. */
const rBound = (name: string) => {
  const message = `${name} must be an R-multiple such as -1 or 1.5 (two decimals at most)`;
  return z
    .union([z.number(), z.string().trim().regex(R_BOUND, message)])
    .transform(Number)
    .pipe(
      z
        .number({ error: message })
        .refine((n) => R_BOUND.test(String(n)), message)
        .refine((n) => Math.abs(n) <= MAX_R_BOUND, `${name} must be from -${MAX_R_BOUND} to ${MAX_R_BOUND}`),
    );
};
/** Minutes either side of high-impact news: one of the windows the filter bar offers. */
const newsWindowMessage = `news must be one of ${NEWS_WINDOWS.join(', ')} (minutes)`;
const newsWindow = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, newsWindowMessage)])
  .transform(Number)
  .pipe(z.literal(NEWS_WINDOWS, { error: newsWindowMessage }));
const withWithout = (name: string) => z.enum(WITH_WITHOUT, { error: `${name} must be with or without` }).optional();

/** The filter's fields, for schemas that take the filter among their own parameters (the Trade Log's list). */
export const reportFilterFields = {
  range: z.enum(DATE_PRESETS, { error: `range must be one of ${DATE_PRESETS.join(', ')}` }).optional(),
  from: calendarDay().optional(),
  to: calendarDay().optional(),
  account: list(z.union([z.literal('all'), z.literal(UNASSIGNED), z.uuid('account must be all, unassigned or an account id')]), 'account'),
  symbol: list(text(50, 'symbol'), 'symbol'),
  contract: list(text(100, 'contract'), 'contract'),
  side: list(text(20, 'side'), 'side'),
  setup: list(z.string().max(100, 'setup must be at most 100 characters'), 'setup'),
  playbook: list(z.uuid('playbook must be a playbook id'), 'playbook'),
  session: list(text(50, 'session'), 'session'),
  tag: list(text(100, 'tag'), 'tag'),
  tagMode: z.enum(TAG_MODES, { error: `tagMode must be one of ${TAG_MODES.join(', ')}` }).default('any'),
  result: list(z.enum(TRADE_RESULTS, { error: `result must be one of ${TRADE_RESULTS.join(', ')}` }), 'result'),
  weekday: list(wholeNumber(1, 7, 'must be a weekday from 1 (Monday) to 7 (Sunday)'), 'weekday'),
  hour: list(wholeNumber(0, 23, 'must be a whole hour from 0 to 23'), 'hour'),
  hold: list(z.enum(HOLD_BUCKET_IDS, { error: `hold must be one of ${HOLD_BUCKET_IDS.join(', ')}` }), 'hold'),
  sizeMin: size('sizeMin').optional(),
  sizeMax: size('sizeMax').optional(),
  rMin: rBound('rMin').optional(),
  rMax: rBound('rMax').optional(),
  risk: withWithout('risk'),
  mistakes: withWithout('mistakes'),
  mistake: list(text(100, 'mistake'), 'mistake'),
  markets: z.enum(MARKET_GROUPINGS, { error: `markets must be ${MARKET_GROUPINGS.join(', ')}` }).optional(),
  news: newsWindow.optional(),
  newsMode: z.enum(NEWS_MODES, { error: `newsMode must be ${NEWS_MODES.join(' or ')}` }).default('near'),
};

type RawFilter = z.output<z.ZodObject<typeof reportFilterFields>>;

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** Checks that span fields and fills the defaults: the filter as the domain reads it. */
export function normalizeReportFilter(raw: RawFilter, ctx: z.RefinementCtx): ReportFilter {
  const custom = raw.from !== undefined || raw.to !== undefined;
  const range = raw.range ?? (custom ? 'custom' : 'all-time');
  if (range !== 'custom' && custom) {
    ctx.addIssue({ code: 'custom', path: ['range'], message: `range must be custom (or left out) when from or to is given, not ${range}` });
  }
  if (raw.from !== undefined && raw.to !== undefined && raw.from > raw.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
  }
  if (raw.sizeMin !== undefined && raw.sizeMax !== undefined && raw.sizeMin > raw.sizeMax) {
    ctx.addIssue({ code: 'custom', path: ['sizeMin'], message: 'must not be more than sizeMax' });
  }
  if (raw.rMin !== undefined && raw.rMax !== undefined && raw.rMin > raw.rMax) {
    ctx.addIssue({ code: 'custom', path: ['rMin'], message: 'must not be more than rMax' });
  }
  if (raw.risk === 'without' && (raw.rMin !== undefined || raw.rMax !== undefined)) {
    ctx.addIssue({ code: 'custom', path: ['risk'], message: 'must not be without with an R range: trades without a planned risk have no R' });
  }
  // 'all' is the Trade Log's account selector saying "no account of its own": it adds nothing to a list of accounts.
  const account = unique(raw.account).filter((a) => a !== 'all');
  return {
    range,
    from: range === 'custom' ? (raw.from ?? null) : null,
    to: range === 'custom' ? (raw.to ?? null) : null,
    account,
    symbol: unique(raw.symbol),
    contract: unique(raw.contract),
    side: unique(raw.side),
    setup: unique(raw.setup),
    playbook: unique(raw.playbook),
    session: unique(raw.session),
    tag: unique(raw.tag),
    tagMode: raw.tagMode,
    result: unique(raw.result),
    weekday: unique(raw.weekday).sort((a, b) => a - b),
    hour: unique(raw.hour).sort((a, b) => a - b),
    hold: unique(raw.hold),
    sizeMin: raw.sizeMin ?? null,
    sizeMax: raw.sizeMax ?? null,
    rMin: raw.rMin === undefined ? null : raw.rMin + 0,
    rMax: raw.rMax === undefined ? null : raw.rMax + 0,
    risk: raw.risk ?? null,
    mistakes: raw.mistakes ?? null,
    mistake: unique(raw.mistake),
    markets: raw.markets ?? null,
    news: raw.news ?? null,
    // A mode without a window narrows nothing: kept at its default, so equal filters stay equal.
    newsMode: raw.news === undefined ? 'near' : raw.newsMode,
  };
}

/** The filter model: a URL's parameters (lists as arrays) or a tool's JSON. */
export const reportFilter = z.object(reportFilterFields).transform(normalizeReportFilter);
export type ReportFilterInput = z.input<typeof reportFilter>;
agree<Same<z.output<typeof reportFilter>, ReportFilter>>(true);

/**
 * GET /api/reports/r: the filter, and the Trade Log's own narrowing of it (its Statistics in R count the
 * trades its list shows): its search, and the trades whose delete waits for Undo.
 */
export const rQuery = z
  .object({ ...reportFilterFields, q: z.string().max(200).optional(), exclude: awaitingUndo })
  .transform(({ q, exclude, ...fields }, ctx) => ({ q: q?.trim() || undefined, exclude, filter: normalizeReportFilter(fields, ctx) }));
export type RQuery = z.output<typeof rQuery>;
/** GET /api/reports/breakdown */
export const breakdownQuery = z
  .object({ ...reportFilterFields, by: z.enum(BREAKDOWNS, { error: `by must be one of ${BREAKDOWNS.join(', ')}` }) })
  .transform(({ by, ...fields }, ctx) => ({ by, filter: normalizeReportFilter(fields, ctx) }));
/** GET /api/reports/calendar: the year shown; the latest year with trades when left out. */
export const calendarQuery = z
  .object({ ...reportFilterFields, year: wholeNumber(1900, 2999, 'must be a year from 1900 to 2999').optional() })
  .transform(({ year, ...fields }, ctx) => ({ year, filter: normalizeReportFilter(fields, ctx) }));
/** GET /api/reports/distribution */
export const distributionQuery = z
  .object({ ...reportFilterFields, of: z.enum(DISTRIBUTIONS, { error: `of must be one of ${DISTRIBUTIONS.join(', ')}` }) })
  .transform(({ of, ...fields }, ctx) => ({ of, filter: normalizeReportFilter(fields, ctx) }));

// ---------------------------------------------------------------------------------------------------------------
// Answers. Money in integer cents; a figure with nothing to compute it from is null.

const count = z.number().int().nonnegative();
const cents = z.number().int();
const day = z.iso.date();
const percent = z.number().min(0).max(100);

const filterEcho = z.strictObject({
  range: z.enum(DATE_PRESETS),
  from: day.nullable(),
  to: day.nullable(),
  account: z.array(z.string()),
  symbol: z.array(z.string()),
  contract: z.array(z.string()),
  side: z.array(z.string()),
  setup: z.array(z.string()),
  playbook: z.array(z.string()),
  session: z.array(z.string()),
  tag: z.array(z.string()),
  tagMode: z.enum(TAG_MODES),
  result: z.array(z.enum(TRADE_RESULTS)),
  weekday: z.array(z.number().int()),
  hour: z.array(z.number().int()),
  hold: z.array(z.enum(HOLD_BUCKET_IDS)),
  sizeMin: z.number().nullable(),
  sizeMax: z.number().nullable(),
  rMin: z.number().nullable(),
  rMax: z.number().nullable(),
  risk: z.enum(WITH_WITHOUT).nullable(),
  mistakes: z.enum(WITH_WITHOUT).nullable(),
  mistake: z.array(z.string()),
  markets: z.enum(MARKET_GROUPINGS).nullable(),
  news: z.literal(NEWS_WINDOWS).nullable(),
  newsMode: z.enum(NEWS_MODES),
});

/** What every report answer says of its trades: the filter as read, its days, and the same in words. */
export const reportBasis = z.strictObject({
  filter: filterEcho,
  /** The days the range covers (resolved in the trader's zone), null where open. */
  range: z.strictObject({ from: day.nullable(), to: day.nullable() }),
  timeZone: z.string(),
  /** Trades in the filter. */
  trades: count,
  firstDay: day.nullable(),
  lastDay: day.nullable(),
  /** The filter in words ("Last 90 Days: Aug 28, 2026 to Nov 25, 2026; instrument NQ; side Short"). */
  description: z.string(),
  /** "Computed from 412 trades, Jun 2, 2026 to Jun 30, 2026 (...)". */
  computedFrom: z.string(),
  /** The currency every amount of the answer is in: its accounts' (amounts in different currencies are never added). */
  currency: z.enum(CURRENCIES),
  /** Which accounts of the filter were left out for being in another currency, in words; null when none was. */
  currencyNote: z.string().nullable(),
});

const tradeExtreme = z.strictObject({ pnlCents: cents, tradeDate: day, id: z.uuid() });
const dayExtreme = z.strictObject({ tradeDate: day, pnlCents: cents });

export const reportOverviewShape = z.strictObject({
  trades: count,
  wins: count,
  losses: count,
  breakEvens: count,
  netCents: cents,
  grossCents: cents,
  feesCents: cents,
  grossProfitCents: cents,
  grossLossCents: cents,
  winRate: percent.nullable(),
  profitFactor: z.number().nonnegative().nullable(),
  expectancyCents: cents.nullable(),
  averageTradeCents: cents.nullable(),
  averageWinCents: cents.nullable(),
  averageLossCents: cents.nullable(),
  payoffRatio: z.number().nonnegative().nullable(),
  largestWin: tradeExtreme.nullable(),
  largestLoss: tradeExtreme.nullable(),
  maxConsecutiveWins: count,
  maxConsecutiveLosses: count,
  averageHoldWinnersSeconds: count.nullable(),
  averageHoldLosersSeconds: count.nullable(),
  tradesWithoutTimes: count,
  tradingDays: count,
  winningDays: count,
  losingDays: count,
  winningDaysPercent: percent.nullable(),
  bestDay: dayExtreme.nullable(),
  worstDay: dayExtreme.nullable(),
  averageDayCents: cents.nullable(),
  dailyStdDevCents: cents.nullable(),
  dailySharpe: z.number().nullable(),
  maxDrawdown: z
    .strictObject({
      amountCents: cents.positive(),
      peakCents: cents,
      peakDay: day.nullable(),
      troughDay: day,
      recoveryDay: day.nullable(),
      tradesToTrough: count,
      tradesToRecovery: count.nullable(),
      percentOfPeak: z.number().nonnegative().nullable(),
    })
    .nullable(),
  firstDay: day.nullable(),
  lastDay: day.nullable(),
});
agree<Same<z.infer<typeof reportOverviewShape>, ReportOverview>>(true);

const rFigure = z.number().nullable();
export const rOverviewShape = z.strictObject({
  tradesWithRisk: count,
  tradesWithoutRisk: count,
  totalR: rFigure,
  expectancyR: rFigure,
  averageWinR: rFigure,
  averageLossR: rFigure,
  netCentsWithRisk: cents,
  profitFactorR: z.number().nonnegative().nullable(),
  bins: z.array(z.strictObject({ id: z.string(), label: z.string(), trades: count })),
});
agree<Same<z.infer<typeof rOverviewShape>, ROverview>>(true);

/** GET /api/reports/mistakes */
export const mistakesReport = z.strictObject({
  basis: reportBasis,
  mistakes: z.strictObject({
    mistakes: z.array(z.strictObject({ tag: z.string(), trades: count, netCents: cents, totalR: z.number().nullable(), tradesWithoutRisk: count })),
    tradesWithMistakes: count,
    netCents: cents,
    netWithoutMistakesCents: cents,
    tradesWithoutMistakes: count,
  }),
});
export type MistakesReport = z.infer<typeof mistakesReport>;
agree<Same<MistakesReport['mistakes'], DomainMistakesReport>>(true);

const rTotals = { trades: count, tradesWithRisk: count, tradesWithoutRisk: count, totalR: z.number().nullable() };
/** GET /api/reports/r: the filter's trades in R, and each day's and week's (the calendars in R). */
export const rReport = z.strictObject({
  basis: reportBasis,
  r: z.strictObject({
    summary: z.strictObject({
      ...rTotals,
      expectancyR: z.number().nullable(),
      averageWinR: z.number().nullable(),
      averageLossR: z.number().nullable(),
      netCentsWithRisk: cents,
      profitFactorR: z.number().nonnegative().nullable(),
    }),
    days: z.array(z.strictObject({ tradeDate: day, ...rTotals })),
    weeks: z.array(z.strictObject({ weekStart: day, ...rTotals })),
  }),
});
export type RReport = z.infer<typeof rReport>;
agree<Same<RReport['r'], RPeriods>>(true);

/** GET /api/reports/overview */
export const overviewReport = z.strictObject({
  basis: reportBasis,
  overview: reportOverviewShape,
  /** The balance the drawdown's percentage is of, when one is known (the starting balance, accounts and days only). */
  openingBalanceCents: cents.nullable(),
  /** The same trades in R: of those with a planned risk, the others counted apart. */
  r: rOverviewShape,
});

const equityPoint = z.strictObject({ index: z.number().int().positive(), tradeDate: day, equityCents: cents, drawdownCents: cents.nonpositive() });
const equityRPoint = z.strictObject({ index: z.number().int().positive(), tradeDate: day, equityR: z.number(), drawdownR: z.number().nonpositive() });
/** GET /api/reports/equity */
export const equityReport = z.strictObject({
  basis: reportBasis,
  equity: z.strictObject({
    byTrade: z.array(equityPoint),
    byDay: z.array(equityPoint),
    trades: count,
    days: count,
    sampled: z.boolean(),
  }),
  /**
   * The same curves in R: cumulative R and its drawdown in R, of the trades with a planned risk
   * (numbered among themselves); the others counted apart.
   */
  r: z.strictObject({
    byTrade: z.array(equityRPoint),
    byDay: z.array(equityRPoint),
    tradesWithRisk: count,
    tradesWithoutRisk: count,
    days: count,
    sampled: z.boolean(),
  }),
});
agree<Same<z.infer<typeof equityReport>['r'], EquityRSeries>>(true);

const breakdownRow = z.strictObject({
  key: z.string(),
  label: z.string(),
  trades: count,
  wins: count,
  losses: count,
  breakEvens: count,
  winRate: percent.nullable(),
  netCents: cents,
  /** P&L before commissions and fees; gross less fees is the net. */
  grossCents: cents,
  feesCents: cents.nonnegative(),
  grossProfitCents: cents,
  grossLossCents: cents,
  averageCents: cents.nullable(),
  profitFactor: z.number().nonnegative().nullable(),
  expectancyCents: cents.nullable(),
  sharePercent: percent.nullable(),
  /** The row in R: of its trades with a planned risk, the others counted apart. */
  r: z.strictObject({ tradesWithRisk: count, tradesWithoutRisk: count, totalR: rFigure, expectancyR: rFigure }),
});
/** GET /api/reports/breakdown */
export const breakdownReport = z.strictObject({
  basis: reportBasis,
  breakdown: z.strictObject({ by: z.enum(BREAKDOWNS), rows: z.array(breakdownRow), total: count, excluded: count, tradesWithoutRisk: count }),
});
agree<Same<z.infer<typeof breakdownReport>['breakdown'], Breakdown>>(true);

/** GET /api/reports/heatmap */
export const heatmapReport = z.strictObject({
  basis: reportBasis,
  heatmap: z.strictObject({
    cells: z.array(
      z.strictObject({
        weekday: z.number().int().min(1).max(7),
        hour: z.number().int().min(0).max(23),
        trades: count,
        wins: count,
        losses: count,
        netCents: cents,
        winRate: percent.nullable(),
        /** The cell in R: of its trades with a planned risk, the others counted apart. */
        r: z.strictObject({ tradesWithRisk: count, tradesWithoutRisk: count, totalR: rFigure, expectancyR: rFigure }),
      }),
    ),
    weekdays: z.array(z.number().int().min(1).max(7)),
    hours: z.array(z.number().int().min(0).max(23)),
    withoutTime: count,
    /** Trades in the cells without a planned risk: in their counts, never in their R. */
    tradesWithoutRisk: count,
  }),
});
agree<Same<z.infer<typeof heatmapReport>['heatmap'], Heatmap>>(true);

const timeBuckets = z.strictObject({
  buckets: z.array(
    z.strictObject({ fromMinute: z.number().int().min(0).max(1439), label: z.string(), trades: count, wins: count, losses: count, netCents: cents }),
  ),
  excluded: count,
});
const drawdownR = z.strictObject({
  maxDrawdownR: z.number().nonnegative().nullable(),
  currentDrawdownR: z.number().nonnegative().nullable(),
  tradesWithRisk: count,
  tradesWithoutRisk: count,
});
/** GET /api/reports/depth: P&L by week, by entry time, drawdown figures, streaks of days and the ratios. Null: not defined. */
export const depthReport = z.strictObject({
  basis: reportBasis,
  depth: z.strictObject({
    weeks: z.array(z.strictObject({ weekStart: day, weekEnd: day, tradingDays: count, trades: count, netCents: cents })),
    buckets15: timeBuckets,
    buckets30: timeBuckets,
    drawdown: z.strictObject({
      maxDrawdownCents: cents,
      currentDrawdownCents: cents,
      longestUnderwaterDays: count,
      currentUnderwaterDays: count,
      recoveryFactor: z.number().nullable(),
      netCents: cents,
    }),
    drawdownR,
    drawdownPercent: z.strictObject({
      startingBalanceCents: cents.nullable(),
      maxDrawdownPercent: z.number().nullable(),
      currentDrawdownPercent: z.number().nullable(),
    }),
    /** One row per account of the filter: its own trades' drawdown, in R and as a share of its starting balance. */
    accounts: z.array(
      z.strictObject({
        key: z.string(),
        label: z.string(),
        trades: count,
        maxDrawdownCents: cents,
        currentDrawdownCents: cents,
        longestUnderwaterDays: count,
        currentUnderwaterDays: count,
        recoveryFactor: z.number().nullable(),
        netCents: cents,
        startingBalanceCents: cents.nullable(),
        maxDrawdownPercent: z.number().nullable(),
        currentDrawdownPercent: z.number().nullable(),
        r: drawdownR,
      }),
    ),
    streaks: z.strictObject({
      longestWinningDays: count,
      longestLosingDays: count,
      current: z.strictObject({ kind: z.enum(['winning', 'losing']).nullable(), days: count }),
    }),
    ratios: z.strictObject({ sortino: z.number().nullable(), sqn: z.number().nullable(), sqnSample: count, kelly: z.number().nullable() }),
  }),
});
agree<Same<z.infer<typeof depthReport>['depth'], DepthReport>>(true);
export type DepthReportAnswer = z.infer<typeof depthReport>;

/** A day's, a month's or the year's R: of its trades with a planned risk, the others counted apart. */
const calendarR = z.strictObject({ tradesWithRisk: count, tradesWithoutRisk: count, totalR: rFigure });
/** GET /api/reports/calendar */
export const calendarReport = z.strictObject({
  basis: reportBasis,
  calendar: z.strictObject({
    year: z.number().int(),
    years: z.array(z.number().int()),
    days: z.array(z.strictObject({ tradeDate: day, trades: count, netCents: cents, r: calendarR })),
    months: z.array(z.strictObject({ month: z.number().int().min(1).max(12), trades: count, netCents: cents, tradingDays: count, r: calendarR })),
    netCents: cents,
    trades: count,
    r: calendarR,
  }),
});
agree<Same<z.infer<typeof calendarReport>['calendar'], YearCalendar>>(true);

/** GET /api/reports/distribution */
export const distributionReport = z.strictObject({
  basis: reportBasis,
  distribution: z.strictObject({
    of: z.enum(DISTRIBUTIONS),
    buckets: z.array(
      z.strictObject({
        from: z.number().nullable(),
        to: z.number().nullable(),
        label: z.string(),
        trades: count,
        wins: count,
        losses: count,
        netCents: cents,
        winRate: percent.nullable(),
      }),
    ),
    excluded: count,
    total: count,
  }),
});

/** GET /api/reports/options: the values the trader's trades hold, for the filter bar's choices. */
export const reportOptions = z.strictObject({
  symbol: z.array(z.string()),
  contract: z.array(z.string()),
  side: z.array(z.string()),
  setup: z.array(z.string()),
  session: z.array(z.string()),
  tag: z.array(z.string()),
  /** Position sizes in use, smallest first. */
  size: z.array(z.number()),
  trades: count,
});

const excursionGroup = z.strictObject({
  trades: count,
  averageMaeCents: cents.nonnegative().nullable(),
  averageMfeCents: cents.nonnegative().nullable(),
  averageCapturePercent: z.number().nullable(),
});
/** GET /api/reports/excursions: average MAE and MFE of winners and losers, and the share of the best exit captured. */
export const excursionsReport = z.strictObject({
  basis: reportBasis,
  excursions: z.strictObject({ all: excursionGroup, winners: excursionGroup, losers: excursionGroup, unmeasured: count }),
});
agree<Same<z.infer<typeof excursionsReport>['excursions'], ExcursionSummary>>(true);

export type ReportBasis = z.infer<typeof reportBasis>;
export type OverviewReport = z.infer<typeof overviewReport>;
export type EquityReport = z.infer<typeof equityReport>;
export type ExcursionsReport = z.infer<typeof excursionsReport>;
export type BreakdownReport = z.infer<typeof breakdownReport>;
export type HeatmapReport = z.infer<typeof heatmapReport>;
export type CalendarReport = z.infer<typeof calendarReport>;
export type DistributionReport = z.infer<typeof distributionReport>;
export type ReportOptions = z.infer<typeof reportOptions>;
export type BreakdownQuery = z.infer<typeof breakdownQuery>;
