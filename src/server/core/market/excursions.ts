import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { instrumentFigures } from '../../../domain/instruments';
import {
  computeExcursions,
  marketKeyOf,
  type Bar,
  type BarsByResolution,
  type ExcursionResult,
  type Resolution,
} from '../../../domain/market';
import { Decimal, toCents } from '../../../domain/money';
import type { Database, Tx } from '../../db/client';
import { priceBars, tradeExcursions, trades } from '../../db/schema';

/**
 * Each trade's MAE, MFE, best exit and exit analysis, stored so that the Trade Log and the Reports
 * read them as columns. Computed by the domain (src/domain/market/excursions.ts) from the bars of the trade's
 * contract, and computed again whenever the trade or those bars change: after an import, a change of the trade or of
 * its fills, a restore, and every upload or deletion of bars (for every trader whose trades those bars touch). A trade
 * whose contract has no bars at all has no row: there is nothing to store until bars arrive, and the trade page says
 * which to add.
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
  fills: sql<string | null>`(select string_agg(concat_ws(',', (extract(epoch from f.time) * 1000)::bigint, f.side, f.quantity, f.price), ';' order by f.seq)
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

/**
 * The bars of one contract in [from, to], by resolution, oldest first. Read as one packed text per resolution
 * ("start,open,high,low,close,volume;..."): a day of 1-minute bars is 1,380 rows of 7 fields, and reading each field of
 * each row through the driver cost more than computing every trade's figures from them.
 */
export async function readBars(tx: Tx, contract: string, from: number, to: number, resolutions: readonly Resolution[] = [1, 60]): Promise<BarsByResolution> {
  const rows = await tx
    .select({
      resolution: priceBars.resolution,
      packed: sql<string>`string_agg(concat_ws(',', (extract(epoch from ${priceBars.start}) * 1000)::bigint, ${priceBars.open}, ${priceBars.high}, ${priceBars.low}, ${priceBars.close}, coalesce(${priceBars.volume}::text, '')), ';' order by ${priceBars.start})`,
    })
    .from(priceBars)
    .where(
      and(
        eq(priceBars.contract, contract),
        inArray(priceBars.resolution, [...resolutions]),
        sql`${priceBars.start} >= ${new Date(from).toISOString()}::timestamptz`,
        sql`${priceBars.start} <= ${new Date(to).toISOString()}::timestamptz`,
      ),
    )
    .groupBy(priceBars.resolution);
  const byResolution: Partial<Record<Resolution, Bar[]>> = {};
  for (const row of rows) {
    const bars: Bar[] = [];
    for (const text of row.packed.split(';')) {
      const [start, open, high, low, close, volume] = text.split(',') as [string, string, string, string, string, string];
      bars.push({ start: Number(start), open, high, low, close, volume: volume === '' ? null : volume });
    }
    byResolution[row.resolution as Resolution] = bars;
  }
  return byResolution;
}

/** Whether any bars of these contracts exist (one probe of the primary key each). */
async function contractsWithBars(tx: Tx, contracts: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const contract of contracts) {
    const [row] = await tx.select({ one: sql`1` }).from(priceBars).where(eq(priceBars.contract, contract)).limit(1);
    if (row) found.add(contract);
  }
  return found;
}

/** The excursion row of a domain result (null: nothing to store). */
function toRow(userId: string, tradeId: string, result: ExcursionResult) {
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
    detail: result,
  };
}

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
  const withBars = await contractsWithBars(tx, [...byContract.keys()]);
  const results: ReturnType<typeof toRow>[] = [];
  const cleared = [...unmeasurable];
  for (const [contract, list] of byContract) {
    if (!withBars.has(contract)) {
      cleared.push(...list.map(({ row }) => row.id));
      continue;
    }
    list.sort((a, b) => a.trade.entryTime - b.trade.entryTime);
    for (let i = 0; i < list.length; ) {
      // A window of trades whose bars are read at once.
      const start = list[i]!.trade.entryTime;
      let end = i;
      let to = list[i]!.trade.exitTime;
      while (end < list.length && end - i < WINDOW_TRADES && list[end]!.trade.entryTime - start <= WINDOW_MS) {
        to = Math.max(to, list[end]!.trade.exitTime);
        end++;
      }
      const bars = await readBars(tx, contract, start - 60_000, to + AFTER_EXIT_MS);
      for (let k = i; k < end; k++) {
        const { row, trade } = list[k]!;
        results.push(toRow(userId, row.id, computeExcursions(trade, bars)));
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
  const known = await contractsWithBars(tx, [...ranges.keys()]);
  for (const [contract, [from, to]] of ranges) {
    // Without any bars of the contract there is nothing to compute (and no row to keep).
    if (known.has(contract)) computed += await recomputeExcursions(tx, userId, { contract, from, to });
  }
  return computed;
}

/** The trader's trades of a contract in [from, to] computed again, when that contract has any bars at all. */
export async function recomputeForContract(tx: Tx, userId: string, span: { contract: string; from: number; to: number }): Promise<number> {
  if ((await contractsWithBars(tx, [span.contract])).size === 0) return 0;
  return recomputeExcursions(tx, userId, span);
}

/**
 * After bars of `contract` changed in [from, to]: every trader whose trades they touch gets those trades computed
 * again, each in a transaction of their own as that trader. Which traders is read through the owner connection (the
 * bars are everyone's; their trades are not the uploader's to read), and only their ids leave it. Returns how many
 * of `userId`'s trades were computed, for the uploader's answer; other traders' counts are theirs.
 */
export async function recomputeForBars(db: Database, userId: string, contract: string, from: number, to: number): Promise<number> {
  const result = (await db.db.execute(sql`
    select distinct user_id from trades
    where ${marketKey} = ${contract} and entry_time is not null
      and entry_time <= ${new Date(to).toISOString()}::timestamptz
      and exit_time >= ${new Date(from - AFTER_EXIT_MS).toISOString()}::timestamptz
  `)) as unknown as { rows: Array<{ user_id: string }> };
  let mine = 0;
  for (const { user_id: owner } of result.rows) {
    const count = await db.withUser(owner, (tx) => recomputeExcursions(tx, owner, { contract, from, to }));
    if (owner === userId) mine = count;
  }
  return mine;
}
