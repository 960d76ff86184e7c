import { z } from 'zod';
import { TRADING_DAY_RULES } from '../domain/market-time';
import { timeZone } from './common';

/**
 * The preferences endpoints' contract: GET and PATCH /api/preferences. The starting balance of the balance
 * widget belongs to each trading account (src/contract/accounts.ts).
 */

const json = z.unknown().refine((v) => JSON.stringify(v ?? null).length <= 50_000, 'must be at most 50 kB of JSON');

/** PATCH /api/preferences */
export const preferencesPatch = z
  .object({
    theme: z.enum(['dark', 'light']).optional(),
    time_zone: timeZone().optional(),
    widgets: json.optional(),
    layout: json.optional(),
    stats_widgets_order: json.optional(),
    quick_note: z.string().max(20_000, 'quick_note must be at most 20000 characters').optional(),
    // Imported trades under the exchange's trading day or the calendar day; a change re-files them.
    trading_day: z.enum(TRADING_DAY_RULES, { error: "trading_day must be 'exchange' or 'calendar'" }).optional(),
  })
  .strict();

/** GET /api/preferences */
export const preferences = z.strictObject({
  theme: z.enum(['dark', 'light']),
  time_zone: z.string(),
  widgets: z.unknown(),
  layout: z.unknown(),
  stats_widgets_order: z.unknown(),
  quick_note: z.string(),
  /** Imported trades under the exchange's trading day or the calendar day. */
  trading_day: z.enum(['exchange', 'calendar']),
  onboarded: z.boolean(),
});
/** PATCH /api/preferences: the preferences, and how many imported trades a change of trading_day moved. */
export const preferencesUpdate = preferences.extend({ refiled_trades: z.number().int().nonnegative() });

export type PreferencesPatch = z.input<typeof preferencesPatch>;
export type Preferences = z.infer<typeof preferences>;
export type PreferencesUpdate = z.infer<typeof preferencesUpdate>;
