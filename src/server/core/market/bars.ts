import { sql } from 'drizzle-orm';
import { barContractOf, type Bar, type Resolution } from '../../../domain/market';
import { queryRows, type Database, type Tx } from '../../db/client';
import { barColumns, type BarColumns } from './bar-columns';
import { recomputeForProviderBars } from './excursions';

/**
 * Where price bars are kept, and the one way they are written.
 *
 * - A trader's own bars (price_bars): what they upload, theirs alone under row-level security. Another trader's upload
 *   never reaches their figures, and they can always replace or delete their own. Storing the same bars again changes
 *   nothing; a bar stored with other values is kept and reported, unless the trader asked to replace their bars.
 * - A provider's bars (provider_bars): what a provider's API gave (a ProjectX gateway, a crypto exchange's klines),
 *   kept apart per source and read only by traders connected to that source. Only a sync writes them; a bar the source gave once is kept.
 *
 * Bars travel as column texts (bar-columns.ts: one array literal per column) in chunks of a size the database takes in
 * one statement: the parse worker writes those texts, so the server's thread never holds a file's bars as objects.
 */

export interface BarValues {
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string | null;
}

export interface BarConflict {
  contract: string;
  start: string;
  stored: BarValues;
  file: BarValues;
}

export interface UpsertOutcome {
  added: number;
  unchanged: number;
  /** Stored with other values and kept (the trader did not ask to replace them). */
  conflicting: number;
  /** Stored with other values and replaced (the trader asked to). */
  replaced: number;
  /** The first conflicts (at most CONFLICTS_SHOWN). */
  conflicts: BarConflict[];
}

/** Bars per statement: PGlite runs each on the server's thread, so there a statement stays well under a second. */
const CHUNKS = { postgres: 10_000, pglite: 2_000 } as const;
export const barChunkSize = (database: Pick<Database, 'kind'>) => CHUNKS[database.kind];
export const CONFLICTS_SHOWN = 20;

/**
 * A chunk's bars as rows (s timestamptz, o, h, l, c, v numeric). The texts are parameters cast in the statement, so
 * either driver sends them as text; the start's epoch ms become a timestamptz exactly (whole microseconds).
 */
const barRows = (columns: BarColumns) => sql`
  select to_timestamp(ms / 1000.0) as s, o, h, l, c, v
  from unnest(${columns.start}::text::bigint[], ${columns.open}::text::numeric[], ${columns.high}::text::numeric[],
    ${columns.low}::text::numeric[], ${columns.close}::text::numeric[], ${columns.volume}::text::numeric[]) as r(ms, o, h, l, c, v)`;

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

const trim = (value: string | null) => (value === null ? null : value.includes('.') ? value.replace(/\.?0+$/, '') : value);

function toConflict(contract: string, row: ConflictRow): BarConflict {
  return {
    contract,
    start: new Date(row.start).toISOString(),
    stored: {
      open: trim(row.stored_open)!,
      high: trim(row.stored_high)!,
      low: trim(row.stored_low)!,
      close: trim(row.stored_close)!,
      volume: trim(row.stored_volume),
    },
    file: { open: trim(row.open)!, high: trim(row.high)!, low: trim(row.low)!, close: trim(row.close)!, volume: trim(row.volume) },
  };
}

const readConflicts = (value: ConflictRow[] | string): ConflictRow[] => (typeof value === 'string' ? (JSON.parse(value) as ConflictRow[]) : value);

/** The trader's stored bars beside the chunk's: which are the same, which differ. */
const storedBeside = (userId: string, contract: string, resolution: Resolution) => sql`
  select i.s as start, p.open as stored_open, p.high as stored_high, p.low as stored_low, p.close as stored_close,
    p.volume as stored_volume, i.o as open, i.h as high, i.l as low, i.c as close, i.v as volume,
    (p.open, p.high, p.low, p.close, p.volume) is not distinct from (i.o, i.h, i.l, i.c, i.v) as same
  from input i join price_bars p on p.user_id = ${userId} and p.contract = ${contract} and p.resolution = ${resolution} and p.start = i.s`;

/**
 * Stores one chunk of a trader's bars of one contract and resolution, in the caller's transaction (as the trader).
 * Bars already stored with the same values are counted unchanged; with other values, conflicting and kept, or replaced
 * when `replace` is set. The chunk holds each bar start once.
 */
export async function upsertOwnBarsIn(
  tx: Tx,
  userId: string,
  contract: string,
  resolution: Resolution,
  columns: BarColumns,
  options: { replace?: boolean; fresh?: boolean } = {},
): Promise<UpsertOutcome> {
  const key = barContractOf(contract);
  if (options.fresh) {
    // The trader has none of these bars (hasOwnBarsIn said so in this transaction): they are only added.
    const [row] = await queryRows<{ added: number }>(
      tx,
      sql`
        with added as (
          insert into price_bars (user_id, contract, resolution, start, open, high, low, close, volume)
          select ${userId}, ${key}, ${resolution}, s, o, h, l, c, v from (${barRows(columns)}) r
          on conflict (user_id, contract, resolution, start) do nothing
          returning start
        )
        select count(*)::int as added from added
      `,
    );
    return { added: Number(row!.added), unchanged: 0, conflicting: 0, replaced: 0, conflicts: [] };
  }
  // Every statement's scan of price_bars sees the table as it was before it: `stored` holds the rows stored before.
  const replace = options.replace
    ? sql`, replaced as (
        update price_bars p set open = s.open, high = s.high, low = s.low, close = s.close, volume = s.volume, added_at = now()
        from stored s where not s.same and p.user_id = ${userId} and p.contract = ${key} and p.resolution = ${resolution} and p.start = s.start
        returning p.start
      )`
    : sql``;
  const [row] = await queryRows<{ added: number; unchanged: number; differing: number; replaced: number; conflicts: ConflictRow[] | string }>(
    tx,
    sql`
      with input as materialized (${barRows(columns)}),
      stored as materialized (${storedBeside(userId, key, resolution)}),
      added as (
        insert into price_bars (user_id, contract, resolution, start, open, high, low, close, volume)
        select ${userId}, ${key}, ${resolution}, s, o, h, l, c, v from input
        on conflict (user_id, contract, resolution, start) do nothing
        returning start
      )${replace}
      select (select count(*)::int from added) as added,
        (select count(*)::int from stored where same) as unchanged,
        (select count(*)::int from stored where not same) as differing,
        ${options.replace ? sql`(select count(*)::int from replaced)` : sql`0`} as replaced,
        (select coalesce(json_agg(c order by c.start), '[]'::json) from (${CONFLICT_COLUMNS} from stored where not same order by start limit ${CONFLICTS_SHOWN}) c) as conflicts
    `,
  );
  const differing = Number(row!.differing);
  return {
    added: Number(row!.added),
    unchanged: Number(row!.unchanged),
    conflicting: options.replace ? 0 : differing,
    replaced: Number(row!.replaced),
    conflicts: readConflicts(row!.conflicts).map((conflict) => toConflict(key, conflict)),
  };
}

/** How one chunk of bars compares with the trader's stored bars, without writing: the preview's counts and first conflicts. */
export async function compareOwnBarsIn(
  tx: Tx,
  userId: string,
  contract: string,
  resolution: Resolution,
  columns: BarColumns,
): Promise<Omit<UpsertOutcome, 'added' | 'replaced'>> {
  const key = barContractOf(contract);
  const [row] = await queryRows<{ unchanged: number; conflicting: number; conflicts: ConflictRow[] | string }>(
    tx,
    sql`
      with input as (${barRows(columns)}),
      stored as (${storedBeside(userId, key, resolution)})
      select (select count(*)::int from stored where same) as unchanged,
        (select count(*)::int from stored where not same) as conflicting,
        (select coalesce(json_agg(c order by c.start), '[]'::json) from (${CONFLICT_COLUMNS} from stored where not same order by start limit ${CONFLICTS_SHOWN}) c) as conflicts
    `,
  );
  return {
    unchanged: Number(row!.unchanged),
    conflicting: Number(row!.conflicting),
    conflicts: readConflicts(row!.conflicts).map((conflict) => toConflict(key, conflict)),
  };
}

/**
 * Whether the trader has any bars of the contract and resolution in [from, to]: a file of bars they have none of yet
 * needs no comparison chunk by chunk (its bars are all new), which spares a million-bar file's preview hundreds of
 * statements.
 */
export async function hasOwnBarsIn(tx: Tx, userId: string, contract: string, resolution: Resolution, from: number, to: number): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    tx,
    sql`select 1 as one from price_bars where user_id = ${userId} and contract = ${barContractOf(contract)} and resolution = ${resolution}
      and start >= ${new Date(from).toISOString()}::timestamptz and start <= ${new Date(to).toISOString()}::timestamptz limit 1`,
  );
  return rows.length > 0;
}

/** Adds one outcome into another, keeping the first conflicts. */
export function addOutcome(total: UpsertOutcome, part: Partial<UpsertOutcome>): void {
  total.added += part.added ?? 0;
  total.unchanged += part.unchanged ?? 0;
  total.conflicting += part.conflicting ?? 0;
  total.replaced += part.replaced ?? 0;
  for (const conflict of part.conflicts ?? []) if (total.conflicts.length < CONFLICTS_SHOWN) total.conflicts.push(conflict);
}

export const emptyOutcome = (): UpsertOutcome => ({ added: 0, unchanged: 0, conflicting: 0, replaced: 0, conflicts: [] });

/** The source a provider's bars are kept under: the provider and its gateway's host ('projectx:api.topstepx.com'). */
export const providerSource = (provider: string, host: string) => `${provider}:${host.toLowerCase()}`;

/**
 * Stores bars a provider's API gave (a sync, as `userId`, connected to that source: the policy lets only such a trader
 * add them) in a transaction of their own, then computes again the MAE and MFE of the trades of every trader connected
 * to that source that the new bars touch. A bar the source gave before is kept as it was. Returns how many bars were
 * added and how many of `userId`'s trades were computed again.
 */
export async function storeProviderBars(
  db: Database,
  userId: string,
  source: string,
  contract: string,
  resolution: Resolution,
  bars: readonly Bar[],
): Promise<{ added: number; tradesUpdated: number }> {
  if (bars.length === 0) return { added: 0, tradesUpdated: 0 };
  const key = barContractOf(contract);
  const size = barChunkSize(db);
  let added = 0;
  await db.withUser(userId, async (tx) => {
    for (let i = 0; i < bars.length; i += size) {
      const [row] = await queryRows<{ added: number }>(
        tx,
        sql`
          with added as (
            insert into provider_bars (source, contract, resolution, start, open, high, low, close, volume)
            select ${source}, ${key}, ${resolution}, s, o, h, l, c, v
            from (${barRows(barColumns(bars.slice(i, i + size)))}) r
            where h >= l
            on conflict (source, contract, resolution, start) do nothing
            returning start
          )
          select count(*)::int as added from added
        `,
      );
      added += Number(row!.added);
    }
  });
  const tradesUpdated =
    added > 0 ? await recomputeForProviderBars(db, userId, source, key, bars[0]!.start, bars[bars.length - 1]!.start + resolution * 1000) : 0;
  return { added, tradesUpdated };
}
