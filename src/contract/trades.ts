import { z } from 'zod';

/**
 * The trade read endpoints' contract (issue 14): one trade as GET /api/trades, GET /api/trades/:id, POST and PATCH
 * answer it, and the Trade Log's page of them. The server types its DTO with it, the web app takes its types from it
 * (types only), the API tests check the responses against it. Money is an exact decimal string ("-12.50").
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
  side: z.string().nullable(),
  contract: z.string().nullable(),
  entry_time: instant.nullable(),
  exit_time: instant.nullable(),
  entry_price: decimal.nullable(),
  exit_price: decimal.nullable(),
  quantity: decimal.nullable(),
  gross_pnl: decimal.nullable(),
  import_source: z.string().nullable(),
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
