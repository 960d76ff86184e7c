import { z } from 'zod';
import type { ColumnMapping, TimeZoneCheck } from '../domain/importers';
import { isSideWord } from '../domain/trades/side';
import { agree, decimal, instant, timeZone, type Same } from './common';
import { propAccountSummary } from './prop';

/**
 * The broker-import endpoints' contract: /api/imports/preview, /api/imports, /api/imports/formats and the
 * fee schedules. Money as exact decimal strings.
 */

/**
 * Requests. The import endpoints take the file itself as the body (text/csv or application/json, the bytes as the
 * trader's
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
/** An account id that is no id at all (a missing one gets the spec's words above). */
const ACCOUNT_ID_MESSAGE = 'must be a trading account id';

const column = z.string().min(1).max(200);

/** The trader's column mapping (src/domain/importers/mapping.ts), as a JSON query parameter. */
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
  /**
   * IANA zone of the file's naive times; default the zone the account's last import was read in, else the trader's
   * own (GET /api/preferences time_zone).
   */
  time_zone: z.preprocess(emptyToUndefined, timeZone().optional()),
  /** The browser's zone: proposed first when the file's times do not fit the chosen zone. */
  browser_time_zone: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
  /**
   * JSON object, account named in the file -> trading account id, or '' to leave that account's
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
  account_id: z.preprocess(emptyToUndefined, z.uuid({ error: ACCOUNT_ID_MESSAGE }).optional()),
  /** How many of the new trades to list (all are counted); the dialog shows the first ones. */
  limit: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(1000)),
});
export type PreviewQuery = z.infer<typeof previewQuery>;

export const importQuery = baseQuery.extend({
  /** Required: the spec's 'Please select a trading account', checked before anything else is read. */
  account_id: z.preprocess(
    emptyToUndefined,
    z.uuid({ error: (issue) => (issue.input === undefined ? ACCOUNT_REQUIRED_MESSAGE : ACCOUNT_ID_MESSAGE) }),
  ),
  /**
   * The trader saw the unreadable rows in the preview and chose to import the rest. Without it a file with
   * unreadable rows is refused (422), so no row is ever dropped without the trader knowing.
   */
  skip_unreadable: flag,
  /**
   * The setup (the spec's type) for the file's trades that name none, chosen once in the dialog; a file only
   * says the side. A side word is no setup.
   */
  setup: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .max(100)
      .refine((value) => !isSideWord(value), 'must be a setup, not a side (the side comes from the file)')
      .optional(),
  ),
  /** A playbook for every trade of the file, chosen once in the dialog. */
  playbook_id: z.preprocess(emptyToUndefined, z.uuid('playbook_id must be a playbook id').optional()),
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

/** GET /api/imports/formats: the Trade Import Guide's list. */
export const importFormats = z.array(z.strictObject({ id: z.string(), label: z.string(), columns: z.array(z.string()) }));

const rates = z.strictObject({ micro: decimal, mini: decimal, roots: z.record(z.string(), decimal) });
/** GET and PUT /api/imports/fees/:accountId: dollars per contract per side. */
export const feeSchedule = rates.extend({
  account_id: z.uuid(),
  /** False while the account uses the defaults. */
  stored: z.boolean(),
  defaults: rates,
});
/** POST /api/imports/fees/:accountId/apply */
export const feeScheduleApplied = z.strictObject({
  updated: z.number().int().nonnegative(),
  trades: z.number().int().nonnegative(),
  schedule: feeSchedule,
});

export const importIssue = z.strictObject({
  /** Spreadsheet row (the header is row 1); 0 means the file as a whole. */
  row: z.number().int().nonnegative(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});

const totals = z.strictObject({ trades: z.number().int().nonnegative(), gross_pnl: decimal, commission: decimal, net_pnl: decimal });

export const previewTrade = z.strictObject({
  import_key: z.string(),
  rows: z.array(z.number().int()),
  file_account: z.string(),
  date: z.iso.date(),
  trade_date: instant,
  day_of_week: z.string(),
  symbol: z.string(),
  contract: z.string().nullable(),
  side: z.enum(['Long', 'Short']).nullable(),
  period: z.string(),
  trade_type: z.string(),
  status: z.enum(['Win', 'Loss', 'BE']),
  entry_time: instant.nullable(),
  exit_time: instant.nullable(),
  quantity: decimal.nullable(),
  entry_price: decimal.nullable(),
  exit_price: decimal.nullable(),
  gross_pnl: decimal,
  commission: decimal,
  /** Net of commission. */
  pnl: decimal,
  /** The same amounts in integer cents. */
  gross_cents: z.number().int(),
  commission_cents: z.number().int(),
  net_cents: z.number().int(),
  notes: z.string(),
  link: z.string(),
  tags: z.array(z.string()),
  fills: z.strictObject({ entry: z.number().int().nonnegative(), exit: z.number().int().nonnegative() }),
  /** Why the file leaves this trade's reading uncertain (same-minute fills of a minute-precision file). */
  ambiguity: z.string().nullable(),
  /** The trading account it goes into; null while its file account has none. */
  account_id: z.uuid().nullable(),
  /** 'schedule' when the account's fee schedule set the commission (the file had none). */
  commission_source: z.enum(['schedule']).nullable(),
});

/** An account named in the file and the trading account it goes into. */
export const fileAccount = z.strictObject({
  name: z.string(),
  account_id: z.uuid().nullable(),
  source: z.enum(['chosen', 'remembered', 'name', 'skipped']).nullable(),
  suggested_account_id: z.uuid().nullable(),
  trades: z.number().int().nonnegative(),
  new_trades: z.number().int().nonnegative(),
  totals,
});

export const openPosition = z.strictObject({
  file_account: z.string(),
  symbol: z.string(),
  contract: z.string(),
  side: z.enum(['Long', 'Short']),
  quantity: decimal,
  average_price: decimal,
  opened_at: instant.nullable(),
  rows: z.array(z.number().int()),
});

const zoneFit = z.strictObject({
  zone: z.string(),
  closed: z.number().int(),
  dayMismatches: z.number().int(),
  cashSession: z.number().int(),
  openingHour: z.number().int(),
});
const timeZoneCheck = z.strictObject({
  chosen: zoneFit,
  checked: z.number().int(),
  suggested: zoneFit.nullable(),
  alternatives: z.array(zoneFit),
  message: z.string(),
});
const format = z.strictObject({ id: z.string(), label: z.string() });

/** POST /api/imports/preview */
export const importPreview = z.strictObject({
  format,
  /** What detection chose when the trader picked another format. */
  detected_format: format.nullable(),
  time_zone: z.string(),
  /**
   * Where `time_zone` came from: chosen in the dialog, the zone the account's last import was read in, or the
   * trader's own (Profile Settings), in that order.
   */
  time_zone_source: z.enum(['chosen', 'account', 'profile']),
  account_id: z.uuid().nullable(),
  row_count: z.number().int().nonnegative(),
  file_accounts: z.array(fileAccount),
  total_trades: z.number().int().nonnegative(),
  new_trades: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  /** Duplicates recognised as the same round trips from another export of the account. */
  duplicates_from_other_exports: z.number().int().nonnegative(),
  unmapped_trades: z.number().int().nonnegative(),
  skipped_trades: z.number().int().nonnegative(),
  /** False when the file has no commissions or fees: the accounts' fee schedules were applied. */
  costs_in_file: z.boolean(),
  fee_schedules: z.array(feeSchedule),
  /** The header row as written (for the column mapping). */
  headers: z.array(z.string()),
  /** The column mapping the file was read with; remembered when it came from an earlier import of these columns. */
  mapping: columnMapping.nullable(),
  mapping_remembered: z.boolean(),
  /** The first new trades (all are counted in new_trades). */
  trades: z.array(previewTrade),
  trades_truncated: z.boolean(),
  open_positions: z.array(openPosition),
  issues: z.array(importIssue),
  unreadable_rows: z.number().int().nonnegative(),
  ignored: z.record(z.string(), z.number().int()),
  totals,
  time_zone_check: timeZoneCheck.nullable(),
});

/** POST /api/imports: what went in, per trading account, in one transaction. */
export const importOutcome = z.strictObject({
  imported: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  total_trades: z.number().int().nonnegative(),
  skipped_trades: z.number().int().nonnegative(),
  open_positions: z.number().int().nonnegative(),
  skipped_rows: z.number().int().nonnegative(),
  format,
  time_zone: z.string(),
  account_id: z.uuid(),
  accounts: z.array(z.strictObject({ account_id: z.uuid(), imported: z.number().int().nonnegative(), duplicates: z.number().int().nonnegative() })),
  /** Trades already stored without their fills (imported before fills were kept) that got this file's. */
  fills_attached: z.number().int().nonnegative(),
  /** The prop accounts the import wrote into that are now near a limit (amber) or past one (red). */
  prop_warnings: z.array(propAccountSummary),
});

/**
 * GET /api/imports/queue: the caller's own uploads waiting for their turn to be read, and how many
 * uploads (of any trader, being read or waiting) are ahead of the first of them. Nothing waits: { waiting: 0, ahead:
 * 0 }.
 */
export const importQueue = z.strictObject({ waiting: z.number().int().nonnegative(), ahead: z.number().int().nonnegative() });

export type ImportFormats = z.infer<typeof importFormats>;
export type FeeScheduleDto = z.infer<typeof feeSchedule>;
export type FeeScheduleApplied = z.infer<typeof feeScheduleApplied>;
export type ImportIssue = z.infer<typeof importIssue>;
export type PreviewTrade = z.infer<typeof previewTrade>;
export type FileAccount = z.infer<typeof fileAccount>;
export type OpenPosition = z.infer<typeof openPosition>;
export type ImportPreview = z.infer<typeof importPreview>;
export type ImportOutcome = z.infer<typeof importOutcome>;
export type ImportQueue = z.infer<typeof importQueue>;

/** The schemas of the domain's own results must say what the domain's types say, both ways. */
agree<Same<z.infer<typeof timeZoneCheck>, TimeZoneCheck>>(true);
agree<Same<z.infer<typeof columnMapping>, ColumnMapping>>(true);
