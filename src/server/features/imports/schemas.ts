import { z } from 'zod';

/**
 * The import endpoints take the file itself as the body (text/csv or application/json, the bytes as the trader's
 * file has them) and their options in the query string, so a 50 MB export is never wrapped in JSON.
 */
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const flag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
);

export const ACCOUNT_REQUIRED_MESSAGE = 'Please select a trading account';

const column = z.string().min(1).max(200);

/** Issue 12, point 8: the trader's column mapping (src/domain/importers/mapping.ts), as a JSON query parameter. */
export const columnMapping = z
  .object({
    kind: z.enum(['fills', 'pnl']),
    time: column,
    clock: column.optional(),
    symbol: column.optional(),
    side: column.optional(),
    quantity: column.optional(),
    price: column.optional(),
    commission: column.optional(),
    pnl: column.optional(),
    account: column.optional(),
  })
  .strict();

const jsonParam = (value: unknown) => {
  if (value === undefined || value === '') return undefined;
  try {
    return JSON.parse(String(value));
  } catch {
    return Symbol('not JSON');
  }
};

const baseQuery = z.object({
  /** A format id of listFormats(); empty or 'auto' lets the server detect it from the header row. */
  format: z.preprocess((v) => (v === '' || v === 'auto' ? undefined : v), z.string().max(100).optional()),
  /** IANA zone of the file's naive times; default the trader's own (GET /api/preferences time_zone). */
  time_zone: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
  /** The browser's zone: proposed first when the file's times do not fit the chosen zone (issue 12, point 4). */
  browser_time_zone: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
  /**
   * Issue 12, point 7: JSON object, account named in the file -> trading account id, or '' to leave that account's
   * trades out. File accounts not named here go to the account picked (one-account files), the remembered account or
   * the trading account of the same name.
   */
  /** The trader's column mapping for a CSV of a format we do not read (JSON); remembered by its header row. */
  mapping: z.preprocess(jsonParam, columnMapping.optional()),
  account_map: z.preprocess(
    jsonParam,
    z
      .record(z.string().max(200), z.union([z.literal(''), z.uuid({ error: 'must map to a trading account id or ""' })]), {
        error: 'must be a JSON object of file account -> trading account id',
      })
      .refine((map) => Object.keys(map).length <= 500, 'must name at most 500 file accounts')
      .optional(),
  ),
});

export const previewQuery = baseQuery.extend({
  /** With an account, the preview counts the trades that account already has. */
  account_id: z.preprocess(emptyToUndefined, z.uuid({ error: ACCOUNT_REQUIRED_MESSAGE }).optional()),
  /** How many of the new trades to list (all are counted); the dialog shows the first ones. */
  limit: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(1000)),
});
export type PreviewQuery = z.infer<typeof previewQuery>;

export const importQuery = baseQuery.extend({
  /** Required: the spec's 'Please select a trading account' (part 1 §5), checked before anything else is read. */
  account_id: z.preprocess(emptyToUndefined, z.uuid({ error: ACCOUNT_REQUIRED_MESSAGE })),
  /**
   * The trader saw the unreadable rows in the preview and chose to import the rest. Without it a file with
   * unreadable rows is refused (422), so no row is ever dropped without the trader knowing.
   */
  skip_unreadable: flag,
});
export type ImportQuery = z.infer<typeof importQuery>;

export const accountParam = z.object({ accountId: z.uuid({ error: 'account_id: Trading account not found' }) });

const rate = z.union([z.string().max(20), z.number()], { error: 'must be an amount in dollars' });

/** A fee schedule as the trader edits it: dollars per contract per side (fee-schedules.ts checks the amounts). */
export const feeScheduleInput = z
  .object({
    micro: rate,
    mini: rate,
    roots: z
      .record(z.string().max(20), rate)
      .refine((roots) => Object.keys(roots).length <= 200, 'must name at most 200 roots')
      .optional(),
  })
  .strict();
