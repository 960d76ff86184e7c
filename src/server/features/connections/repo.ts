import { and, asc, eq, gte, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { yieldConnection, type Tx } from '../../db/client';
import { brokerAccounts, brokerConnections, brokerFills, trades } from '../../db/schema';
import type { FlatPoints, SyncedFill } from '../../../domain/connections/round-trips';
import type { RoundTrip } from '../../../domain/importers';
import type { BrokerAccount as ProviderAccount, BrokerFill } from '../../connectors/types';
import type { NewTradeRow } from '../../core/trades/repo';

export type ConnectionRow = typeof brokerConnections.$inferSelect;
export type BrokerAccountRow = typeof brokerAccounts.$inferSelect;

/**
 * Rows per INSERT statement (one JSON parameter each). PGlite runs each statement on the server's thread and, between
 * them, lends its one connection to other traders' reads (yieldConnection): smaller statements there keep those reads
 * waiting tens of milliseconds, not the whole sync (as the imports' 250-trade chunks do).
 */
const TRADES_PER_INSERT = { pglite: 250, postgres: 2000 } as const;
const FILLS_PER_INSERT = { pglite: 1000, postgres: 5000 } as const;

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

    /**
     * Stores fills the provider gave (new ids added, a fill voided since is marked so); returns how many were new. One
     * JSON parameter per statement (as the imports insert): binding a dozen parameters a fill was most of a sync's time.
     */
    async storeFills(brokerAccountId: string, fills: BrokerFill[], pglite: boolean): Promise<number> {
      let added = 0;
      const size = FILLS_PER_INSERT[pglite ? 'pglite' : 'postgres'];
      for (let i = 0; i < fills.length; i += size) {
        if (pglite) await yieldConnection(tx);
        const json = JSON.stringify(
          fills.slice(i, i + size).map((f) => ({ i: f.externalId, c: f.contractId, t: f.time, s: f.side, q: f.quantity, p: f.price, f: f.fees, l: f.pnl, o: f.orderId, v: f.voided })),
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

    /**
     * Inserts trades, skipping keys the account holds already; returns the new rows' ids and keys. One JSON parameter
     * per statement, as the imports insert (repo.ts of imports).
     */
    async insertTrades(rows: NewTradeRow[], pglite: boolean): Promise<Array<{ id: string; importKey: string | null }>> {
      const inserted: Array<{ id: string; importKey: string | null }> = [];
      const size = TRADES_PER_INSERT[pglite ? 'pglite' : 'postgres'];
      for (let i = 0; i < rows.length; i += size) {
        if (pglite) await yieldConnection(tx);
        const json = JSON.stringify(
          rows.slice(i, i + size).map((r) => ({
            account_id: r.accountId,
            trade_date: r.tradeDate,
            day_of_week: r.dayOfWeek,
            symbol: r.symbol,
            period: r.period,
            trade_type: r.tradeType,
            status: r.status,
            pnl: r.pnl,
            commission: r.commission,
            link: r.link,
            notes: r.notes,
            tags: r.tags,
            side: r.side,
            contract: r.contract,
            entry_time: r.entryTime,
            exit_time: r.exitTime,
            entry_price: r.entryPrice,
            exit_price: r.exitPrice,
            quantity: r.quantity,
            gross_pnl: r.grossPnl,
            import_source: r.importSource,
            import_key: r.importKey,
          })),
        );
        const result = (await tx.execute(sql`
          insert into trades (user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl, commission,
            link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity, gross_pnl, import_source,
            import_key)
          select ${userId}, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl, commission,
            link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity, gross_pnl, import_source,
            import_key
          from jsonb_to_recordset(${json}::jsonb) as r(account_id uuid, trade_date timestamptz, day_of_week text, symbol text,
            period text, trade_type text, status text, pnl numeric, commission numeric, link text, notes text, tags text[],
            side text, contract text, entry_time timestamptz, exit_time timestamptz, entry_price numeric, exit_price numeric,
            quantity numeric, gross_pnl numeric, import_source text, import_key text)
          on conflict (user_id, account_id, import_key) do nothing
          returning id, import_key
        `)) as unknown as { rows: Array<{ id: string; import_key: string | null }> };
        for (const row of result.rows) inserted.push({ id: row.id, importKey: row.import_key });
      }
      return inserted;
    },
  };
};

/** Import formats whose times have minutes only (imports service MINUTE_FORMATS). */
const MINUTE_SOURCES = new Set(['ninjatrader-trades', 'thinkorswim-statement', 'mapped']);
