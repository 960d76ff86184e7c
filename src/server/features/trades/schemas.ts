import { z } from 'zod';
import { calendarDay } from '../../http/validate';

/**
 * Trades over the API. `pnl` is always NET of commission and `commission` absolute, as stored (spec part 2 §3);
 * the add dialog's "PnL (before commission)" is converted in the browser with the domain's `toNetPnlCents`.
 * Money travels as decimal strings ("-12.50") or numbers; the server rounds to the cent with decimal arithmetic.
 */
const money = z.union([z.number(), z.string().max(100)]).optional();
const tags = z.union([z.array(z.string().max(100)).max(50), z.string().max(2000)]).optional();

/** The text fields of a trade and their limits: one definition for every path that writes a trade. */
const tradeFields = {
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
};

export const tradeInput = z.object({
  account_id: z.uuid('account_id must be a trading account id').nullable().optional(),
  ...tradeFields,
});
export type TradeInput = z.infer<typeof tradeInput>;

export const tradePatch = tradeInput.partial();
export type TradePatch = z.infer<typeof tradePatch>;

export const accountFilter = z
  .union([z.literal('all'), z.literal('unassigned'), z.uuid('account must be all, unassigned or an account id')])
  .default('all');

const day = calendarDay();

export const listQuery = z.object({
  account: accountFilter,
  q: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(200).optional(),
  // A position in list order (0 = newest): the page that starts there, for a jump to any row.
  offset: z.coerce.number().int().min(0).max(100_000_000).optional(),
  // Trading-day range, inclusive: the dashboard's day-trades dialog lists one day.
  from: day.optional(),
  to: day.optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const statsQuery = z.object({
  account: accountFilter,
  q: z.string().max(200).optional(),
  from: day.optional(),
  to: day.optional(),
  // Which per-day rows to return: all, none, or from a day on (the rest summed into by_day_before).
  days: z.union([z.literal('all'), z.literal('none'), day], { error: 'days must be all, none or a date as yyyy-MM-dd' }).default('all'),
});
export type StatsQuery = z.infer<typeof statsQuery>;

export const idParam = z.object({ id: z.uuid('id must be a trade id') });
export const idList = z.object({
  ids: z.array(z.uuid('ids must be trade ids')).min(1, 'Please select trades').max(100_000),
});
export const assignInput = z.object({
  ids: z.array(z.uuid('ids must be trade ids')).min(1, 'Please select trades to assign').max(100_000),
  account_id: z.uuid('Please select an account'),
});

/**
 * One row of a JSON backup (GET /api/trades/export): the same limits as a trade written by hand, plus the columns
 * only a backup carries. Nulls are what the export writes for empty columns. Other keys (account_name, day_of_week,
 * timestamps) are read or recomputed by the service.
 */
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
export const backupTradeRow = z.looseObject({
  ...Object.fromEntries(Object.entries(tradeFields).map(([key, schema]) => [key, schema.nullable()])),
  id: nullable(z.union([z.string().max(200), z.number()])),
  side: nullable(z.string().max(20)),
  contract: nullable(z.string().max(100)),
  import_source: nullable(z.string().max(100)),
  entry_price: nullable(z.union([z.number(), z.string().max(100)])),
  exit_price: nullable(z.union([z.number(), z.string().max(100)])),
  quantity: nullable(z.union([z.number(), z.string().max(100)])),
  gross_pnl: nullable(z.union([z.number(), z.string().max(100)])),
});

export const importInput = z.object({
  account_id: z.uuid('Please select a trading account'),
  trades: z.custom<Array<Record<string, unknown>>>(
    (value) => Array.isArray(value) && value.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row)),
    { error: 'Invalid file format: The file does not contain an array of trade data', params: { spec: true } },
  ),
});
