import { sql } from 'drizzle-orm';
import { barContractOf, type Bar, type Resolution } from '../../../domain/market';
import type { Database, Tx } from '../../db/client';
import { recomputeForBars } from './excursions';

/**
 * The shared store of price bars: one row per contract, resolution and bar start on the server,
 * with who added it. Storing the same bars again changes nothing; a bar stored with other values is kept as it is and
 * reported, never replaced. These functions are what every writer of bars calls: the bar files of the Market Data
 * page, and broker connections fetching bars (slice topstepx).
 */

export interface BarConflict {
  contract: string;
  start: string;
  stored: { open: string; high: string; low: string; close: string; volume: string | null };
  file: { open: string; high: string; low: string; close: string; volume: string | null };
}

export interface UpsertOutcome {
  added: number;
  unchanged: number;
  conflicting: number;
  /** The first conflicts (at most `conflictLimit`). */
  conflicts: BarConflict[];
}

const CHUNKS = { postgres: 10_000, pglite: 2_000 } as const;
const CONFLICTS_SHOWN = 20;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bars as the statements read them: [{ s: ISO start, o, h, l, c, v }]. */
function barsJson(bars: readonly Bar[]): string {
  return JSON.stringify(bars.map((bar) => ({ s: new Date(bar.start).toISOString(), o: bar.open, h: bar.high, l: bar.low, c: bar.close, v: bar.volume })));
}

const BAR_COLUMNS = sql.raw('s timestamptz, o numeric, h numeric, l numeric, c numeric, v numeric');
/** A conflict's values as text: in JSON a numeric would become a float. */
const CONFLICT_COLUMNS = sql.raw(
  'select start, stored_open::text, stored_high::text, stored_low::text, stored_close::text, stored_volume::text, open::text, high::text, low::text, close::text, volume::text',
);

interface ConflictRow {
  start: string;
  stored_open: string;
  stored_high: string;
  stored_low: string;
  stored_close: string;
  stored_volume: string | null;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string | null;
}

function toConflict(contract: string, row: ConflictRow): BarConflict {
  const trim = (value: string | null) => (value === null ? null : value.includes('.') ? value.replace(/\.?0+$/, '') : value);
  return {
    contract,
    start: new Date(row.start).toISOString(),
    stored: { open: trim(row.stored_open)!, high: trim(row.stored_high)!, low: trim(row.stored_low)!, close: trim(row.stored_close)!, volume: trim(row.stored_volume) },
    file: { open: trim(row.open)!, high: trim(row.high)!, low: trim(row.low)!, close: trim(row.close)!, volume: trim(row.volume) },
  };
}

/**
 * Stores bars of one contract and resolution in the caller's transaction (as `addedBy`: the policy lets a trader add
 * rows only in their own name). Bars already stored with the same values are counted unchanged; with other values,
 * conflicting, and left as they are.
 */
export async function upsertBarsIn(tx: Tx, kind: Database['kind'], contract: string, resolution: Resolution, bars: readonly Bar[], addedBy: string): Promise<UpsertOutcome> {
  const key = barContractOf(contract);
  const outcome: UpsertOutcome = { added: 0, unchanged: 0, conflicting: 0, conflicts: [] };
  const size = CHUNKS[kind];
  for (let i = 0; i < bars.length; i += size) {
    if (kind === 'pglite' && i > 0) await yieldToEventLoop();
    const json = barsJson(bars.slice(i, i + size));
    // The scan of price_bars sees the table as it was before this statement: the rows it meets are those stored before.
    const result = (await tx.execute(sql`
      with input as materialized (select * from jsonb_to_recordset(${json}::jsonb) as r(${BAR_COLUMNS})),
      added as (
        insert into price_bars (contract, resolution, start, open, high, low, close, volume, added_by)
        select ${key}, ${resolution}, s, o, h, l, c, v, ${addedBy} from input
        on conflict (contract, resolution, start) do nothing
        returning start
      ),
      stored as (
        select i.s as start, p.open as stored_open, p.high as stored_high, p.low as stored_low, p.close as stored_close,
          p.volume as stored_volume, i.o as open, i.h as high, i.l as low, i.c as close, i.v as volume,
          (p.open, p.high, p.low, p.close, p.volume) is not distinct from (i.o, i.h, i.l, i.c, i.v) as same
        from input i join price_bars p on p.contract = ${key} and p.resolution = ${resolution} and p.start = i.s
      )
      select (select count(*)::int from added) as added,
        (select count(*)::int from stored where same) as unchanged,
        (select count(*)::int from stored where not same) as conflicting,
        (select coalesce(json_agg(c order by c.start), '[]'::json) from (${CONFLICT_COLUMNS} from stored where not same order by start limit ${CONFLICTS_SHOWN}) c) as conflicts
    `)) as unknown as { rows: Array<{ added: number; unchanged: number; conflicting: number; conflicts: ConflictRow[] | string }> };
    const row = result.rows[0]!;
    outcome.added += Number(row.added);
    outcome.unchanged += Number(row.unchanged);
    outcome.conflicting += Number(row.conflicting);
    const conflicts = typeof row.conflicts === 'string' ? (JSON.parse(row.conflicts) as ConflictRow[]) : row.conflicts;
    for (const conflict of conflicts) if (outcome.conflicts.length < CONFLICTS_SHOWN) outcome.conflicts.push(toConflict(key, conflict));
  }
  return outcome;
}

/**
 * How bars compare with what is stored, without writing: the preview's counts and first conflicts. Read in chunks of
 * the same size as the upsert's.
 */
export async function compareBarsIn(tx: Tx, kind: Database['kind'], contract: string, resolution: Resolution, bars: readonly Bar[]): Promise<Omit<UpsertOutcome, 'added'>> {
  const key = barContractOf(contract);
  const outcome = { unchanged: 0, conflicting: 0, conflicts: [] as BarConflict[] };
  const size = CHUNKS[kind];
  for (let i = 0; i < bars.length; i += size) {
    if (kind === 'pglite' && i > 0) await yieldToEventLoop();
    const json = barsJson(bars.slice(i, i + size));
    const result = (await tx.execute(sql`
      with input as (select * from jsonb_to_recordset(${json}::jsonb) as r(${BAR_COLUMNS})),
      stored as (
        select i.s as start, p.open as stored_open, p.high as stored_high, p.low as stored_low, p.close as stored_close,
          p.volume as stored_volume, i.o as open, i.h as high, i.l as low, i.c as close, i.v as volume,
          (p.open, p.high, p.low, p.close, p.volume) is not distinct from (i.o, i.h, i.l, i.c, i.v) as same
        from input i join price_bars p on p.contract = ${key} and p.resolution = ${resolution} and p.start = i.s
      )
      select (select count(*)::int from stored where same) as unchanged,
        (select count(*)::int from stored where not same) as conflicting,
        (select coalesce(json_agg(c order by c.start), '[]'::json) from (${CONFLICT_COLUMNS} from stored where not same order by start limit ${CONFLICTS_SHOWN}) c) as conflicts
    `)) as unknown as { rows: Array<{ unchanged: number; conflicting: number; conflicts: ConflictRow[] | string }> };
    const row = result.rows[0]!;
    outcome.unchanged += Number(row.unchanged);
    outcome.conflicting += Number(row.conflicting);
    const conflicts = typeof row.conflicts === 'string' ? (JSON.parse(row.conflicts) as ConflictRow[]) : row.conflicts;
    for (const conflict of conflicts) if (outcome.conflicts.length < CONFLICTS_SHOWN) outcome.conflicts.push(toConflict(key, conflict));
  }
  return outcome;
}

/**
 * For other features (broker connections fetching bars): stores bars of one contract in a transaction of their own as
 * `addedBy`, then computes again the MAE and MFE of every trader's trades those bars touch. Returns the upsert's
 * counts and how many of `addedBy`'s trades were computed again.
 */
export async function upsertBars(
  db: Database,
  contract: string,
  resolution: Resolution,
  bars: readonly Bar[],
  addedBy: string,
): Promise<UpsertOutcome & { tradesUpdated: number }> {
  const outcome = await db.withUser(addedBy, (tx) => upsertBarsIn(tx, db.kind, contract, resolution, bars, addedBy));
  const tradesUpdated = outcome.added > 0 && bars.length > 0 ? await recomputeForBars(db, addedBy, barContractOf(contract), bars[0]!.start, bars[bars.length - 1]!.start + resolution * 1000) : 0;
  return { ...outcome, tradesUpdated };
}
