import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { instrumentFigures } from '../../../domain/instruments';
import {
  computeExcursions,
  marketKeyOf,
  type Bar,
  type BarsByResolution,
  type ExcursionResult,
  type MissingRange,
  type Resolution,
} from '../../../domain/market';
import { Decimal, toCents } from '../../../domain/money';
import { queryRows, yieldConnection, type Database, type Tx } from '../../db/client';
import { tradeExcursions, trades } from '../../db/schema';

/**
 * Each trade's MAE, MFE, best exit and exit analysis, stored so that the Trade Log and the Reports read them as
 * columns. Computed by the domain (src/domain/market/excursions.ts) from the bars the trader may read: their own
 * uploads, then the bars of the providers they are connected to for the minutes their own bars lack (core/market/
 * bars.ts), never another trader's upload. Computed again whenever the trade or those bars change: after an import, a
 * change of the trade or of its fills, a restore, an upload or deletion of the trader's bars, and a provider's new bars
 * (for every trader connected to it whose trades they touch). A trade whose contract has no bars at all has no row:
 * there is nothing to store until bars arrive, and the trade page says which to add.
 */

/** Bars after the exit the exit analysis reads (its last horizon is 60 minutes), with a bar to spare. */
const AFTER_EXIT_MS = 61 * 60_000;
/** Trades measured per read of bars: a day of 1-second bars is ~80,000 rows, read once for all its trades. */
const WINDOW_MS = 86_400_000;
const WINDOW_TRADES = 2_000;
/** The SQL form of marketKeyOf (src/domain/market/bars.ts). */
const marketKey = sql`upper(trim(coalesce(nullif(trim(${trades.contract}), ''), ${trades.symbol})))`;

type Selection = { ids: readonly string[] } | { contract: string; from: number; to: number };

interface MeasuredTrade {
  id: string;
  contract: string | null;
  symbol: string;
  side: string | null;
  entryTime: string | null;
  exitTime: string | null;
  quantity: string | null;
  entryPrice: string | null;
  exitPrice: string | null;
  grossPnl: string | null;
  pnl: string;
  commission: string;
  fills: string | null;
}

const measuredColumns = {
  id: trades.id,
  contract: trades.contract,
  symbol: trades.symbol,
  side: trades.side,
  entryTime: trades.entryTime,
  exitTime: trades.exitTime,
  quantity: trades.quantity,
  entryPrice: trades.entryPrice,
  exitPrice: trades.exitPrice,
  grossPnl: trades.grossPnl,
  pnl: trades.pnl,
  commission: trades.commission,
  // The trade's fills packed as "time,side,quantity,price;..." in the order traded (one field, not a row per fill).
  fills: sql<
    string | null
  >`(select string_agg(concat_ws(',', (extract(epoch from f.time) * 1000)::bigint, f.side, f.quantity, f.price), ';' order by f.seq)
    from trade_fills f where f.user_id = ${trades.userId} and f.trade_id = ${trades.id})`,
};

/** What the measure reads of a fill: a stored row, or one unpacked from measuredColumns.fills. */
interface FillForMeasure {
  time: string | number;
  side: string;
  quantity: string;
  price: string;
}

function unpackFills(packed: string | null): FillForMeasure[] {
  if (!packed) return [];
  return packed.split(';').map((text) => {
    const [time, side, quantity, price] = text.split(',') as [string, string, string, string];
    return { time: Number(time), side, quantity, price };
  });
}

/** What the domain needs of a stored trade; null when it has nothing to measure (no times, prices, side or quantity). */
export function toExcursionTrade(trade: Omit<MeasuredTrade, 'fills'>, fills: readonly FillForMeasure[]) {
  if (!trade.entryTime || !trade.exitTime || !trade.quantity || !trade.entryPrice || !trade.exitPrice) return null;
  if (trade.side !== 'Long' && trade.side !== 'Short') return null;
  const figures = instrumentFigures(marketKeyOf(trade.contract, trade.symbol));
  // Gross P&L as stored, or for a trade without it (a manual trade) its net plus its commission.
  const grossPnlCents = trade.grossPnl !== null ? toCents(trade.grossPnl) : toCents(trade.pnl) + toCents(trade.commission);
  return {
    side: trade.side,
    entryTime: Date.parse(new Date(trade.entryTime).toISOString()),
    exitTime: Date.parse(new Date(trade.exitTime).toISOString()),
    quantity: new Decimal(trade.quantity),
    entryPrice: new Decimal(trade.entryPrice),
    exitPrice: new Decimal(trade.exitPrice),
    grossPnlCents,
    ...figures,
    fills: fills.map((fill) => ({
      time: Date.parse(new Date(fill.time).toISOString()),
      side: fill.side as 'Buy' | 'Sell',
      quantity: new Decimal(fill.quantity),
      price: new Decimal(fill.price),
    })),
  } as const;
}

/** The bars a trader may read around a window, and what vouches for the minutes without one. */
export interface MarketData {
  bars: BarsByResolution;
  /** Stretches of the trader's uploads whose source they confirmed leaves out minutes without trades. */
  quiet: MissingRange[];
  /** Where the bars came from: 'upload' (the trader's own) and the provider sources ('projectx:api.topstepx.com'). */
  sources: string[];
}

/** The provider sources the trader is connected to (their connections' bar sources). */
const connectedSources = (userId: string) => sql`(select c.bar_source from broker_connections c where c.user_id = ${userId} and c.bar_source <> '')`;

/**
 * The bars of one contract in [from, to] the trader may read, by resolution, oldest first: their own, and for a bar
 * start they have none of, their providers'. Read as one packed text per resolution ("start,open,high,low,close,
 * volume,source;..."): a day of 1-minute bars is 1,380 rows of 7 fields, and reading each field of each row through
 * the driver cost more than computing every trade's figures from them.
 */
export async function readBars(
  tx: Tx,
  userId: string,
  contract: string,
  from: number,
  to: number,
  resolutions: readonly Resolution[] = [1, 60],
): Promise<MarketData> {
  const fromText = new Date(from).toISOString();
  const toText = new Date(to).toISOString();
  const wanted = sql.join(
    resolutions.map((r) => sql`${r}`),
    sql`, `,
  );
  const rows = await queryRows<{ resolution: number; packed: string }>(
    tx,
    sql`
      select resolution, string_agg(concat_ws(',', (extract(epoch from start) * 1000)::bigint, open, high, low, close, coalesce(volume::text, ''), source), ';' order by start) as packed
      from (
        select distinct on (resolution, start) resolution, start, open, high, low, close, volume, source
        from (
          select 0 as rank, 'upload' as source, resolution, start, open, high, low, close, volume from price_bars
          where user_id = ${userId} and contract = ${contract} and resolution in (${wanted})
            and start >= ${fromText}::timestamptz and start <= ${toText}::timestamptz
          union all
          select 1, source, resolution, start, open, high, low, close, volume from provider_bars
          where source in ${connectedSources(userId)} and contract = ${contract} and resolution in (${wanted})
            and start >= ${fromText}::timestamptz and start <= ${toText}::timestamptz
        ) candidates
        order by resolution, start, rank, source
      ) chosen
      group by resolution
    `,
  );
  const byResolution: Partial<Record<Resolution, Bar[]>> = {};
  const sources = new Set<string>();
  for (const row of rows) {
    const bars: Bar[] = [];
    for (const text of row.packed.split(';')) {
      const [start, open, high, low, close, volume, source] = text.split(',') as [string, string, string, string, string, string, string];
      bars.push({ start: Number(start), open, high, low, close, volume: volume === '' ? null : volume });
      sources.add(source);
    }
    byResolution[Number(row.resolution) as Resolution] = bars;
  }
  const quiet = await queryRows<{ from_ms: string; to_ms: string }>(
    tx,
    sql`
      select (extract(epoch from first_start) * 1000)::bigint::text as from_ms,
        (extract(epoch from last_start) * 1000 + resolution * 1000)::bigint::text as to_ms
      from bar_uploads
      where user_id = ${userId} and contract = ${contract} and quiet_minutes
        and first_start <= ${toText}::timestamptz and last_start >= ${new Date(from - 60_000).toISOString()}::timestamptz
    `,
  );
  return {
    bars: byResolution,
    quiet: quiet.map((q) => ({ from: Number(q.from_ms), to: Number(q.to_ms) })),
    sources: [...sources].sort((a, b) => Number(b === 'upload') - Number(a === 'upload') || a.localeCompare(b)),
  };
}

/** The contracts among these that the trader has any bars of (their own or a connected provider's). */
async function contractsWithBars(tx: Tx, userId: string, contracts: readonly string[]): Promise<Set<string>> {
  if (contracts.length === 0) return new Set();
  const list = sql.join(
    contracts.map((c) => sql`${c}`),
    sql`, `,
  );
  const rows = await queryRows<{ contract: string }>(
    tx,
    sql`
      select k.contract from unnest(array[${list}]::text[]) as k(contract)
      where exists (select 1 from price_bars p where p.user_id = ${userId} and p.contract = k.contract)
         or exists (select 1 from provider_bars b where b.source in ${connectedSources(userId)} and b.contract = k.contract)
    `,
  );
  return new Set(rows.map((row) => row.contract));
}

/** The excursion row of a domain result, with where its bars came from. */
function toRow(userId: string, tradeId: string, result: ExcursionResult, sources: readonly string[]) {
  const complete = result.status === 'complete' ? result : null;
  return {
    user_id: userId,
    trade_id: tradeId,
    status: result.status,
    resolution: 'resolution' in result ? result.resolution : null,
    mae_points: complete?.mae.points ?? null,
    mfe_points: complete?.mfe.points ?? null,
    mae_ticks: complete?.mae.ticks ?? null,
    mfe_ticks: complete?.mfe.ticks ?? null,
    mae: complete ? centsText(complete.mae.cents) : null,
    mfe: complete ? centsText(complete.mfe.cents) : null,
    best_exit_price: complete?.bestExit.price ?? null,
    capture: complete?.capture ?? null,
    detail: { ...result, sources } satisfies StoredExcursion,
  };
}

/** What trade_excursions.detail holds: the domain's result and the sources of its bars. */
export type StoredExcursion = ExcursionResult & { sources?: readonly string[] };

const centsText = (cents: number) => new Decimal(cents).dividedBy(100).toFixed(2);

/**
 * Computes the selected trades of the trader again and stores the results, in the caller's transaction (as the
 * trader: row-level security applies). `ids`: those trades; `contract, from, to`: the trades of that contract whose
 * span, or the hour after it, meets [from, to] (bars changed there). Returns how many trades were computed.
 */
export async function recomputeExcursions(tx: Tx, userId: string, selection: Selection): Promise<number> {
  let where: SQL;
  if ('ids' in selection) {
    if (selection.ids.length === 0) return 0;
    // The ids as a set to join: a hash join, where `= any(array)` compared each trade with every id.
    where = and(eq(trades.userId, userId), sql`${trades.id} in (select unnest(${`{${selection.ids.join(',')}}`}::uuid[]))`)!;
  } else {
    where = and(
      eq(trades.userId, userId),
      sql`${marketKey} = ${selection.contract}`,
      isNotNull(trades.entryTime),
      sql`${trades.entryTime} <= ${new Date(selection.to).toISOString()}::timestamptz`,
      sql`${trades.exitTime} >= ${new Date(selection.from - AFTER_EXIT_MS).toISOString()}::timestamptz`,
    )!;
  }
  const rows: MeasuredTrade[] = await tx.select(measuredColumns).from(trades).where(where);
  if (rows.length === 0) return 0;

  const byContract = new Map<string, Array<{ row: MeasuredTrade; trade: NonNullable<ReturnType<typeof toExcursionTrade>> }>>();
  const unmeasurable: string[] = [];
  for (const row of rows) {
    const trade = toExcursionTrade(row, unpackFills(row.fills));
    if (!trade) {
      unmeasurable.push(row.id);
      continue;
    }
    const key = marketKeyOf(row.contract, row.symbol);
    let list = byContract.get(key);
    if (!list) byContract.set(key, (list = []));
    list.push({ row, trade });
  }
  const withBars = await contractsWithBars(tx, userId, [...byContract.keys()]);
  const results: ReturnType<typeof toRow>[] = [];
  const cleared = [...unmeasurable];
  for (const [contract, list] of byContract) {
    if (!withBars.has(contract)) {
      cleared.push(...list.map(({ row }) => row.id));
      continue;
    }
    list.sort((a, b) => a.trade.entryTime - b.trade.entryTime);
    for (let i = 0; i < list.length;) {
      // A window of trades whose bars are read at once.
      const start = list[i]!.trade.entryTime;
      let end = i;
      let to = list[i]!.trade.exitTime;
      while (end < list.length && end - i < WINDOW_TRADES && list[end]!.trade.entryTime - start <= WINDOW_MS) {
        to = Math.max(to, list[end]!.trade.exitTime);
        end++;
      }
      const data = await readBars(tx, userId, contract, start - 60_000, to + AFTER_EXIT_MS);
      for (let k = i; k < end; k++) {
        const { row, trade } = list[k]!;
        results.push(toRow(userId, row.id, computeExcursions(trade, data.bars, { quiet: data.quiet }), data.sources));
      }
      i = end;
    }
  }
  await storeRows(tx, userId, results, cleared);
  return results.length;
}

const ROWS_PER_STATEMENT = 2_000;

/**
 * Writes the results in statements of ROWS_PER_STATEMENT rows, read as json (not jsonb: the whole batch need not be
 * converted, only each row's detail), and leaves a stored row whose figures did not change as it is: bars added
 * beside a trade's, or a trade edited in a way MAE and MFE do not read, rewrite nothing.
 */
async function storeRows(tx: Tx, userId: string, results: ReturnType<typeof toRow>[], cleared: string[]) {
  if (cleared.length > 0) {
    await tx
      .delete(tradeExcursions)
      .where(and(eq(tradeExcursions.userId, userId), sql`${tradeExcursions.tradeId} = any(${`{${cleared.join(',')}}`}::uuid[])`));
  }
  for (let i = 0; i < results.length; i += ROWS_PER_STATEMENT) {
    const json = JSON.stringify(results.slice(i, i + ROWS_PER_STATEMENT));
    await tx.execute(sql`
      insert into trade_excursions (user_id, trade_id, status, resolution, mae_points, mfe_points, mae_ticks, mfe_ticks,
        mae, mfe, best_exit_price, capture, detail, computed_at)
      select user_id, trade_id, status, resolution, mae_points, mfe_points, mae_ticks, mfe_ticks, mae, mfe,
        best_exit_price, capture, detail, now()
      from json_to_recordset(${json}::json) as r(user_id text, trade_id uuid, status text, resolution int,
        mae_points numeric, mfe_points numeric, mae_ticks numeric, mfe_ticks numeric, mae numeric, mfe numeric,
        best_exit_price numeric, capture numeric, detail jsonb)
      on conflict (user_id, trade_id) do update set status = excluded.status, resolution = excluded.resolution,
        mae_points = excluded.mae_points, mfe_points = excluded.mfe_points, mae_ticks = excluded.mae_ticks,
        mfe_ticks = excluded.mfe_ticks, mae = excluded.mae, mfe = excluded.mfe, best_exit_price = excluded.best_exit_price,
        capture = excluded.capture, detail = excluded.detail, computed_at = excluded.computed_at
      where trade_excursions.detail is distinct from excluded.detail
    `);
  }
}

/**
 * The trader's trades of the contracts and times these trades span (an import or a restore just stored them),
 * computed again: one pass per contract over the range its trades cover. Returns how many were computed.
 */
export async function recomputeForTrades(
  tx: Tx,
  userId: string,
  stored: Iterable<{ contract: string | null; symbol: string; entryTime: string | number | null; exitTime: string | number | null }>,
): Promise<number> {
  const ranges = new Map<string, [number, number]>();
  for (const trade of stored) {
    if (trade.entryTime === null || trade.exitTime === null) continue;
    const entry = new Date(trade.entryTime).getTime();
    const exit = new Date(trade.exitTime).getTime();
    if (!Number.isFinite(entry) || !Number.isFinite(exit)) continue;
    const key = marketKeyOf(trade.contract, trade.symbol);
    const range = ranges.get(key);
    ranges.set(key, range ? [Math.min(range[0], entry), Math.max(range[1], exit)] : [entry, exit]);
  }
  let computed = 0;
  const known = await contractsWithBars(tx, userId, [...ranges.keys()]);
  for (const [contract, [from, to]] of ranges) {
    // Without any bars of the contract there is nothing to compute (and no row to keep).
    if (known.has(contract)) computed += await recomputeExcursions(tx, userId, { contract, from, to });
  }
  return computed;
}

/** The trader's trades of a contract in [from, to] computed again, when that contract has any bars at all. */
export async function recomputeForContract(tx: Tx, userId: string, span: { contract: string; from: number; to: number }): Promise<number> {
  if ((await contractsWithBars(tx, userId, [span.contract])).size === 0) return 0;
  return recomputeExcursions(tx, userId, span);
}

/**
 * After the trader's own bars of `contract` changed in [from, to] (an upload, a deletion): their trades those bars
 * touch, computed again in a transaction of their own. Returns how many were computed.
 */
export async function recomputeForOwnBars(db: Database, userId: string, contract: string, from: number, to: number): Promise<number> {
  return db.withUser(userId, (tx) => recomputeExcursions(tx, userId, { contract, from, to }));
}

/**
 * After a provider's bars of `contract` were added in [from, to]: every trader connected to that source whose trades
 * they touch gets those trades computed again, each in a transaction of their own as that trader. Which traders is read
 * through the owner connection (their trades are not the syncing trader's to read), and only their ids leave it.
 * Returns how many of `userId`'s trades were computed.
 */
export async function recomputeForProviderBars(
  db: Database,
  userId: string,
  source: string,
  contract: string,
  from: number,
  to: number,
): Promise<number> {
  const owners = await queryRows<{ user_id: string }>(
    db.db,
    sql`
      select distinct trades.user_id from trades
      where ${marketKey} = ${contract} and trades.entry_time is not null
        and trades.entry_time <= ${new Date(to).toISOString()}::timestamptz
        and trades.exit_time >= ${new Date(from - AFTER_EXIT_MS).toISOString()}::timestamptz
        and exists (select 1 from broker_connections c where c.user_id = trades.user_id and c.bar_source = ${source})
    `,
  );
  let mine = 0;
  for (const { user_id: owner } of owners) {
    const count = await db.withUser(owner, (tx) => recomputeExcursions(tx, owner, { contract, from, to }));
    if (owner === userId) mine = count;
  }
  return mine;
}

/**
 * The traders whose trades lack their figures while bars of their contracts are there to compute them from: after the
 * move to each trader's own bars every stored figure was removed, so the server computes them again at start, one
 * trader and one contract at a time, letting other requests run between them. A trader measured already costs one
 * probe. Returns how many trades were computed.
 */
export async function remeasureUnmeasured(db: Database, options: { signal?: AbortSignal } = {}): Promise<number> {
  const pending = await queryRows<{ user_id: string; contract: string; first: string; last: string }>(
    db.db,
    sql`
      select trades.user_id, ${marketKey} as contract, min(trades.entry_time)::text as first, max(trades.exit_time)::text as last
      from trades
      where trades.entry_time is not null and trades.exit_time is not null and trades.side in ('Long', 'Short')
        and trades.quantity is not null and trades.entry_price is not null and trades.exit_price is not null
        and not exists (select 1 from trade_excursions e where e.user_id = trades.user_id and e.trade_id = trades.id)
        and (exists (select 1 from price_bars p where p.user_id = trades.user_id and p.contract = ${marketKey})
          or exists (select 1 from provider_bars b join broker_connections c on c.bar_source = b.source
                     where c.user_id = trades.user_id and b.contract = ${marketKey}))
      group by 1, 2
    `,
  );
  let computed = 0;
  for (const { user_id: userId, contract, first, last } of pending) {
    if (options.signal?.aborted) break;
    computed += await db.withUser(userId, async (tx) => {
      const count = await recomputeExcursions(tx, userId, {
        contract,
        from: Date.parse(new Date(first).toISOString()),
        to: Date.parse(new Date(last).toISOString()),
      });
      await yieldConnection(tx);
      return count;
    });
  }
  return computed;
}
