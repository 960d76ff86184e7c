import { z } from 'zod';
import { instantInput } from '../../../contract/common';
import { tradeFields } from '../../../contract/trades';

// The requests live in the shared contract (src/contract/trades.ts), imported by the web app and the API tests too.
export { accountFilter } from '../../../contract/common';
export {
  assignInput,
  bulkRiskInput,
  idList,
  idParam,
  importInput,
  listQuery,
  statsQuery,
  tradeInput,
  tradePatch,
  unassignedCountQuery,
  type BulkRiskInput,
  type ListQuery,
  type StatsQuery,
  type TradeInput,
  type TradePatch,
} from '../../../contract/trades';

/**
 * One row of a JSON backup (GET /api/trades/export): the same limits as a trade written by hand, plus the columns
 * only a backup carries. Nulls are what the export writes for empty columns. Other keys (account_name, day_of_week,
 * timestamps) are read or recomputed by the service.
 */
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
/** The export writes an empty time as null; a blank one is the same. */
const blankAsNull = (value: unknown) => (value === '' ? null : value);
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
  // Times Date.parse takes and PostgreSQL refuses (year 0, 2026-02-30) are a 400 naming the row and field (issue 25).
  entry_time: z.preprocess(blankAsNull, instantInput().nullable().optional()),
  exit_time: z.preprocess(blankAsNull, instantInput().nullable().optional()),
});

