import { trimDecimalZeros } from '../../../domain/money';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { tradeFills } from '../../db/schema';

/**
 * A trade's fills in storage, as the trades write module stores them (imports, restores, broker syncs, a manual trade's
 * own) and the trade page, the chart and the position rules read them. A fill travels as plain strings, as the database
 * takes and gives them.
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

/** Reads a trader's fills (the trades write module writes them). Every query names its owner; row-level security backs it up. */
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
});

/** A fill as the API says it: quantity and price as a trader would write them. */
export function toFillDto(fill: FillRecord) {
  return {
    time: fill.time,
    side: fill.side,
    quantity: trimDecimalZeros(fill.quantity),
    price: trimDecimalZeros(fill.price),
    commission: fill.commission,
  };
}
