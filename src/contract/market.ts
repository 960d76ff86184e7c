import { z } from 'zod';
import { calendarDay, decimal, instant, storedDecimal, timeZone } from './common';

/**
 * Fills, price bars and what they tell of a trade: a trade's fills (GET and PUT /api/trades/:id/fills), the bar files
 * (/api/market/bars...), what bars the trader has per contract and day, and a trade's chart with its MAE, MFE and exit
 * analysis (/api/market/trades/:id/chart). Prices and money as exact decimal strings; times as ISO instants.
 */

/** One fill of a trade, in the order traded. */
export const fill = z.strictObject({
  time: instant,
  side: z.enum(['Buy', 'Sell']),
  quantity: decimal,
  price: decimal,
  /** Commission and fees of this fill; null when the file gave none. */
  commission: decimal.nullable(),
});
export type Fill = z.infer<typeof fill>;

/** An instant with its offset (ISO 8601), for requests: a time without one would be read in some machine's zone. */
const zonedInstant = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i, 'must be an ISO time with its zone, e.g. 2026-03-09T14:35:00Z')
  .refine((text) => {
    const ms = Date.parse(text);
    return Number.isFinite(ms) && new Date(ms).getUTCFullYear() >= 1900 && new Date(ms).getUTCFullYear() <= 2999;
  }, 'must be a real time between the years 1900 and 2999');

/** PUT /api/trades/:id/fills: a manual trade's fills, all of them, in any order (they are sorted by time). */
export const fillsInput = z.strictObject({
  fills: z
    .array(
      z.strictObject({
        time: zonedInstant,
        side: z.enum(['Buy', 'Sell'], { error: 'must be Buy or Sell' }),
        quantity: storedDecimal({ positive: true, required: true, message: 'must be a positive number with at most 8 decimals' }),
        price: storedDecimal({ required: true, message: 'must be a number with at most 8 decimals' }),
        commission: z
          .union([z.number(), z.string().max(40)])
          .nullable()
          .optional(),
      }),
    )
    .max(500, 'a trade holds at most 500 fills'),
});
export type FillsInput = z.infer<typeof fillsInput>;

/** GET /api/trades/:id/fills, and PUT's answer: the fills, and whether the trader may change them (manual trades). */
export const tradeFills = z.strictObject({
  trade_id: z.uuid(),
  editable: z.boolean(),
  fills: z.array(fill),
});
export type TradeFills = z.infer<typeof tradeFills>;

export const resolution = z.union([z.literal(1), z.literal(60)]);

const missingRange = z.strictObject({ from: instant, to: instant });

const excursionFigure = z.strictObject({
  points: decimal,
  ticks: decimal.nullable(),
  dollars: decimal,
  /** In R when the trade has a planned risk; null otherwise. */
  r: decimal.nullable(),
  price: decimal,
  time: instant,
});

const exitAfter = z.discriminatedUnion('status', [
  z.strictObject({
    minutes: z.number().int(),
    status: z.literal('ok'),
    /** Gross P&L had the exit been N minutes later, and net of the trade's own commission. */
    gross_pnl: decimal,
    net_pnl: decimal,
    /** Against the trade's real net P&L. */
    difference: decimal,
    /** The net P&L and the difference in R when the trade has a planned risk; null otherwise. */
    net_pnl_r: decimal.nullable(),
    difference_r: decimal.nullable(),
    price: decimal,
    time: instant,
  }),
  z.strictObject({
    minutes: z.number().int(),
    status: z.enum(['missing', 'closed']),
    /** The minute whose bar is missing (the start of that minute), when it is one. */
    minute: instant.optional(),
  }),
]);

/** Where a trade's bars came from: the trader's own uploads, or a provider they are connected to. */
const barSource = z.strictObject({ id: z.string(), label: z.string() });

/**
 * A trade's MAE, MFE, best exit, capture and exit analysis as stored (src/domain/market/excursions.ts), or why there
 * are none: bars missing (which, and how to add them), no bars at all, or nothing to measure (a trade without times).
 */
export const excursions = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('complete'),
    contract: z.string(),
    resolution,
    bars_counted: z.number().int().positive(),
    first_bar: instant,
    last_bar: instant,
    within_one_bar: z.boolean(),
    average_entry: decimal,
    mae: excursionFigure,
    mfe: excursionFigure,
    /** The best exit inside the trade; `r` is its gross P&L in R when the trade has a planned risk. */
    best_exit: z.strictObject({ price: decimal, time: instant, gross_pnl: decimal, r: decimal.nullable() }),
    /** The trade's gross P&L over the best exit's (0.625 = 62.5%); null when price never went its way. */
    capture: decimal.nullable(),
    /** The whole position closed N minutes after its final exit, at that minute's price. */
    exit_after: z.array(exitAfter),
    /** The second mode: each exit fill moved N minutes later (the price shown is the last exit's). */
    exit_after_each_fill: z.array(exitAfter),
    /** Minutes without a bar taken as minutes without trades, as the trader confirmed for the upload's source. */
    quiet_minutes: z.number().int().nonnegative(),
    sources: z.array(barSource),
    computed_at: instant,
  }),
  z.strictObject({
    status: z.literal('missing'),
    contract: z.string(),
    resolution,
    /** The stretches without bars (each a run of whole minutes, clipped to the trade's entry and exit). */
    missing: z.array(missingRange),
    from: instant,
    to: instant,
    sources: z.array(barSource),
    computed_at: instant,
  }),
  z.strictObject({ status: z.literal('no-bars'), contract: z.string(), from: instant, to: instant, computed_at: instant }),
  z.strictObject({ status: z.literal('not-applicable'), reason: z.string(), computed_at: instant }),
]);
export type Excursions = z.infer<typeof excursions>;

/** GET /api/market/trades/:id/chart?padding=&resolution= */
export const chartQuery = z.object({
  /** Minutes shown before the entry and after the exit. */
  padding: z.coerce
    .number()
    .int('padding must be whole minutes')
    .min(0, 'padding must be 0 to 1440 minutes')
    .max(1440, 'padding must be 0 to 1440 minutes')
    .default(30),
  /** Bars to draw; the finest that has bars around the trade by default. */
  resolution: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), resolution.optional()),
});
export type ChartQuery = z.infer<typeof chartQuery>;

/** A bar on the wire: [start (epoch seconds), open, high, low, close, volume or null], compact for thousands of them. */
const wireBar = z.tuple([z.number().int(), z.number(), z.number(), z.number(), z.number(), z.number().nullable()]);

export const tradeChart = z.strictObject({
  trade_id: z.uuid(),
  /** The bars' key: the trade's contract (MNQZ5), or its symbol for a trade without one. */
  contract: z.string(),
  side: z.enum(['Long', 'Short']).nullable(),
  entry_time: instant.nullable(),
  exit_time: instant.nullable(),
  /** Average prices, drawn as lines. */
  entry_price: decimal.nullable(),
  exit_price: decimal.nullable(),
  padding: z.number().int(),
  /** What the window holds per resolution, and the one drawn (null when there are none). */
  available: z.array(z.strictObject({ resolution, bars: z.number().int().nonnegative() })),
  resolution: resolution.nullable(),
  from: instant.nullable(),
  to: instant.nullable(),
  bars: z.array(wireBar),
  /** True when the window held more bars than one chart draws and the first ones were left out. */
  truncated: z.boolean(),
  /** Open-market minutes of the window without a bar: the chart shows them as holes. */
  holes: z.array(missingRange),
  fills: z.array(fill),
  /** The trade's planned stop: from the broker's stop order (a synced trade's bracket) or as the trade says. */
  stop: z.strictObject({ price: decimal, source: z.enum(['stop-order', 'trade']) }).nullable(),
  excursions: excursions.nullable(),
});
export type TradeChart = z.infer<typeof tradeChart>;

/** The bar files' options, in the query (the body is the file as the trader has it). */
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const flag = z
  .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
  .optional()
  .transform((v) => v === 'true' || v === '1');
const jsonParam = (value: unknown) => {
  if (value === undefined || value === '') return undefined;
  try {
    return JSON.parse(String(value));
  } catch {
    return Symbol('not JSON');
  }
};
const column = z.string().min(1).max(200);
export const barMapping = z
  .object({
    time: column,
    timeIs: z.enum(['start', 'end']).optional(),
    open: column,
    high: column,
    low: column,
    close: column,
    volume: column.optional(),
    symbol: column.optional(),
  })
  .strict();

export const BAR_FORMAT_IDS = ['ninjatrader-bars', 'tradingview-bars', 'databento-ohlcv', 'mapped-bars'] as const;

export const barsQuery = z.object({
  format: z.preprocess(
    (v) => (v === '' || v === 'auto' ? undefined : v),
    z.enum(BAR_FORMAT_IDS, { error: `must be one of ${BAR_FORMAT_IDS.join(', ')}` }).optional(),
  ),
  /** The contract the bars are for, when the file has no symbol column (normalised: 'MNQ DEC25' is MNQZ5). */
  contract: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  time_zone: z.preprocess(emptyToUndefined, timeZone().optional()),
  browser_time_zone: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
  resolution: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), resolution.optional()),
  mapping: z.preprocess(jsonParam, barMapping.optional()),
  /** The trader replaces their stored bars where the file's differ (by default a stored bar is kept and reported). */
  replace: flag,
  /** The trader stores bars that their own fills contradict (another contract month, a continuous series) all the same. */
  insist: flag,
  /** The trader confirms the file's source leaves out minutes without trades: a minute without a bar had none. */
  quiet_minutes: flag,
});
export type BarsQuery = z.infer<typeof barsQuery>;

const issue = z.strictObject({ row: z.number().int().nonnegative(), severity: z.enum(['error', 'warning']), message: z.string() });
const zoneFit = z.strictObject({
  zone: z.string(),
  closed: z.number().int(),
  dayMismatches: z.number().int(),
  cashSession: z.number().int(),
  openingHour: z.number().int(),
});

const seriesSummary = z.strictObject({
  contract: z.string(),
  bars: z.number().int().nonnegative(),
  first: instant,
  last: instant,
  /** Of these, bars already stored with the same values, and stored with other values (kept as they are). */
  already_stored: z.number().int().nonnegative(),
  conflicting: z.number().int().nonnegative(),
});

/** A contract whose bars the trader's own fills contradict: fills at prices their minute's bar never reached. */
const contradiction = z.strictObject({
  contract: z.string(),
  /** The trader's fills of the contract that have a bar in the file, and of those, how many lie outside it. */
  fills_checked: z.number().int().nonnegative(),
  fills_outside: z.number().int().nonnegative(),
  first: z.array(
    z.strictObject({
      trade_id: z.uuid(),
      time: instant,
      side: z.enum(['Buy', 'Sell']),
      quantity: decimal,
      price: decimal,
      bar_low: decimal,
      bar_high: decimal,
    }),
  ),
});

const conflict = z.strictObject({
  contract: z.string(),
  start: instant,
  stored: z.strictObject({ open: decimal, high: decimal, low: decimal, close: decimal, volume: decimal.nullable() }),
  file: z.strictObject({ open: decimal, high: decimal, low: decimal, close: decimal, volume: decimal.nullable() }),
});

/** POST /api/market/bars/preview */
export const barsPreview = z.strictObject({
  format: z.strictObject({ id: z.enum(BAR_FORMAT_IDS), label: z.string() }),
  resolution,
  time_zone: z.string(),
  /** The file's times carry no offset: they were read in time_zone. */
  naive_times: z.boolean(),
  row_count: z.number().int().nonnegative(),
  duplicates_in_file: z.number().int().nonnegative(),
  series: z.array(seriesSummary),
  issues: z.array(issue),
  unreadable_rows: z.number().int().nonnegative(),
  time_zone_check: z
    .strictObject({ chosen: zoneFit, checked: z.number().int(), suggested: zoneFit.nullable(), alternatives: z.array(zoneFit), message: z.string() })
    .nullable(),
  headers: z.array(z.string()),
  mapping: barMapping.nullable(),
  /** The first bars stored with other values than the file's (kept unless the trader chooses to replace them). */
  conflicts: z.array(conflict),
  /** Contracts the trader's fills contradict: nothing of them is stored unless the trader insists. */
  contradictions: z.array(contradiction),
  /** The format is one known to leave out minutes without trades (Databento's OHLCV): the trader may confirm it. */
  omits_quiet_minutes: z.boolean(),
});
export type BarsPreview = z.infer<typeof barsPreview>;

/** POST /api/market/bars */
export const barsOutcome = z.strictObject({
  added: z.number().int().nonnegative(),
  /** Already stored with the same values: nothing changed. */
  unchanged: z.number().int().nonnegative(),
  /** Stored with other values: kept as they were, the first listed. */
  conflicting: z.number().int().nonnegative(),
  /** Stored with other values and replaced by the file's, as the trader asked. */
  replaced: z.number().int().nonnegative(),
  conflicts: z.array(conflict),
  /** Contracts the trader's fills contradict that were stored because the trader insisted. */
  contradictions: z.array(contradiction),
  quiet_minutes: z.boolean(),
  skipped_rows: z.number().int().nonnegative(),
  resolution,
  series: z.array(z.strictObject({ contract: z.string(), added: z.number().int().nonnegative() })),
  /** The caller's trades whose MAE and MFE were computed again with these bars. */
  trades_updated: z.number().int().nonnegative(),
});
export type BarsOutcome = z.infer<typeof barsOutcome>;

/** GET /api/market/bars/coverage?contract= */
export const coverageQuery = z.object({ contract: z.preprocess(emptyToUndefined, z.string().max(40).optional()) });

/** The trader's own bars per contract, resolution and day (the trader's zone). */
export const barsCoverage = z.strictObject({
  time_zone: z.string(),
  days: z.array(
    z.strictObject({
      contract: z.string(),
      resolution,
      day: z.iso.date(),
      bars: z.number().int().positive(),
      first: instant,
      last: instant,
      /** Bars of that day the trader can delete: all of them, since every bar listed is the trader's own. */
      mine: z.number().int().nonnegative(),
    }),
  ),
});
export type BarsCoverage = z.infer<typeof barsCoverage>;

/** DELETE /api/market/bars?contract=&resolution=&day= (a day in the caller's zone) */
export const deleteBarsQuery = z.object({
  contract: z.string().min(1, 'contract: choose the contract').max(40),
  resolution: z.preprocess((v) => Number(v), resolution),
  day: calendarDay('day must be a date as yyyy-MM-dd'),
});
export const barsDeleted = z.strictObject({
  deleted: z.number().int().nonnegative(),
  /** Bars of that day left (none: a trader's bars are theirs alone); kept in the answer for older clients. */
  kept: z.number().int().nonnegative(),
  trades_updated: z.number().int().nonnegative(),
});
export type BarsDeleted = z.infer<typeof barsDeleted>;

export const barFormats = z.array(z.strictObject({ id: z.enum(BAR_FORMAT_IDS), label: z.string(), columns: z.string() }));
