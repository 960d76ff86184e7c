import { trimDecimalZeros } from '../../../domain/money';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { tradeFills } from '../../db/schema';

/**
 * A trade's fills in storage (issue 29, point 1), for every feature that writes or reads them: imports, the backup,
 * the trade page, and broker connections (slice topstepx). A fill travels as plain strings, as the database takes
 * and gives them.
 */
export interface FillRecord {
  /** ISO-8601 instant. */
  time: string;
  side: 'Buy' | 'Sell';
  /** Decimal strings. */
  quantity: string;
  price: string;
  /** The fill's commission and fees (dollars, >= 0), or null when the source does not say. */
  commission: string | null;
  /** The broker's id of the fill or order, when known. */
  brokerId?: string | null;
}

/** One fill as the import's INSERT reads it from JSON (short keys: 100,000 of them travel per import). */
export interface FillJson {
  n: number;
  t: string;
  s: 'Buy' | 'Sell';
  q: string;
  p: string;
  c: string | null;
  i: string | null;
}

export function toFillJson(fills: readonly FillRecord[]): FillJson[] {
  return fills.map((fill, n) => ({ n, t: fill.time, s: fill.side, q: fill.quantity, p: fill.price, c: fill.commission, i: fill.brokerId ?? null }));
}

/** The jsonb_to_recordset column list of FillJson: one definition for every statement that reads it. */
export const FILL_JSON_COLUMNS = sql.raw('n int, t timestamptz, s text, q numeric, p numeric, c numeric, i text');

const FILLS_PER_STATEMENT = 10_000;

/**
 * Inserts each trade's fills in the order given (seq from 0), in the caller's transaction: the trades must be the
 * trader's (the foreign key and the row-level policy refuse anything else). With `onlyWhereNone`, a trade that already
 * has fills keeps them and gets none of these (a re-import attaching fills to a trade stored before fills were kept,
 * or a sync meeting a trade a CSV brought in). Returns the number of trades that got fills.
 */
export async function insertFills(
  tx: Tx,
  userId: string,
  fillsByTrade: ReadonlyMap<string, readonly FillRecord[]> | ReadonlyArray<{ tradeId: string; fills: readonly FillRecord[] }>,
  options: { onlyWhereNone?: boolean } = {},
): Promise<number> {
  const entries = Array.isArray(fillsByTrade)
    ? (fillsByTrade as ReadonlyArray<{ tradeId: string; fills: readonly FillRecord[] }>)
    : [...(fillsByTrade as ReadonlyMap<string, readonly FillRecord[]>)].map(([tradeId, fills]) => ({ tradeId, fills }));
  let trades = 0;
  let batch: Array<{ trade_id: string; fills: FillJson[] }> = [];
  let size = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    trades += await attachFills(tx, userId, JSON.stringify(batch), options.onlyWhereNone === true);
    batch = [];
    size = 0;
  };
  for (const { tradeId, fills } of entries) {
    if (fills.length === 0) continue;
    batch.push({ trade_id: tradeId, fills: toFillJson(fills) });
    size += fills.length;
    if (size >= FILLS_PER_STATEMENT) await flush();
  }
  await flush();
  return trades;
}

/**
 * One statement: `json` is [{ trade_id, fills: FillJson[] }]. Returns how many trades got fills. Trades that are not
 * the caller's get none: the policy hides them from the existence check and refuses the rows.
 */
export async function attachFills(tx: Tx, userId: string, json: string, onlyWhereNone: boolean): Promise<number> {
  const result = (await tx.execute(sql`
    with input as (select * from jsonb_to_recordset(${json}::jsonb) as r(trade_id uuid, fills jsonb)),
    added as (
      insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
      select ${userId}, i.trade_id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
      from input i cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
      where ${onlyWhereNone ? sql`not exists (select 1 from trade_fills x where x.user_id = ${userId} and x.trade_id = i.trade_id)` : sql`true`}
      returning trade_id
    )
    select count(distinct trade_id)::int as n from added
  `)) as unknown as { rows: Array<{ n: number | string }> };
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Fills for trades of one account found by their import keys (a restored backup): each such trade without fills gets
 * them; one that has fills keeps its own. Returns the ids of the trades that got fills.
 */
export async function attachFillsByImportKey(
  tx: Tx,
  userId: string,
  accountId: string,
  entries: ReadonlyArray<{ importKey: string; fills: readonly FillRecord[] }>,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < entries.length; i += 1_000) {
    const json = JSON.stringify(entries.slice(i, i + 1_000).map((e) => ({ import_key: e.importKey, fills: toFillJson(e.fills) })));
    const result = (await tx.execute(sql`
      with input as (select * from jsonb_to_recordset(${json}::jsonb) as r(import_key text, fills jsonb)),
      added as (
        insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
        select ${userId}, t.id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
        from input i
        join trades t on t.user_id = ${userId} and t.account_id = ${accountId} and t.import_key = i.import_key
        cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
        where not exists (select 1 from trade_fills x where x.user_id = ${userId} and x.trade_id = t.id)
        returning trade_id
      )
      select distinct trade_id::text as id from added
    `)) as unknown as { rows: Array<{ id: string }> };
    ids.push(...result.rows.map((r) => r.id));
  }
  return ids;
}

/**
 * The fills of a restored backup's chunk (backup-file.ts: its records carry `import_key`, `account_id` and `fills`),
 * given to the trades of that account with those import keys that have none, in one statement. Returns how many
 * trades got fills.
 */
export async function attachBackupFills(tx: Tx, userId: string, chunk: string): Promise<number> {
  const result = (await tx.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${chunk}::jsonb) as r(account_id uuid, import_key text, fills jsonb)
      where r.fills is not null and r.import_key is not null
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
}

export type FillRow = typeof tradeFills.$inferSelect;

export function toFillRecord(row: FillRow): FillRecord {
  return {
    time: new Date(row.time).toISOString(),
    side: row.side as FillRecord['side'],
    quantity: row.quantity,
    price: row.price,
    commission: row.commission,
    brokerId: row.brokerId,
  };
}

/** Reads and replaces a trader's fills. Every query names its owner; row-level security backs it up. */
export const fillsRepo = (tx: Tx, userId: string) => ({
  async list(tradeId: string): Promise<FillRow[]> {
    return tx
      .select()
      .from(tradeFills)
      .where(and(eq(tradeFills.userId, userId), eq(tradeFills.tradeId, tradeId)))
      .orderBy(asc(tradeFills.seq));
  },

  /** Every fill of the trader, by trade (the JSON backup). */
  async all(): Promise<Map<string, FillRow[]>> {
    const byTrade = new Map<string, FillRow[]>();
    const rows = await tx.select().from(tradeFills).where(eq(tradeFills.userId, userId)).orderBy(asc(tradeFills.tradeId), asc(tradeFills.seq));
    for (const row of rows) {
      let list = byTrade.get(row.tradeId);
      if (!list) byTrade.set(row.tradeId, (list = []));
      list.push(row);
    }
    return byTrade;
  },

  /** The trade's fills become `fills` (none when empty), in one statement after the delete. */
  async replace(tradeId: string, fills: readonly FillRecord[]): Promise<void> {
    await tx.delete(tradeFills).where(and(eq(tradeFills.userId, userId), eq(tradeFills.tradeId, tradeId)));
    if (fills.length > 0) await insertFills(tx, userId, [{ tradeId, fills }]);
  },
});

/** A fill as the API says it: quantity and price as a trader would write them. */
export function toFillDto(fill: FillRecord) {
  return { time: fill.time, side: fill.side, quantity: trimDecimalZeros(fill.quantity), price: trimDecimalZeros(fill.price), commission: fill.commission };
}
