import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { trades } from '../../db/schema';
import { escapeLike } from '../trades/repo';

/**
 * What the Trade Log's search over the report copy (src/domain/reports/search-rows.ts) needs of the database, in one
 * statement: the trades whose notes match (notes are not kept in the copy), read only among those with notes, with the
 * same pattern as the list's search function; and the database's lower case of the texts that are not ASCII, as its
 * ILIKE folds them.
 */
export async function readSearchExtras(tx: Tx, userId: string, term: string, texts: readonly string[]): Promise<{ notes: Set<string>; lowered: Map<string, string> }> {
  const pattern = `%${escapeLike(term)}%`;
  const result = await tx.execute(sql`
    select
      (select coalesce(json_agg(${trades.id}), '[]')::text from ${trades}
       where ${trades.userId} = ${userId} and ${trades.notes} <> '' and ${trades.notes} ilike ${pattern}) as notes,
      (select coalesce(json_agg(lower(t.value) order by t.n), '[]')::text
       from jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) with ordinality as t(value, n)) as lowered`);
  const [row] = (result as unknown as { rows: Array<{ notes: string; lowered: string }> }).rows;
  const lowered = JSON.parse(row?.lowered ?? '[]') as string[];
  return { notes: new Set(JSON.parse(row?.notes ?? '[]') as string[]), lowered: new Map(texts.map((text, k) => [text, lowered[k]!])) };
}
