import { z } from 'zod';
import { CHART_WEEKDAYS } from '../domain/stats/results-by-period';
import { RISK_SOURCES } from '../domain/risk/planned-risk';
import { TRADE_SIDES } from '../domain/trades/side';
import { awaitingUndo, calendarDay, dollarAmount, instantInput, moneyAmount, storedDecimal } from './common';
import { fill } from './market';
import { normalizeReportFilter, reportFilterFields } from './reports';

/**
 * The trades endpoints' contract: the requests the server validates, one trade as GET /api/trades,
 * GET /api/trades/:id, POST and PATCH answer it, the Trade Log's page of them, the statistics and the bulk actions'
 * answers. The server types its answers with it, the web app takes its types from it (types only), the API tests
 * check the responses against it. Money is an exact decimal string ("-12.50").
 */
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'an exact decimal string');
const instant = z.iso.datetime();

export const trade = z.strictObject({
  id: z.uuid(),
  account_id: z.uuid().nullable(),
  account_name: z.string().nullable(),
  trade_date: instant,
  /** yyyy-MM-dd */
  date: z.iso.date(),
  day_of_week: z.string(),
  symbol: z.string(),
  period: z.string(),
  trade_type: z.string(),
  status: z.enum(['Win', 'Loss', 'BE']),
  /** Net of commission. */
  pnl: decimal,
  /** Absolute. */
  commission: decimal,
  link: z.string(),
  notes: z.string(),
  tags: z.array(z.string()),
  /** Long or Short: apart from the setup, which is trade_type. */
  side: z.enum(TRADE_SIDES).nullable(),
  contract: z.string().nullable(),
  entry_time: instant.nullable(),
  exit_time: instant.nullable(),
  entry_price: decimal.nullable(),
  exit_price: decimal.nullable(),
  quantity: decimal.nullable(),
  gross_pnl: decimal.nullable(),
  /**
   * Funding payments counted in this trade (a crypto perpetual's, paid or received while it was open): pnl is gross_pnl
   * - commission + funding. Null when none was.
   */
  funding: decimal.nullable(),
  import_source: z.string().nullable(),
  /** The trade's own plan: a stop price or a dollar risk (never both), and a target price. */
  stop_price: decimal.nullable(),
  risk_amount: decimal.nullable(),
  target_price: decimal.nullable(),
  /**
   * The planned risk in dollars the R-multiple divides by: from the trade's own plan, else from the trader's default
   * for its account and instrument (`source` says which); null when neither gives one.
   */
  planned_risk: z.strictObject({ amount: decimal, source: z.enum(RISK_SOURCES) }).nullable(),
  /** Net P&L over the planned risk (+2 made twice the risk); null without a planned risk. */
  r_multiple: z.number().nullable(),
  /**
   * The maximum adverse and favourable excursions in dollars, as far as price went against and for the trade
   * (both as amounts, never negative), stored from its contract's bars; null where bars do not cover the trade. In R
   * (MAE negative) when the trade has a planned risk.
   */
  mae: decimal.nullable(),
  mfe: decimal.nullable(),
  mae_r: z.number().nullable(),
  mfe_r: z.number().nullable(),
  /**
   * When the trade's bars lack minutes inside it, its MAE and MFE read incomplete: the stretches without a bar (runs of
   * whole minutes, clipped to the trade's entry and exit). Null when nothing is missing or no bars are stored.
   */
  excursion_missing: z.array(z.strictObject({ from: instant, to: instant })).nullable(),
  created_at: instant,
  updated_at: instant,
});

/** GET /api/trades */
export const tradePage = z.strictObject({
  trades: z.array(trade),
  next_cursor: z.string().nullable(),
  total: z.number().int().nonnegative(),
});

export type Trade = z.infer<typeof trade>;
export type TradePage = z.infer<typeof tradePage>;

/**
 * Requests. `pnl` is always NET of commission and `commission` absolute, as stored; the add dialog's
 * "PnL (before commission)" is converted in the browser with the domain's `toNetPnlCents`. Money travels as decimal
 * strings ("-12.50") or numbers; the server rounds to the cent with decimal arithmetic. Each amount is one of the
 * contract's field kinds (common.ts), so a value the database cannot store is a 400 naming it.
 */
const money = moneyAmount().optional();
const tags = z.union([z.array(z.string().max(100)).max(50), z.string().max(2000)]).optional();
/** A price, as a number or its decimal text; null or '' clears it. */
const amount = storedDecimal().nullable().optional();
/** A quantity: more than 0 as stored; null or '' clears it. */
const quantity = storedDecimal({ positive: true }).nullable().optional();
/** The form sends an empty time as ''. */
const blankAsNull = (value: unknown) => (value === '' ? null : value);
const time = z.preprocess(blankAsNull, instantInput().nullable().optional());

/** The text fields of a trade and their limits: one definition for every path that writes a trade. */
export const tradeFields = {
  trade_date: z.string().max(100).optional(),
  date: z.string().max(100).optional(),
  symbol: z.string().max(50).optional(),
  period: z.string().max(50).optional(),
  trade_type: z.string().max(100).optional(),
  status: z.string().max(20).optional(),
  pnl: money,
  commission: money,
  link: z.string().max(2000).optional(),
  notes: z.string().max(20000).optional(),
  tags,
  // The execution and the plan, all optional (a manual trade may have none of them).
  side: z.string().max(20).nullable().optional(),
  quantity,
  entry_price: amount,
  exit_price: amount,
  entry_time: time,
  exit_time: time,
  stop_price: amount,
  risk_amount: dollarAmount().nullable().optional(),
  target_price: amount,
};

const tradeBase = z.object({
  account_id: z.uuid('account_id must be a trading account id').nullable().optional(),
  ...tradeFields,
});
const playbookId = z.uuid('playbook_id must be a playbook id').nullable().optional();
/** POST /api/trades: a new trade may take a playbook; later its page sets it with its ticks. */
export const tradeInput = tradeBase.extend({ playbook_id: playbookId });
/** PATCH /api/trades/:id: playbook_id changes the trade's playbook (null clears it), dropping its ticks. */
export const tradePatch = tradeBase.extend({ playbook_id: playbookId }).partial();

const day = calendarDay();

/**
 * The Trade Log's sorts (GET /api/trades `sort`): `date` is the trading order (trading day, entry, exit, creation, id;
 * src/domain/trades/trading-order.ts), the others a column. Each is total: rows with the same value follow the
 * trading order, newest first, in either direction, and rows without a value (a manual trade has no prices, times,
 * quantity or contract; an unassigned trade no account) come last in both directions. Text sorts ignore case.
 */
export const TRADE_SORTS = [
  'date',
  'symbol',
  'contract',
  'pnl',
  'gross_pnl',
  'commission',
  'quantity',
  'entry_time',
  'exit_time',
  'entry_price',
  'exit_price',
  'status',
  'period',
  'trade_type',
  'account',
  'mae',
  'mfe',
] as const;
export type TradeSort = (typeof TRADE_SORTS)[number];
export type SortDirection = 'asc' | 'desc';

/**
 * GET /api/trades: the list's own parameters and the filter model (src/contract/reports.ts: the Trade Log takes
 * the Reports' filters). `account` may repeat (several accounts); a single `account=all`, `unassigned` or an id
 * reads as
 * it always did, and `from`/`to` alone are a custom range (the dashboard's day-trades dialog lists one day).
 */
export const listQuery = z
  .object({
    ...reportFilterFields,
    q: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    // Opaque: the next_cursor of the page before, for the same sort and direction (it carries the last row's values).
    cursor: z.string().max(4000).optional(),
    // A position in list order (0 = first): the page that starts there, for a jump to any row.
    offset: z.coerce.number().int().min(0).max(100_000_000).optional(),
    sort: z.enum(TRADE_SORTS, { error: `sort must be one of ${TRADE_SORTS.join(', ')}` }).default('date'),
    // Newest (largest, Z-first) first by default, as the Trade Log lists.
    dir: z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }).default('desc'),
  })
  .transform(({ q, limit, cursor, offset, sort, dir, ...fields }, ctx) => ({
    q,
    limit,
    cursor,
    offset,
    sort,
    dir,
    filter: normalizeReportFilter(fields, ctx),
  }));

/** GET /api/trades/stats: the statistics of a filter (the list's filter model, its search and its accounts). */
export const statsQuery = z
  .object({
    ...reportFilterFields,
    q: z.string().max(200).optional(),
    // Which per-day rows to return: all, none, or from a day on (the rest summed into by_day_before).
    days: z.union([z.literal('all'), z.literal('none'), day], { error: 'days must be all, none or a date as yyyy-MM-dd' }).default('all'),
    exclude: awaitingUndo,
  })
  .transform(({ q, days, exclude, ...fields }, ctx) => ({ q, days, exclude, filter: normalizeReportFilter(fields, ctx) }));

/** GET /api/trades/ids: the list's filter model, search and order, without paging (Select All). */
export const idsQuery = z
  .object({
    ...reportFilterFields,
    q: z.string().max(200).optional(),
    sort: z.enum(TRADE_SORTS, { error: `sort must be one of ${TRADE_SORTS.join(', ')}` }).default('date'),
    dir: z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }).default('desc'),
  })
  .transform(({ q, sort, dir, ...fields }, ctx) => ({ q, sort, dir, filter: normalizeReportFilter(fields, ctx) }));

/** GET /api/trades/unassigned-count */
export const unassignedCountQuery = z.object({ exclude: awaitingUndo });

export const idParam = z.object({ id: z.uuid('id must be a trade id') });
/** POST /api/trades/bulk-delete */
export const idList = z.object({
  ids: z.array(z.uuid('ids must be trade ids')).min(1, 'Please select trades').max(100_000),
});
/** POST /api/trades/assign */
export const assignInput = z.object({
  ids: z.array(z.uuid('ids must be trade ids')).min(1, 'Please select trades to assign').max(100_000),
  account_id: z.uuid('Please select an account'),
});
/**
 * POST /api/trades/bulk-risk: one planned risk for the selected trades, all or none. `amount` sets a dollar
 * risk; `stop_points` places each trade's stop that many points from its entry on the losing side (each needs its
 * entry price, side and quantity); `clear` removes their own plan, so that the defaults apply again.
 */
export const bulkRiskInput = z.object({
  ids: z.array(z.uuid('ids must be trade ids')).min(1, 'Please select trades').max(100_000),
  risk: z.discriminatedUnion(
    'kind',
    [
      z.strictObject({ kind: z.literal('amount'), amount: dollarAmount({ required: true }) }),
      z.strictObject({ kind: z.literal('stop_points'), points: storedDecimal({ positive: true, required: true }) }),
      z.strictObject({ kind: z.literal('clear') }),
    ],
    { error: 'risk must be {kind: "amount", amount}, {kind: "stop_points", points} or {kind: "clear"}' },
  ),
});
const bulkIds = z.array(z.uuid('ids must be trade ids')).min(1, 'Please select trades').max(100_000);
const bulkTags = z.array(z.string().trim().min(1, 'tags must not be empty').max(100)).min(1, 'Please give at least one tag').max(50);
/**
 * POST /api/trades/bulk-edit: one change for the selected trades, all or nothing: a playbook (null: none), a setup,
 * tags added or removed, or a move to another trading account. A move skips, and names, each trade whose import key
 * the account already holds (the duplicate rule of imports); the rest move. Ids of trades that are not the caller's
 * are a 404 and change nothing.
 */
export const bulkEditInput = z.object({
  ids: bulkIds,
  action: z.discriminatedUnion(
    'kind',
    [
      z.strictObject({ kind: z.literal('playbook'), playbook_id: z.uuid('playbook_id must be a playbook id').nullable() }),
      z.strictObject({ kind: z.literal('setup'), setup: z.string().trim().max(100, 'setup must be at most 100 characters') }),
      z.strictObject({ kind: z.literal('add_tags'), tags: bulkTags }),
      z.strictObject({ kind: z.literal('remove_tags'), tags: bulkTags }),
      z.strictObject({ kind: z.literal('move'), account_id: z.uuid('Please select an account') }),
    ],
    { error: 'action must be {kind: "playbook"}, {kind: "setup"}, {kind: "add_tags"}, {kind: "remove_tags"} or {kind: "move"}' },
  ),
});
/** A trade as a bulk edit found it: what POST /api/trades/bulk-restore writes back to undo the edit. */
export const bulkTradeState = z.strictObject({
  id: z.uuid('id must be a trade id'),
  account_id: z.uuid('account_id must be a trading account id').nullable(),
  playbook_id: z.uuid('playbook_id must be a playbook id').nullable(),
  trade_type: z.string().max(100),
  tags: z.array(z.string().max(100)).max(50),
  ticked_rule_ids: z.array(z.uuid('ticked_rule_ids must be rule ids')).max(500),
  followed_rules: z.boolean().nullable(),
});
/** POST /api/trades/bulk-restore: the trades as a bulk edit found them, written back all or nothing. */
export const bulkRestoreInput = z.object({ trades: z.array(bulkTradeState).min(1, 'Nothing to restore').max(100_000) });
/** POST /api/trades/import (a JSON backup; each row is checked by the server with the trade fields' limits). */
export const importInput = z.object({
  account_id: z.uuid('Please select a trading account'),
  trades: z.custom<Array<Record<string, unknown>>>(
    (value) => Array.isArray(value) && value.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row)),
    { error: 'Invalid file format: The file does not contain an array of trade data', params: { spec: true } },
  ),
});

/** Statistics. Money in integer cents. */
const count = z.number().int().nonnegative();
const cents = z.number().int();
export const tradeAggregate = z.strictObject({
  trades: count,
  wins: count,
  losses: count,
  breakEvens: count,
  pnlCents: cents,
  /** Sum of positive net pnl (>= 0). */
  grossProfitCents: cents,
  /** Sum of negative net pnl (<= 0). */
  grossLossCents: cents,
});
const winRate = z.number().min(0).max(100);

/** GET /api/trades/stats. JSON has no Infinity: profitFactor is null when there are no losses. */
export const tradeStats = z.strictObject({
  summary: tradeAggregate.extend({
    winRate,
    winRateBand: z.enum(['green', 'yellow', 'red']),
    profitFactor: z.number().nonnegative().nullable(),
    streaks: z.strictObject({
      maxWinStreak: count,
      maxLossStreak: count,
      current: z.strictObject({ result: z.enum(['Win', 'Loss']).nullable(), length: count }),
    }),
    score: z.strictObject({ score: z.number(), winRate: z.number(), consistency: z.number(), profitFactorScore: z.number() }),
  }),
  by_week: z.array(tradeAggregate.extend({ weekStart: z.iso.date(), weekEnd: z.iso.date(), label: z.string(), winRate })),
  by_weekday: z.array(tradeAggregate.extend({ day: z.enum(CHART_WEEKDAYS), winRate })),
  by_day: z.array(tradeAggregate.extend({ date: z.iso.date() })),
  /** The days of the filter before those in by_day, summed (zeros unless `days` asked for days from a date). */
  by_day_before: tradeAggregate,
});

/** GET /api/trades/unassigned-count */
export const unassignedCount = z.strictObject({ count });
/** POST /api/trades/bulk-delete */
export const bulkDeleteResult = z.strictObject({ deleted: count });
/** POST /api/trades/assign */
export const assignResult = z.strictObject({ assigned: count });
/** POST /api/trades/bulk-risk */
export const bulkRiskResult = z.strictObject({ updated: count });
/** The selected trades changed, those a move skipped as duplicates, and their state before (for Undo). */
export const bulkEditResult = z.strictObject({
  updated: count,
  skipped_duplicates: z.array(z.string()),
  before: z.array(bulkTradeState),
});
export const bulkRestoreResult = z.strictObject({ restored: count });
/** GET /api/trades/ids: every trade id of a filter and search (Select All), in the list's order. */
export const tradeIds = z.strictObject({ ids: z.array(z.string()), total: count });

/** POST /api/trades/import */
export const backupImportResult = z.strictObject({ imported: count, skipped: count });
/** GET /api/trades/export: every trade with its fills, a JSON backup. */
export const tradeBackup = z.array(trade.extend({ fills: z.array(fill) }));

export type TradeInput = z.infer<typeof tradeInput>;
export type TradePatch = z.infer<typeof tradePatch>;
/** The body the web app sends to POST /api/trades (money as numbers or decimal strings). */
export type TradeInputBody = z.input<typeof tradeInput>;
export type ListQuery = z.infer<typeof listQuery>;
export type StatsQuery = z.infer<typeof statsQuery>;
export type TradeAggregate = z.infer<typeof tradeAggregate>;
export type TradeStats = z.infer<typeof tradeStats>;
export type UnassignedCount = z.infer<typeof unassignedCount>;
export type BulkDeleteResult = z.infer<typeof bulkDeleteResult>;
export type AssignResult = z.infer<typeof assignResult>;
export type BulkRiskInput = z.infer<typeof bulkRiskInput>;
export type BulkRiskResult = z.infer<typeof bulkRiskResult>;
export type BulkEditInput = z.infer<typeof bulkEditInput>;
export type BulkTradeState = z.infer<typeof bulkTradeState>;
export type BulkEditResult = z.infer<typeof bulkEditResult>;
export type BulkRestoreInput = z.infer<typeof bulkRestoreInput>;
export type BulkRestoreResult = z.infer<typeof bulkRestoreResult>;
export type TradeIds = z.infer<typeof tradeIds>;
export type IdsQuery = z.infer<typeof idsQuery>;
export type BackupImportResult = z.infer<typeof backupImportResult>;
