import { Hono } from 'hono';
import { and, asc, eq, sql } from 'drizzle-orm';
import { tradePreferenceInput as preferenceInput, type TradePreferences, type TradePreferencesChange } from '../../../contract/trade-preferences';
import {
  addTradeOption,
  checkTradeOptionRemoval,
  DEFAULT_SESSIONS,
  DEFAULT_TAGS,
  DEFAULT_TRADE_TYPES,
  type TradeOptionKind,
} from '../../../domain/trades';
import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { userTradePreferences } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { badRequest, conflict } from '../../http/errors';
import { readJson } from '../../http/validate';
import { tradesRepo } from '../../core/trades/repo';

const DEFAULTS: Record<TradeOptionKind, readonly string[]> = {
  trade_type: DEFAULT_TRADE_TYPES,
  session: DEFAULT_SESSIONS,
  tag: DEFAULT_TAGS,
};

// The contract's TradePreferences, keyed by the domain's kinds.
type Options = Record<TradeOptionKind, string[]>;

/**
 * A row of this type records that the defaults were written once. Without it a trader who removed every type,
 * session and tag got all the defaults back on the next read. Readers ignore it (it is not a TradeOptionKind).
 */
const SEEDED = '_seeded';

/** The trader's types, sessions and tags; the spec's defaults are written on first use. */
export async function listTradePreferences(database: Database, userId: string): Promise<Options> {
  return database.withUser(userId, (tx) => tradePreferencesIn(tx, userId));
}

/** listTradePreferences inside a transaction the caller has open. */
async function tradePreferencesIn(tx: Tx, userId: string): Promise<Options> {
  const read = () =>
    tx
      .select()
      .from(userTradePreferences)
      .where(eq(userTradePreferences.userId, userId))
      .orderBy(asc(userTradePreferences.createdAt), asc(userTradePreferences.preferenceValue));
  let rows = await read();
  if (!rows.some((row) => row.preferenceType === SEEDED)) {
    // Traders from before the marker who still have options keep them as they are.
    const defaults =
      rows.length === 0
        ? (Object.keys(DEFAULTS) as TradeOptionKind[]).flatMap((type) =>
            DEFAULTS[type].map((value) => ({ userId, preferenceType: type, preferenceValue: value })),
          )
        : [];
    await tx
      .insert(userTradePreferences)
      .values([...defaults, { userId, preferenceType: SEEDED, preferenceValue: '' }])
      .onConflictDoNothing();
    rows = await read();
  }
  const options: Options = { trade_type: [], session: [], tag: [] };
  for (const row of rows) options[row.preferenceType as TradeOptionKind]?.push(row.preferenceValue);
  return options;
}

const LABEL: Record<TradeOptionKind, string> = { trade_type: 'Trade type', session: 'Session', tag: 'Tag' };

export function tradePreferenceRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json((await listTradePreferences(database, c.var.user.id)) satisfies TradePreferences))
    .post('/', async (c) => {
      const { type, value } = await readJson(c, preferenceInput);
      const userId = c.var.user.id;
      const { options, added } = await database.withUser(userId, async (tx) => {
        // The check for a name already there ('Scalp' and 'scalp' are one) and the insert, one trader at a time:
        // the same name sent twice at once was stored twice.
        await lockFor(tx, 'trade_preferences', userId);
        const change = addTradeOption(type, (await tradePreferencesIn(tx, userId))[type], value);
        if (!change.ok) {
          if (change.ignored) throw badRequest('value: a name is required');
          // The spec's words for an empty tag name; `fields` says which field they are about.
          if (type === 'tag' && value.trim() === '') throw badRequest(change.error, { fields: [{ field: 'value', message: change.error }] });
          throw conflict(change.error);
        }
        // clock_timestamp(): after the defaults, which a trader's first request writes in this same transaction (now()
        // would give both its start, and the list orders by creation).
        await tx
          .insert(userTradePreferences)
          .values({ userId, preferenceType: type, preferenceValue: change.added, createdAt: sql`clock_timestamp()` })
          .onConflictDoNothing();
        return { options: await tradePreferencesIn(tx, userId), added: change.added };
      });
      const message = type === 'tag' ? `Tag "${added}" added successfully` : `${LABEL[type]} "${added}" added`;
      return c.json({ ...options, message } satisfies TradePreferencesChange, 201);
    })
    .delete('/', async (c) => {
      const { type, value } = await readJson(c, preferenceInput);
      const userId = c.var.user.id;
      // The defaults must exist before one of them is removed, or the next read would write it back.
      await listTradePreferences(database, userId);
      await database.withUser(userId, async (tx) => {
        if (type !== 'tag') {
          // A type or session used by any trade cannot be removed.
          const inUse = await tradesRepo(tx, userId).isValueInUse(type === 'trade_type' ? 'trade_type' : 'period', value);
          const refusal = checkTradeOptionRemoval(value, inUse ? [value] : []);
          if (refusal) throw conflict(refusal);
        }
        await tx
          .delete(userTradePreferences)
          .where(
            and(
              eq(userTradePreferences.userId, userId),
              eq(userTradePreferences.preferenceType, type),
              eq(userTradePreferences.preferenceValue, value),
            ),
          );
      });
      const message = type === 'tag' ? 'Tag removed from suggestions' : `${LABEL[type]} "${value}" removed`;
      return c.json({ ...(await listTradePreferences(database, userId)), message } satisfies TradePreferencesChange);
    });
}
