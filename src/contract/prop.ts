import { z } from 'zod';
import type { Breach, DayPoint, LedgerSummary, PropRuleSet, PropStatus, RuleStatus, TimelinePoint } from '../domain/prop';
import { ACCOUNT_KINDS, ACCOUNT_STATES, LEDGER_KINDS, MAX_LOSS_TRAILING, isWallClockTime, type AccountKind, type AccountState } from '../domain/prop';
export { TIMELINE_LIMIT } from '../domain/prop';
import { agree, calendarDay, decimal, instant, timeZone, type Same } from './common';
import { CURRENCIES } from '../domain/reports/currency';

/**
 * The prop-firm endpoints' contract: an account's rule set, its status, the prop ledger. The rule set and
 * the status travel in the domain's own shapes (src/domain/prop/types.ts: camelCase, money as integer cents), agreed
 * with its types below, so that the rules the server stores, the figures it evaluates and the form the browser edits
 * are one shape; the ledger, like every other money field of the API, as exact decimal strings.
 */

/** Money in a rule: whole cents, at most $999,999,999.99 (numeric(16,2) holds it). */
const cents = () =>
  z
    .number({ error: 'must be a whole number of cents' })
    .int('must be a whole number of cents')
    .min(1, 'must be more than 0')
    .max(99_999_999_999, 'must be at most 99999999999 cents');
const centsOrZero = () =>
  z
    .number({ error: 'must be a whole number of cents' })
    .int('must be a whole number of cents')
    .min(0, 'must be 0 or more')
    .max(99_999_999_999, 'must be at most 99999999999 cents');
const count = (max: number) =>
  z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(max, `must be at most ${max}`);
const wallClock = () => z.string({ error: 'must be a time as HH:mm' }).refine(isWallClockTime, 'must be a time as HH:mm');

/**
 * What breaking a rule costs: 'fail' (hard) or its soft cost. Optional, so that a rule set stored before it existed
 * reads as it did (the default is each rule's: the maximum loss fails, the others are soft).
 */
const onBreach = <Soft extends string>(soft: Soft) => z.enum(['fail', soft], { error: `must be 'fail' or '${soft}'` }).optional();

/** Every limit of a rule set, each optional (null), each field named in a 400. */
export const propRuleSet = z.strictObject({
  profitTargetCents: cents().nullable().default(null),
  dailyLoss: z
    .strictObject({
      limitCents: cents(),
      onBreach: z.enum(['fail', 'stop-day'], { error: "must be 'fail' or 'stop-day'" }),
      check: z.enum(['intraday', 'end-of-day'], { error: "must be 'intraday' or 'end-of-day'" }),
    })
    .nullable()
    .default(null),
  maxLoss: z
    .strictObject({
      amountCents: cents(),
      trailing: z.enum(MAX_LOSS_TRAILING as ['static', 'end-of-day', 'intraday'], { error: "must be 'static', 'end-of-day' or 'intraday'" }),
      lockAboveStartCents: centsOrZero().nullable().default(null),
      onBreach: onBreach('stop-day'),
    })
    .nullable()
    .default(null),
  consistency: z
    .strictObject({
      maxBestDayPct: z.number({ error: 'must be a percentage' }).gt(0, 'must be more than 0').max(100, 'must be at most 100'),
      of: z.enum(['profit', 'target'], { error: "must be 'profit' or 'target'" }),
      strict: z.boolean({ error: 'must be true or false' }).optional(),
      onBreach: onBreach('wait'),
    })
    .refine((c) => c.onBreach !== 'fail' || c.of === 'target', {
      path: ['onBreach'],
      message: "can be 'fail' only of the target: a share of the total profit changes with every day",
    })
    .nullable()
    .default(null),
  minTradingDays: count(1000).nullable().default(null),
  minProfitDays: z
    .strictObject({ days: count(1000), minCents: cents() })
    .nullable()
    .default(null),
  maxPosition: z
    .strictObject({ contracts: count(10_000), onBreach: onBreach('close-trade') })
    .nullable()
    .default(null),
  tradingHours: z
    .strictObject({
      flatBy: wallClock().nullable().default(null),
      reopenAt: wallClock().default('18:00'),
      timeZone: timeZone().default('America/New_York'),
      noTradingWeekdays: z
        .array(z.number().int().min(0, 'must be 0 (Sunday) to 6 (Saturday)').max(6, 'must be 0 (Sunday) to 6 (Saturday)'))
        .max(7)
        .default([]),
      noTradingDates: z.array(calendarDay('must be a date as yyyy-MM-dd')).max(366, 'must hold at most 366 dates').default([]),
      onBreach: onBreach('close-trade'),
    })
    .nullable()
    .default(null),
  payout: z
    .strictObject({ minBalanceAboveStartCents: cents().nullable().default(null) })
    .nullable()
    .default(null),
});

/** PUT /api/prop/accounts/:id/rules */
export const ruleSetInput = z.strictObject({
  /** The template it was filled from (src/domain/prop/templates.json), or null for one made from scratch. */
  template_id: z.string().max(100).nullable().default(null),
  rules: propRuleSet,
  /** Trades before this trading day are not counted (a reset starts the rules again); null: all of the account's. */
  starts_on: calendarDay().nullable().default(null),
  /** Shown on the dashboard's Prop Accounts widget. */
  active: z.boolean({ error: 'must be true or false' }).default(true),
});

export const ruleSet = z.strictObject({
  account_id: z.uuid(),
  template_id: z.string().nullable(),
  rules: propRuleSet,
  starts_on: z.iso.date().nullable(),
  active: z.boolean(),
  updated_at: instant,
});

const ruleKey = z.enum([
  'profitTarget',
  'dailyLoss',
  'maxLoss',
  'consistency',
  'minTradingDays',
  'minProfitDays',
  'maxPosition',
  'tradingHours',
  'payout',
]);
const breach = z.strictObject({
  rule: ruleKey,
  tradeId: z.string(),
  day: z.string(),
  at: z.string().nullable(),
  fatal: z.boolean(),
  value: z.number(),
  limit: z.number(),
  message: z.string(),
});
const ruleStatus = z.strictObject({
  rule: ruleKey,
  state: z.enum(['ok', 'near', 'broken', 'breached', 'met', 'pending', 'missed']),
  severity: z.enum(['hard', 'soft']).nullable(),
  value: z.number().nullable(),
  limit: z.number().nullable(),
  distanceCents: z.number().nullable(),
  progressPct: z.number().nullable(),
  detail: z.string(),
});
const timelinePoint = z.strictObject({
  tradeId: z.string(),
  day: z.string(),
  at: z.string().nullable(),
  balanceCents: z.number(),
  thresholdCents: z.number().nullable(),
  dayNetCents: z.number(),
});
const dayPoint = z.strictObject({
  day: z.string(),
  netCents: z.number(),
  trades: z.number().int(),
  balanceCents: z.number(),
  thresholdCents: z.number().nullable(),
  lowNetCents: z.number(),
  lowBalanceCents: z.number(),
  dailyLossRoomCents: z.number().nullable(),
  maxLossRoomCents: z.number().nullable(),
  peakContracts: z.number().nullable(),
});
const accountState = z.enum(ACCOUNT_STATES as [AccountState, ...AccountState[]]);
/** The domain's evaluation (evaluatePropAccount), as it computed it. */
export const propStatus = z.strictObject({
  startingBalanceCents: z.number(),
  balanceCents: z.number(),
  profitCents: z.number(),
  state: accountState,
  outcome: z.enum(['active', 'broken', 'passed', 'payout-eligible']),
  headline: z.string(),
  rules: z.array(ruleStatus),
  breaches: z.array(breach),
  brokenBy: breach.nullable(),
  targetReachedOn: z.iso.date().nullable(),
  passedOn: z.iso.date().nullable(),
  thresholdLock: z.strictObject({ day: z.iso.date(), thresholdCents: z.number() }).nullable(),
  timeline: z.array(timelinePoint),
  days: z.array(dayPoint),
  tradingDays: z.number().int(),
  tradesWithoutTimes: z.number().int(),
  basis: z.literal('realized'),
});

const kind = z.enum(ACCOUNT_KINDS as [AccountKind, ...AccountKind[]]);

/** The account as the prop screens name it. */
const propAccount = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  kind,
  firm: z.string().nullable(),
  size: decimal.nullable(),
  starting_balance: decimal,
  /** What the account's money is counted in: every amount of its status is in it. */
  currency: z.enum(CURRENCIES),
});

/** One account's line: where it stands, without its timeline (the dashboard's widget, an import's warning). */
export const propAccountSummary = z.strictObject({
  account: propAccount,
  active: z.boolean(),
  template_id: z.string().nullable(),
  starts_on: z.iso.date().nullable(),
  /** The trader's current trading day, whose daily loss room the status gives. */
  today: z.iso.date(),
  trades: z.number().int().nonnegative(),
  /** The first and last trading days of the trades counted; null without trades. */
  first_day: z.iso.date().nullable(),
  last_day: z.iso.date().nullable(),
  state: accountState,
  outcome: z.enum(['active', 'broken', 'passed', 'payout-eligible']),
  /** The status's one line (headlineOf), the same on every screen. */
  headline: z.string(),
  balance_cents: z.number(),
  profit_cents: z.number(),
  rules: z.array(ruleStatus),
  broken_by: breach.nullable(),
  /** Breaches that did not end the account (a day or a trade lost). */
  soft_breaches: z.number().int().nonnegative(),
  target_reached_on: z.iso.date().nullable(),
  passed_on: z.iso.date().nullable(),
});
/** GET /api/prop/status: every account with a rule set, in the accounts' order. */
export const propStatusList = z.strictObject({ accounts: z.array(propAccountSummary) });

export const ledgerKind = z.enum(LEDGER_KINDS as ['evaluation-fee', 'reset-fee', 'activation-fee', 'data-fee', 'other-fee', 'payout'], {
  error: 'must be evaluation-fee, reset-fee, activation-fee, data-fee, other-fee or payout',
});

/** Amounts are positive; the kind says which way the money went. */
const ledgerAmount = z
  .union([z.number(), z.string().max(100)], { error: 'must be an amount of money' })
  .refine((v) => (typeof v === 'number' ? Number.isFinite(v) : /^\s*\d+(\.\d+)?\s*$/.test(v)), 'must be an amount of money such as 149.00')
  .refine((v) => Number(v) >= 0.01, 'must be at least 0.01')
  .refine((v) => Number(v) <= 999_999_999.99, 'must be at most 999999999.99');

/** POST /api/prop/accounts/:id/ledger */
export const ledgerInput = z.strictObject({
  kind: ledgerKind,
  amount: ledgerAmount,
  occurred_on: calendarDay(),
  note: z.string().max(500, 'must be at most 500 characters').default(''),
});
/** PATCH /api/prop/ledger/:id */
export const ledgerPatch = z
  .strictObject({
    kind: ledgerKind.optional(),
    amount: ledgerAmount.optional(),
    occurred_on: calendarDay().optional(),
    note: z.string().max(500, 'must be at most 500 characters').optional(),
  })
  .refine((p) => Object.keys(p).length > 0, 'Nothing to update');

export const ledgerEntry = z.strictObject({
  id: z.uuid(),
  /** null once the account was deleted: its costs stay in the firm's ROI. */
  account_id: z.uuid().nullable(),
  account_name: z.string().nullable(),
  firm: z.string(),
  kind: ledgerKind,
  amount: decimal,
  occurred_on: z.iso.date(),
  note: z.string(),
  created_at: instant,
});

const ledgerSummary = z.strictObject({
  firm: z.string(),
  costsCents: z.number(),
  payoutsCents: z.number(),
  netCents: z.number(),
  roiPct: z.number().nullable(),
});
/** GET /api/prop/ledger: every entry (newest first) and the prop ROI per firm and overall (summarizeLedger). */
export const ledger = z.strictObject({
  entries: z.array(ledgerEntry),
  firms: z.array(ledgerSummary),
  total: ledgerSummary,
});

/** GET /api/prop/accounts/:id: the account's rule set, full status (timeline and days) and its ledger. */
export const propAccountDetail = z.strictObject({
  account: propAccount,
  rule_set: ruleSet.nullable(),
  today: z.iso.date(),
  trades: z.number().int().nonnegative(),
  /**
   * null without a rule set: nothing to evaluate against. Beyond TIMELINE_LIMIT trades its per-trade timeline is left
   * out (timeline_omitted) and the chart draws each day's close, which `days` holds.
   */
  status: propStatus.nullable(),
  timeline_omitted: z.boolean(),
  ledger: z.array(ledgerEntry),
  /** This account's costs and payouts. */
  ledger_summary: ledgerSummary,
});

const httpsUrl = () => z.url({ error: 'must be a web address' }).refine((u) => u.startsWith('https://'), 'must be an https address');

/**
 * The prop-firm templates' file (src/domain/prop/templates.json): dated data that is edited without code, so it is
 * checked when the server starts. Each template's rules are a rule set as an account stores it; each rule it sets
 * names its sources, and each source whose page it was, where, and the day it was read.
 */
export const propTemplateFile = z
  .strictObject({
    about: z.string(),
    sources: z.record(
      z.string().regex(/^[a-z0-9-]+$/, 'must be a lower-case id'),
      z.strictObject({
        publisher: z.enum(['firm', 'review'], { error: "must be 'firm' (the firm's own page) or 'review' (a third party)" }),
        url: httpsUrl(),
        readOn: calendarDay(),
        says: z.string().min(1, 'must say what was read there'),
      }),
    ),
    templates: z.array(
      z.strictObject({
        id: z.string().regex(/^[a-z0-9-]+$/, 'must be a lower-case id'),
        firm: z.string().min(1).max(100),
        plan: z.string().min(1).max(100),
        kind: z.enum(['evaluation', 'funded']),
        sizeCents: z.number().int().positive(),
        firmUrl: httpsUrl(),
        rules: propRuleSet,
        sources: z.record(z.string(), z.array(z.string()).min(1, 'must name at least one source')),
        notes: z.string(),
      }),
    ),
  })
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    file.templates.forEach((template, i) => {
      if (ids.has(template.id)) ctx.addIssue({ code: 'custom', path: ['templates', i, 'id'], message: `${template.id} is used twice` });
      ids.add(template.id);
      const rules = template.rules as Record<string, unknown>;
      for (const [rule, value] of Object.entries(rules)) {
        if (value !== null && !template.sources[rule])
          ctx.addIssue({ code: 'custom', path: ['templates', i, 'sources', rule], message: 'a rule the template sets must name its sources' });
      }
      for (const [rule, sources] of Object.entries(template.sources)) {
        if (!(rule in rules) || rules[rule] === null)
          ctx.addIssue({ code: 'custom', path: ['templates', i, 'sources', rule], message: 'names sources for a rule the template does not set' });
        for (const id of sources) {
          if (!file.sources[id]) ctx.addIssue({ code: 'custom', path: ['templates', i, 'sources', rule], message: `no source ${id}` });
        }
      }
    });
  });

export type PropRuleSetBody = z.infer<typeof propRuleSet>;
export type RuleSetInput = z.input<typeof ruleSetInput>;
export type RuleSet = z.infer<typeof ruleSet>;
export type PropStatusBody = z.infer<typeof propStatus>;
export type PropAccountSummary = z.infer<typeof propAccountSummary>;
export type PropStatusList = z.infer<typeof propStatusList>;
export type LedgerInput = z.input<typeof ledgerInput>;
export type LedgerPatch = z.input<typeof ledgerPatch>;
export type LedgerEntry = z.infer<typeof ledgerEntry>;
export type Ledger = z.infer<typeof ledger>;
export type PropAccountDetail = z.infer<typeof propAccountDetail>;

/** The schemas of the domain's own shapes must say what the domain's types say, both ways. */
agree<Same<z.infer<typeof propRuleSet>, PropRuleSet>>(true);
agree<Same<z.infer<typeof propStatus>, PropStatus>>(true);
agree<Same<z.infer<typeof breach>, Breach>>(true);
agree<Same<z.infer<typeof ruleStatus>, RuleStatus>>(true);
agree<Same<z.infer<typeof timelinePoint>, TimelinePoint>>(true);
agree<Same<z.infer<typeof dayPoint>, DayPoint>>(true);
agree<Same<z.infer<typeof ledgerSummary>, LedgerSummary>>(true);
