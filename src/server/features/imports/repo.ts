import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { trades } from '../../db/schema';
import type { NewTradeRow } from '../trades/repo';

/** Import keys looked up per statement. */
const KEY_CHUNK = 20_000;
/** Trades per INSERT: one JSON parameter each, so the size of a statement is bounded by bytes, not parameters. */
const INSERT_CHUNK = 5_000;

/** What the imports feature reads besides the trades repository: the import keys an account already holds. */
export const importsRepo = (tx: Tx, userId: string) => ({
  /**
   * The subset of `keys` that trades of this account already carry (the duplicates a confirm would skip). The keys go
   * as one JSON parameter per chunk, like the insert, rather than one bind parameter each.
   */
  async existingKeys(accountId: string, keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += KEY_CHUNK) {
      const chunk = JSON.stringify(keys.slice(i, i + KEY_CHUNK));
      const rows = await tx
        .select({ key: trades.importKey })
        .from(trades)
        .where(
          and(
            eq(trades.userId, userId),
            eq(trades.accountId, accountId),
            sql`${trades.importKey} in (select jsonb_array_elements_text(${chunk}::jsonb))`,
          ),
        );
      for (const row of rows) if (row.key) found.add(row.key);
    }
    return found;
  },

  /**
   * Inserts imported trades, skipping those whose (account, import key) the account already has, and returns how
   * many were inserted. Each chunk is ONE parameter (a JSON array) expanded by jsonb_to_recordset: building and binding
   * 25 parameters per row through the ORM was most of an import's insert time. Call it inside one transaction.
   */
  async insertImported(rows: NewTradeRow[]): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = JSON.stringify(rows.slice(i, i + INSERT_CHUNK).map((r) => toRecord(r, userId)));
      const result = (await tx.execute(sql`
        with added as (
          insert into trades (user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
            commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
            gross_pnl, import_source, import_key)
          select user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
            commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
            gross_pnl, import_source, import_key
          from jsonb_to_recordset(${chunk}::jsonb) as r(user_id text, account_id uuid, trade_date timestamptz,
            day_of_week text, symbol text, period text, trade_type text, status text, pnl numeric, commission numeric,
            link text, notes text, tags text[], side text, contract text, entry_time timestamptz, exit_time timestamptz,
            entry_price numeric, exit_price numeric, quantity numeric, gross_pnl numeric, import_source text,
            import_key text)
          on conflict (user_id, account_id, import_key) do nothing
          returning 1
        )
        select count(*)::int as n from added
      `)) as unknown as { rows: Array<{ n: number | string }> };
      inserted += Number(result.rows[0]?.n ?? 0);
    }
    return inserted;
  },
});

/** The columns as jsonb_to_recordset reads them (snake_case names, decimals as strings, tags as a JSON array). */
function toRecord(r: NewTradeRow, userId: string) {
  return {
    user_id: userId,
    account_id: r.accountId ?? null,
    trade_date: r.tradeDate,
    day_of_week: r.dayOfWeek,
    symbol: r.symbol ?? 'Unknown',
    period: r.period ?? 'AM',
    trade_type: r.tradeType ?? '',
    status: r.status ?? 'BE',
    pnl: r.pnl ?? '0',
    commission: r.commission ?? '0',
    link: r.link ?? '',
    notes: r.notes ?? '',
    tags: r.tags ?? [],
    side: r.side ?? null,
    contract: r.contract ?? null,
    entry_time: r.entryTime ?? null,
    exit_time: r.exitTime ?? null,
    entry_price: r.entryPrice ?? null,
    exit_price: r.exitPrice ?? null,
    quantity: r.quantity ?? null,
    gross_pnl: r.grossPnl ?? null,
    import_source: r.importSource ?? null,
    import_key: r.importKey ?? null,
  };
}
