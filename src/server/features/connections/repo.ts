import { and, asc, eq, gte, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client';
import { brokerAccounts, brokerConnections, brokerFills, trades } from '../../db/schema';
import type { FlatPoints, SyncedFill } from '../../../domain/connections/round-trips';
import type { RoundTrip } from '../../../domain/importers';
import type { BrokerAccount as ProviderAccount, BrokerFill } from '../../connectors/types';
import type { NewTradeRow } from '../trades/repo';

export type ConnectionRow = typeof brokerConnections.$inferSelect;
export type BrokerAccountRow = typeof brokerAccounts.$inferSelect;

/** PGlite runs statements on the server's thread: a turn of the event loop between large ones (as imports do). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows per INSERT: well under PostgreSQL's bind-parameter limit (25 columns a trade, 12 a fill). */
const TRADES_PER_INSERT = 500;
const FILLS_PER_INSERT = 2000;

/** Data access of broker connections. Every query names its owner; row-level security backs it up. */
export const connectionsRepo = (tx: Tx, userId: string) => {
  const ownConnection = (id: string) => and(eq(brokerConnections.userId, userId), eq(brokerConnections.id, id));
  const ownAccount = (id: string) => and(eq(brokerAccounts.userId, userId), eq(brokerAccounts.id, id));

  return {
    async list(): Promise<ConnectionRow[]> {
      return tx.select().from(brokerConnections).where(eq(brokerConnections.userId, userId)).orderBy(asc(brokerConnections.createdAt), asc(brokerConnections.id));
    },

    async find(id: string): Promise<ConnectionRow | undefined> {
      const [row] = await tx.select().from(brokerConnections).where(ownConnection(id));
      return row;
    },

    async findLogin(provider: string, userName: string): Promise<ConnectionRow | undefined> {
      const [row] = await tx
        .select()
        .from(brokerConnections)
        .where(and(eq(brokerConnections.userId, userId), eq(brokerConnections.provider, provider), eq(brokerConnections.userName, userName)));
      return row;
    },

    async insert(values: { id: string; provider: string; userName: string; secret: string }): Promise<ConnectionRow> {
      const [row] = await tx.insert(brokerConnections).values({ ...values, userId }).returning();
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
      const query = tx.select().from(brokerAccounts).where(and(ownAccount(id), eq(brokerAccounts.connectionId, connectionId)));
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

    /** Stores fills the provider gave (new ids added, a fill voided since is marked so); returns how many were new. */
    async storeFills(brokerAccountId: string, fills: BrokerFill[], pglite: boolean): Promise<number> {
      let added = 0;
      for (let i = 0; i < fills.length; i += FILLS_PER_INSERT) {
        if (pglite && i > 0) await yieldToEventLoop();
        const rows = await tx
          .insert(brokerFills)
          .values(
            fills.slice(i, i + FILLS_PER_INSERT).map((f) => ({
              userId,
              brokerAccountId,
              externalId: f.externalId,
              contractId: f.contractId,
              time: f.time,
              side: f.side,
              quantity: f.quantity,
              price: f.price,
              fees: f.fees,
              pnl: f.pnl,
              orderId: f.orderId,
              voided: f.voided,
            })),
          )
          .onConflictDoUpdate({
            target: [brokerFills.userId, brokerFills.brokerAccountId, brokerFills.externalId],
            set: { voided: sql`excluded.voided` },
          })
          // xmax = 0 on a row this statement inserted (an updated row has the updating transaction's id).
          .returning({ inserted: sql<boolean>`xmax = 0` });
        added += rows.filter((r) => r.inserted).length;
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

    /** Contracts of stored fills after the flat points: the ones the next build needs described. */
    async openContracts(brokerAccountId: string, flat: FlatPoints): Promise<string[]> {
      const rows = await tx.execute(sql`
        select distinct f.contract_id
        from ${brokerFills} f
        left join jsonb_each(${JSON.stringify(flat)}::jsonb) p on p.key = f.contract_id
        where f.user_id = ${userId} and f.broker_account_id = ${brokerAccountId}
          and (p.key is null or f.time >= (p.value->>'time')::timestamptz)
      `);
      return (rows as unknown as { rows: Array<{ contract_id: string }> }).rows.map((r) => r.contract_id);
    },

    /**
     * Round trips a trading account holds with an entry time in [from, to] (and their ids), for the two-export duplicate
     * rule: a trade synced and the same trade imported from a CSV export are one trade.
     */
    async roundTripsBetween(accountId: string, from: number, to: number): Promise<Array<RoundTrip & { id: string }>> {
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

    /** Inserts trades, skipping keys the account holds already; returns the new rows' ids and keys. */
    async insertTrades(rows: NewTradeRow[], pglite: boolean): Promise<Array<{ id: string; importKey: string | null }>> {
      const inserted: Array<{ id: string; importKey: string | null }> = [];
      for (let i = 0; i < rows.length; i += TRADES_PER_INSERT) {
        if (pglite && i > 0) await yieldToEventLoop();
        const chunk = rows.slice(i, i + TRADES_PER_INSERT).map((row) => ({ ...row, userId }));
        inserted.push(
          ...(await tx
            .insert(trades)
            .values(chunk)
            .onConflictDoNothing({ target: [trades.userId, trades.accountId, trades.importKey] })
            .returning({ id: trades.id, importKey: trades.importKey })),
        );
      }
      return inserted;
    },
  };
};

/** Import formats whose times have minutes only (imports service MINUTE_FORMATS). */
const MINUTE_SOURCES = new Set(['ninjatrader-trades', 'thinkorswim-statement', 'mapped']);
