import { sql } from 'drizzle-orm';
import { prepareRowSearch, toSearchTerm } from '../../../domain/reports/search-rows';
import type { Database, Tx } from '../../db/client';
import { readerOf, type ReportScope, type ReportViewer } from './scope';
import { trades } from '../../db/schema';
import { escapeLike } from '../trades/repo';

/**
 * What the Trade Log's search over the report copy (src/domain/reports/search-rows.ts) needs of the database: the
 * trades whose notes match (notes are not kept in the copy), with the same pattern as the list's search function, read
 * only among the trades with notes (migration trades_notes_idx); and the database's lower case of the texts that are
 * not ASCII, as its ILIKE folds them.
 */
export async function readNoteMatches(tx: Tx, userId: string, term: string): Promise<Set<string>> {
  const result = await tx.execute(sql`
    select coalesce(json_agg(${trades.id}), '[]')::text as ids from ${trades}
    where ${trades.userId} = ${userId} and ${trades.notes} <> '' and ${trades.notes} ilike ${`%${escapeLike(term)}%`}`);
  const [row] = (result as unknown as { rows: Array<{ ids: string }> }).rows;
  return new Set(JSON.parse(row?.ids ?? '[]') as string[]);
}

export async function readLowerCase(tx: Tx, texts: readonly string[]): Promise<Map<string, string>> {
  if (texts.length === 0) return new Map();
  const result = await tx.execute(sql`
    select coalesce(json_agg(lower(t.value) order by t.n), '[]')::text as lowered
    from jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) with ordinality as t(value, n)`);
  const [row] = (result as unknown as { rows: Array<{ lowered: string }> }).rows;
  const lowered = JSON.parse(row?.lowered ?? '[]') as string[];
  return new Map(texts.map((text, k) => [text, lowered[k]!]));
}

/**
 * The Trade Log's search (`q`) and the trades whose delete waits for Undo (`exclude`), applied to a scope's rows as the
 * list applies them: every figure beside the list (its statistics, the R panel) narrows its trades this way. The notes'
 * matches are asked at once, so that on PostgreSQL they are read while the scope's trades are.
 */
export function narrowing(database: Database, userId: string, narrow: { q?: string; exclude?: readonly string[] }, viewer?: ReportViewer) {
  const term = toSearchTerm(narrow.q ?? '');
  // A mentor's search reads the notes in the mentor's transaction: only the shared accounts' trades' notes match.
  const within = readerOf(database, userId, viewer);
  const noteMatches = term ? within((tx) => readNoteMatches(tx, userId, term)) : null;
  noteMatches?.catch(() => undefined);
  const excluded = narrow.exclude && narrow.exclude.length > 0 ? new Set(narrow.exclude) : null;
  return {
    /** Whether anything is narrowed at all. */
    narrows: Boolean(term) || excluded !== null,
    async apply(scope: Pick<ReportScope, 'set' | 'accountName'>): Promise<Uint32Array> {
      const { columns: c } = scope.set;
      let rows = scope.set.rows;
      if (term) {
        const search = prepareRowSearch(c, rows, term, scope.accountName);
        const lowered = search.texts.length > 0 ? await within((tx) => readLowerCase(tx, search.texts)) : new Map<string, string>();
        rows = search.match(lowered, await noteMatches!);
      }
      if (excluded) rows = rows.filter((i) => !excluded.has(c.id[i]!));
      return rows;
    },
  };
}
