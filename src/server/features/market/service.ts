import { and, eq, sql } from 'drizzle-orm';
import type {
  BarsCoverage,
  BarsDeleted,
  BarsOutcome,
  BarsPreview,
  BarsQuery,
  ChartQuery,
  Excursions,
  TradeChart,
} from '../../../contract/market';
import { resolvePlannedRisk } from '../../../domain/risk';
import { loadRiskDefaults } from '../../core/risk/repo';
import { toRiskTrade } from '../../core/trades/dto';
import type { ParsedBars } from '../../../domain/importers/bars';
import { barContractOf, computeExcursions, inR, marketKeyOf, periodMs, type Bar, type ExcursionResult, type Resolution } from '../../../domain/market';
import { isValidTimeZone } from '../../../domain/dates';
import { centsToDecimalString, toCents, trimDecimalZeros } from '../../../domain/money';
import type { Database, Tx } from '../../db/client';
import { tradeExcursions, trades } from '../../db/schema';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { getPreferences, preferencesIn } from '../../core/preferences/repo';
import { compareBarsIn, upsertBarsIn, type BarConflict } from '../../core/market/bars';
import { readBars, recomputeForBars, toExcursionTrade } from '../../core/market/excursions';
import { fillsRepo, toFillDto, toFillRecord } from '../../core/trades/fills';
import { parseBarsInWorker } from '../../core/parse/parse-pool';

/** The most bars one chart draws: beyond it the bars farthest from the trade are left out. */
const MAX_CHART_BARS = 20_000;
/** The exit analysis looks an hour past the exit: the chart reads that far to compute the trade's figures. */
const AFTER_EXIT_MS = 61 * 60_000;

const iso = (ms: number) => new Date(ms).toISOString();
const instantText = (value: string) => new Date(value).toISOString();


type TradeRowForMarket = typeof trades.$inferSelect;

/**
 * A stored (or freshly computed) domain result as the API says it: money as decimals, R from the planned risk when
 * the trade has one, the exit analysis net of the trade's own commission and against its real net P&L.
 */
export function toExcursionsDto(
  result: ExcursionResult,
  trade: { contract: string; commission: string; pnl: string; plannedRiskCents?: number | null },
  computedAt: string,
): Excursions {
  const at = instantText(computedAt);
  if (result.status === 'not-applicable') return { status: 'not-applicable', reason: result.reason, computed_at: at };
  if (result.status === 'no-bars') return { status: 'no-bars', contract: trade.contract, from: iso(result.from), to: iso(result.to), computed_at: at };
  if (result.status === 'missing') {
    return {
      status: 'missing',
      contract: trade.contract,
      resolution: result.resolution,
      missing: result.missing.map((range) => ({ from: iso(range.from), to: iso(range.to) })),
      from: iso(result.from),
      to: iso(result.to),
      computed_at: at,
    };
  }
  const risk = trade.plannedRiskCents ?? null;
  const commission = toCents(trade.commission);
  const net = toCents(trade.pnl);
  const figure = (excursion: typeof result.mae) => ({
    points: excursion.points,
    ticks: excursion.ticks,
    dollars: centsToDecimalString(excursion.cents),
    r: inR(excursion.cents, risk),
    price: excursion.price,
    time: iso(excursion.time),
  });
  return {
    status: 'complete',
    contract: trade.contract,
    resolution: result.resolution,
    bars_counted: result.barsCounted,
    first_bar: iso(result.firstBarStart),
    last_bar: iso(result.lastBarStart),
    within_one_bar: result.withinOneBar,
    average_entry: result.averageEntry,
    mae: figure(result.mae),
    mfe: figure(result.mfe),
    best_exit: {
      price: result.bestExit.price,
      time: iso(result.bestExit.time),
      gross_pnl: centsToDecimalString(result.bestExit.grossPnlCents),
      r: inR(result.bestExit.grossPnlCents, risk),
    },
    capture: result.capture,
    exit_after: result.exitAfter.map((after) =>
      after.status === 'ok'
        ? {
            minutes: after.minutes,
            status: 'ok' as const,
            gross_pnl: centsToDecimalString(after.grossPnlCents),
            net_pnl: centsToDecimalString(after.grossPnlCents - commission),
            difference: centsToDecimalString(after.grossPnlCents - commission - net),
            net_pnl_r: inR(after.grossPnlCents - commission, risk),
            difference_r: inR(after.grossPnlCents - commission - net, risk),
            price: after.price,
            time: iso(after.time),
          }
        : { minutes: after.minutes, status: after.status },
    ),
    computed_at: at,
  };
}

async function findTrade(tx: Tx, userId: string, id: string): Promise<TradeRowForMarket | undefined> {
  const [row] = await tx.select().from(trades).where(and(eq(trades.userId, userId), eq(trades.id, id)));
  return row;
}

/** The bars to draw from those read: at most MAX_CHART_BARS, the farthest from the trade left out first. */
function nearest(bars: readonly Bar[], entry: number, exit: number): { bars: readonly Bar[]; truncated: boolean } {
  if (bars.length <= MAX_CHART_BARS) return { bars, truncated: false };
  let lo = bars.findIndex((bar) => bar.start >= entry);
  if (lo === -1) lo = bars.length - 1;
  let hi = lo;
  while (hi + 1 < bars.length && bars[hi + 1]!.start <= exit && hi - lo + 1 < MAX_CHART_BARS) hi++;
  while (hi - lo + 1 < MAX_CHART_BARS) {
    if (lo > 0 && (hi + 1 >= bars.length || entry - bars[lo - 1]!.start <= bars[hi + 1]!.start - exit)) lo--;
    else if (hi + 1 < bars.length) hi++;
    else break;
  }
  return { bars: bars.slice(lo, hi + 1), truncated: true };
}

const wire = (bar: Bar) => [bar.start / 1000, Number(bar.open), Number(bar.high), Number(bar.low), Number(bar.close), bar.volume === null ? null : Number(bar.volume)] as [number, number, number, number, number, number | null];

export const marketService = {
  /**
   * A trade's chart: the bars of its contract from `padding` minutes before the entry to as long after the exit (the
   * finest resolution with bars there, or the one asked for), its fills, its average prices, and its MAE, MFE and
   * exit analysis computed from the same bars as the stored ones are.
   */
  async chart(db: Database, userId: string, tradeId: string, query: ChartQuery): Promise<TradeChart> {
    const result = await db.withUser(userId, async (tx) => {
      const trade = await findTrade(tx, userId, tradeId);
      if (!trade) return null;
      const fills = await fillsRepo(tx, userId).list(tradeId);
      const contract = marketKeyOf(trade.contract, trade.symbol);
      // The trade's planned risk (its own plan, else the trader's default) puts the figures in R too.
      const plannedRiskCents = resolvePlannedRisk(toRiskTrade(trade), await loadRiskDefaults(tx, userId))?.cents ?? null;
      const side: 'Long' | 'Short' | null = trade.side === 'Long' || trade.side === 'Short' ? trade.side : null;
      const base = {
        trade_id: tradeId,
        contract,
        side,
        entry_time: trade.entryTime && instantText(trade.entryTime),
        exit_time: trade.exitTime && instantText(trade.exitTime),
        entry_price: trade.entryPrice && trimDecimalZeros(trade.entryPrice),
        exit_price: trade.exitPrice && trimDecimalZeros(trade.exitPrice),
        padding: query.padding,
        fills: fills.map((f) => toFillDto(toFillRecord(f))),
      };
      const measured = toExcursionTrade(trade, fills);
      const anchor = trade.entryTime ?? trade.exitTime ?? fills[0]?.time ?? null;
      if (anchor === null) {
        return {
          ...base,
          available: [],
          resolution: null,
          from: null,
          to: null,
          bars: [],
          truncated: false,
          excursions: toExcursionsDto({ status: 'not-applicable', reason: 'The trade has no entry and exit times: add its fills or times to see it on a chart' }, { contract, commission: trade.commission, pnl: trade.pnl, plannedRiskCents }, new Date().toISOString()),
        };
      }
      const entry = new Date(trade.entryTime ?? anchor).getTime();
      const exit = new Date(trade.exitTime ?? anchor).getTime();
      const padMs = query.padding * 60_000;
      const from = entry - padMs;
      const to = exit + padMs;
      // From a bar before the window (a bar that starts before it may end inside it) to an hour past the exit.
      const read = await readBars(tx, contract, Math.min(from, entry) - 60_000, Math.max(to, exit + AFTER_EXIT_MS));
      const available = ([1, 60] as const).map((resolution) => ({
        resolution,
        bars: (read[resolution] ?? []).filter((bar) => bar.start + periodMs(resolution) > from && bar.start <= to).length,
      }));
      const chosen: Resolution | null =
        query.resolution ?? available.find((a) => a.bars > 0 && a.bars <= MAX_CHART_BARS)?.resolution ?? available.find((a) => a.bars > 0)?.resolution ?? null;
      const inWindow = chosen === null ? [] : (read[chosen] ?? []).filter((bar) => bar.start + periodMs(chosen) > from && bar.start <= to);
      const drawn = nearest(inWindow, entry, exit);
      const excursion: ExcursionResult = measured
        ? computeExcursions(measured, read)
        : { status: 'not-applicable', reason: 'The trade needs its side, quantity, entry and exit prices and times to be measured' };
      return {
        ...base,
        available,
        resolution: chosen,
        from: iso(from),
        to: iso(to),
        bars: drawn.bars.map(wire),
        truncated: drawn.truncated,
        excursions: toExcursionsDto(excursion, { contract, commission: trade.commission, pnl: trade.pnl, plannedRiskCents }, new Date().toISOString()),
      };
    });
    if (!result) throw notFound('Trade not found');
    return result;
  },

  /** The stored figures of some trades (the Trade Log's columns), by trade. */
  async storedExcursions(tx: Tx, userId: string, rows: ReadonlyArray<{ id: string; contract: string | null; symbol: string; commission: string; pnl: string }>) {
    const byTrade = new Map<string, Excursions>();
    if (rows.length === 0) return byTrade;
    const stored = await tx
      .select()
      .from(tradeExcursions)
      .where(and(eq(tradeExcursions.userId, userId), sql`${tradeExcursions.tradeId} = any(${`{${rows.map((r) => r.id).join(',')}}`}::uuid[])`));
    const tradeOf = new Map(rows.map((r) => [r.id, r]));
    for (const row of stored) {
      const trade = tradeOf.get(row.tradeId)!;
      byTrade.set(row.tradeId, toExcursionsDto(row.detail as ExcursionResult, { contract: marketKeyOf(trade.contract, trade.symbol), commission: trade.commission, pnl: trade.pnl }, row.computedAt));
    }
    return byTrade;
  },

  previewBars(db: Database, userId: string, bytes: ArrayBuffer, query: BarsQuery): Promise<BarsPreview> {
    return withParsed(db, userId, bytes, query, (parsed) => previewOf(db, userId, parsed));
  },

  /**
   * Stores a bar file's bars in one transaction as the caller, then computes again the MAE and MFE of every trader's
   * trades they touch. A file with unreadable rows is refused unless the trader chose to skip them (as trade imports).
   */
  importBars(db: Database, userId: string, bytes: ArrayBuffer, query: BarsQuery & { skip_unreadable: boolean }): Promise<BarsOutcome> {
    return withParsed(db, userId, bytes, query, (parsed) => storeParsed(db, userId, parsed, query.skip_unreadable));
  },

  /** Bars per contract, resolution and day in the caller's zone, with how many of each day the caller added. */
  async coverage(db: Database, userId: string, contract: string | undefined): Promise<BarsCoverage> {
    const timeZone = (await getPreferences(db, userId)).timeZone;
    const days = await db.withUser(userId, async (tx) => {
      const result = (await tx.execute(sql`
        select contract, resolution, to_char(start at time zone ${timeZone}, 'YYYY-MM-DD') as day, count(*)::int as bars,
          min(start) as first, max(start) as last, (count(*) filter (where added_by = ${userId}))::int as mine
        from price_bars
        ${contract ? sql`where contract = ${barContractOf(contract)}` : sql``}
        group by 1, 2, 3
        order by 1, 3 desc, 2
      `)) as unknown as { rows: Array<{ contract: string; resolution: number; day: string; bars: number; first: string; last: string; mine: number }> };
      return result.rows;
    });
    return {
      time_zone: timeZone,
      days: days.map((d) => ({
        contract: d.contract,
        resolution: Number(d.resolution) as Resolution,
        day: d.day,
        bars: Number(d.bars),
        first: instantText(d.first),
        last: instantText(d.last),
        mine: Number(d.mine),
      })),
    };
  },

  /**
   * Deletes the caller's bars of a contract, resolution and day (the caller's zone); other traders' bars of that day
   * stay (the row-level policy would keep them too). The MAE and MFE of the trades that read them are computed again.
   */
  async deleteDay(db: Database, userId: string, query: { contract: string; resolution: Resolution; day: string }): Promise<BarsDeleted> {
    const contract = barContractOf(query.contract);
    const outcome = await db.withUser(userId, async (tx) => {
      const { timeZone } = await preferencesIn(tx, userId);
      const result = (await tx.execute(sql`
        with bounds as (
          select (${query.day}::date::timestamp at time zone ${timeZone}) as from_at,
                 ((${query.day}::date + 1)::timestamp at time zone ${timeZone}) as to_at
        ),
        removed as (
          delete from price_bars p using bounds b
          where p.contract = ${contract} and p.resolution = ${query.resolution} and p.start >= b.from_at and p.start < b.to_at
            and p.added_by = ${userId}
          returning p.start
        )
        select (select count(*)::int from removed) as deleted,
          (select count(*)::int from price_bars p, bounds b where p.contract = ${contract} and p.resolution = ${query.resolution}
             and p.start >= b.from_at and p.start < b.to_at and p.added_by is distinct from ${userId}) as kept,
          (select extract(epoch from from_at) * 1000 from bounds)::bigint::text as from_ms,
          (select extract(epoch from to_at) * 1000 from bounds)::bigint::text as to_ms
      `)) as unknown as { rows: Array<{ deleted: number; kept: number; from_ms: string; to_ms: string }> };
      return result.rows[0]!;
    });
    const deleted = Number(outcome.deleted);
    const tradesUpdated = deleted > 0 ? await recomputeForBars(db, userId, contract, Number(outcome.from_ms), Number(outcome.to_ms)) : 0;
    return { deleted, kept: Number(outcome.kept), trades_updated: tradesUpdated };
  },
};

/**
 * Reads a bar file in the parse worker, with the zone the trader chose (or the format's), as trade imports do, when its
 * turn at the imports' parse gate comes; `use` runs with the bars before the turn is given back (they are held in
 * memory until then).
 */
async function withParsed<T>(db: Database, userId: string, bytes: ArrayBuffer, query: BarsQuery, use: (parsed: ParsedBars) => Promise<T>): Promise<T> {
  const preferences = await getPreferences(db, userId);
  const preferredTimeZones = [query.browser_time_zone, preferences.timeZone].filter((zone): zone is string => Boolean(zone && isValidTimeZone(zone)));
  const job = await parseBarsInWorker(
    bytes,
    {
      ...(query.time_zone !== undefined && { timeZone: query.time_zone }),
      ...(query.format !== undefined && { format: query.format }),
      ...(query.resolution !== undefined && { resolution: query.resolution }),
      ...(query.contract !== undefined && { contract: query.contract }),
      ...(query.mapping !== undefined && { mapping: query.mapping }),
      preferredTimeZones,
    },
    userId,
  );
  try {
    const result = job.result;
    if (!result.ok) throw badRequest(result.message, { code: result.code, ...(result.headers && { headers: result.headers }) });
    return await use(result);
  } finally {
    job.release();
  }
}

/** A bar file's preview: each contract's bars, those already stored and the first conflicts. */
async function previewOf(db: Database, userId: string, parsed: ParsedBars): Promise<BarsPreview> {
  const series = await db.withUser(userId, async (tx) => {
    const out: Array<BarsPreview['series'][number]> = [];
    const conflicts: BarConflict[] = [];
    for (const s of parsed.series) {
      const compared = await compareBarsIn(tx, db.kind, s.contract, parsed.resolution, s.bars);
      out.push({
        contract: s.contract,
        bars: s.bars.length,
        first: iso(s.bars[0]!.start),
        last: iso(s.bars[s.bars.length - 1]!.start),
        already_stored: compared.unchanged,
        conflicting: compared.conflicting,
      });
      conflicts.push(...compared.conflicts);
    }
    return { out, conflicts: conflicts.slice(0, 20) };
  });
  return {
    format: parsed.format,
    resolution: parsed.resolution,
    time_zone: parsed.timeZone,
    naive_times: parsed.naiveTimes,
    row_count: parsed.rowCount,
    duplicates_in_file: parsed.duplicates,
    series: series.out,
    issues: parsed.issues.slice(0, 1000),
    unreadable_rows: parsed.issues.filter((i) => i.severity === 'error').length,
    time_zone_check: parsed.timeZoneCheck,
    headers: parsed.headers,
    mapping: parsed.mapping,
    conflicts: series.conflicts,
  };
}

/** A bar file's bars stored, then the MAE and MFE of the trades they touch computed again. */
async function storeParsed(db: Database, userId: string, parsed: ParsedBars, skipUnreadable: boolean): Promise<BarsOutcome> {
  const errors = parsed.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0 && !skipUnreadable) {
    throw new HttpError(
      422,
      `${errors.length} ${errors.length === 1 ? 'row' : 'rows'} of the file could not be read (first: row ${errors[0]!.row}: ${errors[0]!.message}). Review them in the preview, then confirm to import the other bars.`,
      { code: 'unreadable-rows', unreadable_rows: errors.length, issues: errors.slice(0, 1000) },
    );
  }
  const stored = await db.withUser(userId, async (tx) => {
    const totals = { added: 0, unchanged: 0, conflicting: 0, conflicts: [] as BarConflict[], series: [] as Array<{ contract: string; added: number }> };
    for (const s of parsed.series) {
      const outcome = await upsertBarsIn(tx, db.kind, s.contract, parsed.resolution, s.bars, userId);
      totals.added += outcome.added;
      totals.unchanged += outcome.unchanged;
      totals.conflicting += outcome.conflicting;
      totals.conflicts.push(...outcome.conflicts);
      totals.series.push({ contract: s.contract, added: outcome.added });
    }
    return totals;
  });
  let tradesUpdated = 0;
  for (const s of parsed.series) {
    const added = stored.series.find((x) => x.contract === s.contract)?.added ?? 0;
    if (added === 0 || s.bars.length === 0) continue;
    tradesUpdated += await recomputeForBars(db, userId, s.contract, s.bars[0]!.start, s.bars[s.bars.length - 1]!.start + periodMs(parsed.resolution));
  }
  return {
    added: stored.added,
    unchanged: stored.unchanged,
    conflicting: stored.conflicting,
    conflicts: stored.conflicts.slice(0, 20),
    skipped_rows: errors.length,
    resolution: parsed.resolution,
    series: stored.series,
    trades_updated: tradesUpdated,
  };
}
