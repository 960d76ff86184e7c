import { and, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { yieldConnection, type Tx } from '../../db/client';
import type { ColumnMapping } from '../../../domain/importers';
import { importAccountLinks, importColumnMappings, trades } from '../../db/schema';
import { attachFills, FILL_JSON_COLUMNS } from '../../core/trades/fills';

/**
 * Import keys looked up, and trades inserted, per statement: one JSON parameter each, so a statement is bounded by
 * bytes, not parameters. PGlite runs each statement on the server's own thread (WebAssembly), so there statements are
 * kept small enough that other requests wait at most a few tens of milliseconds between them (issue 13, point 5).
 */
const CHUNKS = { postgres: { keys: 20_000 }, pglite: { keys: 4_000 } } as const;

/*
 * PGlite's statements run synchronously in WebAssembly, and one awaited after another never gives the event loop a
 * turn (each resolves as a microtask): without a pause between them, a whole 36,000-trade insert held every other
 * request. In the pause (yieldConnection), other traders' reads run on the connection too (issue 25, point 4).
 */

/** What the imports feature reads besides the trades repository: the import keys an account already holds. */
export const importsRepo = (tx: Tx, userId: string, kind: 'pglite' | 'postgres' = 'postgres') => ({
  /**
   * The subset of `keys` that trades of this account already carry (the duplicates a confirm would skip). The keys go
   * as one text[] parameter per chunk rather than one bind parameter each. Not `in (select jsonb_array_elements_text(..))`:
   * right after a large import, before autovacuum has analysed the table, PostgreSQL planned that as a nested loop
   * over every stored trade times every key (124 s for 36,000 keys); `= any(array constant)` is an index probe per key
   * or one hashed lookup per row, whatever the statistics say.
   */
  async existingKeys(accountId: string, keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const size = CHUNKS[kind].keys;
    for (let i = 0; i < keys.length; i += size) {
      if (kind === 'pglite' && i > 0) await yieldConnection(tx);
      const chunk = keys.slice(i, i + size);
      const rows = await tx
        .select({ key: trades.importKey })
        .from(trades)
        .where(
          and(
            eq(trades.userId, userId),
            eq(trades.accountId, accountId),
            sql`${trades.importKey} = any(${sql.param(chunk)}::text[])`,
          ),
        );
      for (const row of rows) if (row.key) found.add(row.key);
    }
    return found;
  },

  /**
   * Round trips the account holds with an entry time in [from, to] (and their keys), for the duplicate check against
   * another export of the same account (issue 12, point 6). The trade-date condition lets the list index find them.
   */
  async roundTripsBetween(accountId: string, from: number, to: number) {
    const day = 86_400_000;
    return tx
      .select({
        id: trades.id,
        // Whether the stored trade keeps its fills: a re-import adds them to one that does not (issue 29).
        hasFills: sql<boolean>`exists (select 1 from trade_fills f where f.user_id = ${userId} and f.trade_id = ${trades.id})`,
        importKey: trades.importKey,
        importSource: trades.importSource,
        contract: trades.contract,
        side: trades.side,
        quantity: trades.quantity,
        entryPrice: trades.entryPrice,
        exitPrice: trades.exitPrice,
        entryTime: trades.entryTime,
        exitTime: trades.exitTime,
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
  },

  /** The column mapping remembered for a header row (issue 12, point 8). */
  async mappingFor(headerKey: string): Promise<ColumnMapping | null> {
    const [row] = await tx
      .select({ mapping: importColumnMappings.mapping })
      .from(importColumnMappings)
      .where(and(eq(importColumnMappings.userId, userId), eq(importColumnMappings.headerKey, headerKey)));
    return (row?.mapping as ColumnMapping | undefined) ?? null;
  },

  async rememberMapping(headerKey: string, mapping: ColumnMapping) {
    await tx
      .insert(importColumnMappings)
      .values({ userId, headerKey, mapping })
      .onConflictDoUpdate({
        target: [importColumnMappings.userId, importColumnMappings.headerKey],
        set: { mapping, updatedAt: sql`now()` },
      });
  },

  /** Remembered trading accounts for accounts named in import files. */
  async links(fileAccounts: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (fileAccounts.length === 0) return found;
    const rows = await tx
      .select({ fileAccount: importAccountLinks.fileAccount, accountId: importAccountLinks.accountId })
      .from(importAccountLinks)
      .where(and(eq(importAccountLinks.userId, userId), inArray(importAccountLinks.fileAccount, fileAccounts)));
    for (const row of rows) found.set(row.fileAccount, row.accountId);
    return found;
  },

  async remember(links: Array<{ fileAccount: string; accountId: string }>) {
    if (links.length === 0) return;
    await tx
      .insert(importAccountLinks)
      .values(links.map((link) => ({ ...link, userId })))
      .onConflictDoUpdate({
        target: [importAccountLinks.userId, importAccountLinks.fileAccount],
        set: { accountId: sql`excluded.account_id`, updatedAt: sql`now()` },
      });
  },

  /**
   * Inserts one chunk of imported trades with their fills, skipping those whose (account, import key) the account
   * already has, and returns how many trades were inserted. The chunk is ONE parameter, a JSON array of records
   * prepared by the parse worker (plan.ts), each carrying its fills, expanded by jsonb_to_recordset: building and
   * binding 25 parameters per row through the ORM was most of an import's insert time. The fills go in by the same
   * statement, joined to the trades it inserted by their import keys (unique within the chunk's account). Call it
   * inside one transaction, one chunk after another.
   */
  async insertChunk(chunk: string, options: { setup?: string; playbookId?: string } = {}): Promise<number> {
    // The dialog's setup for trades the file names none for, and its playbook for all of them (issue 27).
    const setup = options.setup ?? '';
    const playbookId = options.playbookId ?? null;
    if (kind === 'pglite') await yieldConnection(tx);
    const result = (await tx.execute(sql`
      with input as materialized (
        select * from jsonb_to_recordset(${chunk}::jsonb) as r(seq int, user_id text, account_id uuid, trade_date timestamptz,
          day_of_week text, symbol text, period text, trade_type text, status text, pnl numeric, commission numeric,
          link text, notes text, tags text[], side text, contract text, entry_time timestamptz, exit_time timestamptz,
          entry_price numeric, exit_price numeric, quantity numeric, gross_pnl numeric, import_source text,
          import_key text, commission_source text, fills jsonb)
      ),
      added as (
        insert into trades (user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
          commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
          gross_pnl, import_source, import_key, commission_source, playbook_id, created_at)
        select user_id, account_id, trade_date, day_of_week, symbol, period,
          case when trade_type = '' then ${setup}::text else trade_type end, status, pnl,
          commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
          gross_pnl, import_source, import_key, commission_source, ${playbookId}::uuid, now() + seq * interval '1 microsecond'
        from input
        on conflict (user_id, account_id, import_key) do nothing
        returning id, import_key
      ),
      filled as (
        insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
        select ${userId}, a.id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
        from added a join input i on i.import_key = a.import_key
        cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
        where i.fills is not null
      )
      select count(*)::int as n from added
    `)) as unknown as { rows: Array<{ n: number | string }> };
    return Number(result.rows[0]?.n ?? 0);
  },

  /**
   * The fills of a chunk's trades that the account already held by import key (a re-import): each such trade that
   * has no fills yet (stored before fills were kept) gets this file's. Returns how many trades got fills.
   */
  async attachByImportKey(chunk: string): Promise<number> {
    if (kind === 'pglite') await yieldConnection(tx);
    const result = (await tx.execute(sql`
      with input as (
        select account_id, import_key, fills from jsonb_to_recordset(${chunk}::jsonb) as r(account_id uuid, import_key text, fills jsonb)
        where fills is not null
      ),
      added as (
        insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
        select ${userId}, t.id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
        from input i
        join trades t on t.user_id = ${userId} and t.account_id = i.account_id and t.import_key = i.import_key
        cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
        where not exists (select 1 from trade_fills x where x.user_id = ${userId} and x.trade_id = t.id)
        returning trade_id
      )
      select count(distinct trade_id)::int as n from added
    `)) as unknown as { rows: Array<{ n: number | string }> };
    return Number(result.rows[0]?.n ?? 0);
  },

  /** Fills for trades found stored from another export without fills: [{ trade_id, fills }] (plan.ts). */
  async attachToTrades(chunk: string): Promise<number> {
    if (kind === 'pglite') await yieldConnection(tx);
    return attachFills(tx, userId, chunk, true);
  },
});
