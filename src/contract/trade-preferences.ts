import { z } from 'zod';

/** The trade-preferences endpoints' contract: the trader's trade types, sessions and tags. */

const kind = z.enum(['trade_type', 'session', 'tag'], { error: 'type must be trade_type, session or tag' });
/** POST and DELETE /api/trade-preferences */
export const tradePreferenceInput = z.object({ type: kind, value: z.string().max(100, 'value must be at most 100 characters') });

/** GET /api/trade-preferences */
export const tradePreferences = z.strictObject({
  trade_type: z.array(z.string()),
  session: z.array(z.string()),
  tag: z.array(z.string()),
});
/** POST and DELETE /api/trade-preferences: the lists after the change, and the toast's words. */
export const tradePreferencesChange = tradePreferences.extend({ message: z.string() });

export type TradePreferenceInput = z.infer<typeof tradePreferenceInput>;
export type TradePreferences = z.infer<typeof tradePreferences>;
export type TradePreferencesChange = z.infer<typeof tradePreferencesChange>;
