import { and, asc, eq, gte, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { BatchSizes, Tx } from '../../db/client';
import { brokerAccounts, brokerConnections, brokerFills, brokerStops, trades } from '../../db/schema';
import type { FlatPoints, SyncedFill } from '../../../domain/connections/round-trips';
import type { RoundTrip } from '../../../domain/importers';
import type { BrokerAccount as ProviderAccount, BrokerFill } from '../../connectors/types';

export type ConnectionRow = typeof brokerConnections.$inferSelect;
export type BrokerAccountRow = typeof brokerAccounts.$inferSelect;

/** A round trip the trading account holds, as the duplicate rule reads it, with where it came from. */
export type StoredRoundTrip = RoundTrip & { id: string; importSource: string | null };

/** Data access of broker connections. Every query names its owner; row-level security backs it up. */
export const connectionsRepo = (tx: Tx, userId: string) => {
  const ownConnection = (id: string) => and(eq(brokerConnections.userId, userId), eq(brokerConnections.id, id));
  const ownAccount = (id: string) => and(eq(brokerAccounts.userId, userId), eq(brokerAccounts.id, id));

  return {
    async list(): Promise<ConnectionRow[]> {
      return tx
        .select()
        .from(brokerConnections)
        .where(eq(brokerConnections.userId, userId))
        .orderBy(asc(brokerConnections.createdAt), asc(brokerConnections.id));
    },

    async find(id: string): Promise<ConnectionRow | undefined> {
      const [row] = await tx.select().from(brokerConnections).where(ownConnection(id));
      return row;
    },

    async findLogin(provider: string, firm: string, userName: string): Promise<ConnectionRow | undefined> {
      const [row] = await tx
        .select()
        .from(brokerConnections)
        .where(
          and(
            eq(brokerConnections.userId, userId),
            eq(brokerConnections.provider, provider),
            eq(brokerConnections.firm, firm),
            eq(brokerConnections.userName, userName),
          ),
        );
      return row;
    },

    async insert(values: {
      id: string;
      provider: string;
      firm: string;
      barSource: string;
      userName: string;
      secret: string;
      displayName?: string | null;
      keyWarning?: string | null;
    }): Promise<ConnectionRow> {
      const [row] = await tx
        .insert(brokerConnections)
        .values({ ...values, userId })
        .returning();
      return row!;
    },

    async update(id: string, values: Omit<PgUpdateSetSource<typeof brokerConnections>, 'id' | 'userId'>): Promise<boolean> {
      const result = await tx
        .update(brokerConnections)
        .set({ ...values, updatedAt: sql`now()` })
        .where(ownConnection(id))
        .returning({ id: brokerConnections.id });
      return result.length > 0;
    },

    async remove(id: string): Promise<boolean> {
      const result = await tx.delete(brokerConnections).where(ownConnection(id)).returning({ id: brokerConnections.id });
      return result.length > 0;
    },

    /** The broker accounts of the trader's connections (one or all), by connection then name. */
    async accounts(connectionId?: string): Promise<BrokerAccountRow[]> {
      return tx
        .select()
        .from(brokerAccounts)
        .where(and(eq(brokerAccounts.userId, userId), connectionId ? eq(brokerAccounts.connectionId, connectionId) : undefined))
        .orderBy(asc(brokerAccounts.connectionId), asc(brokerAccounts.name), asc(brokerAccounts.externalId));
    },

    async account(connectionId: string, id: string, lock = false): Promise<BrokerAccountRow | undefined> {
      const query = tx
        .select()
        .from(brokerAccounts)
        .where(and(ownAccount(id), eq(brokerAccounts.connectionId, connectionId)));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    /** Another broker account (of any connection) that already syncs into this trading account. */
    async mappedTo(accountId: string, except: string): Promise<BrokerAccountRow | undefined> {
      const [row] = await tx
        .select()
        .from(brokerAccounts)
        .where(and(eq(brokerAccounts.userId, userId), eq(brokerAccounts.accountId, accountId), ne(brokerAccounts.id, except)))
        .limit(1);
      return row;
    },

    async updateAccount(id: string, values: Omit<PgUpdateSetSource<typeof brokerAccounts>, 'id' | 'userId' | 'connectionId'>): Promise<void> {
      await tx
        .update(brokerAccounts)
        .set({ ...values, updatedAt: sql`now()` })
        .where(ownAccount(id));
    },

    /**
     * The provider's list of accounts, remembered: new ones are added unmapped, known ones get their name, balance and
     * flags, and those the provider no longer lists are marked so (their trades stay).
     */
    /** The planned stops the broker's stop orders gave synced trades (a trade keeps the first one it was given). */
    async storeStops(stops: ReadonlyArray<{ tradeId: string; orderId: string; stopPrice: string; placedAt: string }>): Promise<void> {
      if (stops.length === 0) return;
      await tx
        .insert(brokerStops)
        .values(stops.map((stop) => ({ userId, ...stop })))
        .onConflictDoNothing();
    },

    async rememberAccounts(connectionId: string, listed: ProviderAccount[]): Promise<void> {
      if (listed.length > 0) {
        await tx
          .insert(brokerAccounts)
          .values(
            listed.map((a) => ({
              userId,
              connectionId,
              externalId: a.externalId,
              name: a.name,
              balance: a.balance,
              canTrade: a.canTrade,
              active: a.active,
              simulated: a.simulated,
              listed: true,
            })),
          )
          .onConflictDoUpdate({
            target: [brokerAccounts.userId, brokerAccounts.connectionId, brokerAccounts.externalId],
            set: {
              name: sql`excluded.name`,
              balance: sql`excluded.balance`,
              canTrade: sql`excluded.can_trade`,
              active: sql`excluded.active`,
              simulated: sql`excluded.simulated`,
              listed: sql`true`,
              updatedAt: sql`now()`,
            },
          });
      }
      const ids = listed.map((a) => a.externalId);
      await tx
        .update(brokerAccounts)
        .set({ listed: false, updatedAt: sql`now()` })
        .where(
          and(
            eq(brokerAccounts.userId, userId),
            eq(brokerAccounts.connectionId, connectionId),
            sql`not (${brokerAccounts.externalId} = any(${sql.param(ids)}::text[]))`,
          ),
        );
    },

    /**
     * Stores fills the provider gave (new ids added, a fill voided since is marked so); returns how many were new. One
     * JSON parameter per statement (as the imports insert): binding a dozen parameters a fill was most of a sync's time.
     */
    async storeFills(brokerAccountId: string, fills: BrokerFill[], pace: { batch: BatchSizes; pause(): Promise<void> }): Promise<number> {
      let added = 0;
      const size = pace.batch.fills;
      for (let i = 0; i < fills.length; i += size) {
        await pace.pause();
        const json = JSON.stringify(
          fills.slice(i, i + size).map((f) => ({
            i: f.externalId,
            c: f.contractId,
            t: f.time,
            s: f.side,
            q: f.quantity,
            p: f.price,
            f: f.fees,
            l: f.pnl,
            o: f.orderId,
            v: f.voided,
          })),
        );
        const result = (await tx.execute(sql`
          with added as (
            insert into broker_fills (user_id, broker_account_id, external_id, contract_id, time, side, quantity, price, fees, pnl, order_id, voided)
            select ${userId}, ${brokerAccountId}::uuid, i, c, t, s, q, p, f, l, o, v
            from jsonb_to_recordset(${json}::jsonb) as r(i text, c text, t timestamptz, s text, q numeric, p numeric, f numeric, l numeric, o text, v boolean)
            on conflict (user_id, broker_account_id, external_id) do update set voided = excluded.voided
            -- xmax = 0 on a row this statement inserted (an updated one carries the updating transaction's id).
            returning xmax = 0 as inserted
          )
          select count(*) filter (where inserted)::int as n from added
        `)) as unknown as { rows: Array<{ n: number | string }> };
        added += Number(result.rows[0]?.n ?? 0);
      }
      return added;
    },

    /** The stored fills after each contract's flat point (all of a contract without one), as the domain reads them. */
    async fillsAfter(brokerAccountId: string, flat: FlatPoints): Promise<SyncedFill[]> {
      const rows = await tx.execute(sql`
        select f.external_id, f.contract_id, f.time, f.side, f.quantity, f.price, f.fees, f.pnl, f.voided
        from ${brokerFills} f
        left join jsonb_each(${JSON.stringify(flat)}::jsonb) p on p.key = f.contract_id
        where f.user_id = ${userId} and f.broker_account_id = ${brokerAccountId}
          and (p.key is null or f.time >= (p.value->>'time')::timestamptz)
        order by f.time, length(f.external_id), f.external_id
      `);
      return (rows as unknown as { rows: Array<Record<string, unknown>> }).rows.map((r) => ({
        id: String(r.external_id),
        contractId: String(r.contract_id),
        time: new Date(r.time as string).toISOString(),
        side: r.side as 'Buy' | 'Sell',
        quantity: String(r.quantity),
        price: String(r.price),
        fees: String(r.fees),
        pnl: r.pnl === null ? null : String(r.pnl),
        voided: Boolean(r.voided),
      }));
    },

    /**
     * Round trips a trading account holds with an entry time in [from, to] (and their ids), for the two-export duplicate
     * rule: a trade synced and the same trade imported from a CSV export are one trade.
     */
    async roundTripsBetween(accountId: string, from: number, to: number): Promise<StoredRoundTrip[]> {
      const day = 86_400_000;
      const rows = await tx
        .select({
          id: trades.id,
          contract: trades.contract,
          side: trades.side,
          quantity: trades.quantity,
          entryPrice: trades.entryPrice,
          exitPrice: trades.exitPrice,
          entryTime: trades.entryTime,
          exitTime: trades.exitTime,
          importSource: trades.importSource,
        })
        .from(trades)
        .where(
          and(
            eq(trades.userId, userId),
            eq(trades.accountId, accountId),
            gte(trades.tradeDate, new Date(from - 4 * day).toISOString()),
            lte(trades.tradeDate, new Date(to + 4 * day).toISOString()),
            isNotNull(trades.entryTime),
            gte(trades.entryTime, new Date(from - 60_000).toISOString()),
            lte(trades.entryTime, new Date(to + 60_000).toISOString()),
          ),
        );
      return rows.map((r) => {
        const entry = r.entryTime === null ? null : new Date(r.entryTime);
        const exit = r.exitTime === null ? null : new Date(r.exitTime);
        return {
          id: r.id,
          importSource: r.importSource,
          contract: r.contract,
          side: r.side,
          quantity: r.quantity,
          entryPrice: r.entryPrice,
          exitPrice: r.exitPrice,
          entryTime: entry?.toISOString() ?? null,
          exitTime: exit?.toISOString() ?? null,
          // A file with minutes only stored :00 seconds: compared to the minute (as the imports do).
          minutePrecision: MINUTE_SOURCES.has(r.importSource ?? '') && entry?.getUTCSeconds() === 0 && exit?.getUTCSeconds() === 0,
        };
      });
    },
  };
};

/** Import formats whose times have minutes only (imports service MINUTE_FORMATS). */
const MINUTE_SOURCES = new Set(['ninjatrader-trades', 'thinkorswim-statement', 'mapped']);
