import { and, eq, sql } from 'drizzle-orm';
import type { BarsCoverage, BarsDeleted, BarsOutcome, BarsPreview, BarsQuery, ChartQuery, Excursions, TradeChart } from '../../../contract/market';
import { resolvePlannedRisk } from '../../../domain/risk';
import { loadRiskDefaults } from '../../core/risk/repo';
import { toRiskTrade } from '../../core/trades/dto';
import type { BarFileSummary } from '../../../domain/importers/bars';
import {
  barContractOf,
  computeExcursions,
  findMissingBars,
  inR,
  marketKeyOf,
  periodMs,
  type Bar,
  type ExcursionResult,
  type ExitAfter,
  type Resolution,
} from '../../../domain/market';
import { formatInZone, isValidTimeZone } from '../../../domain/dates';
import { instrumentFigures } from '../../../domain/instruments';
import { centsToDecimalString, toCents, trimDecimalZeros } from '../../../domain/money';
import type { Config } from '../../config';
import { hostOf, PROJECTX_FIRMS } from '../../connectors/projectx-firms';
import { queryRows, yieldConnection, type Database, type Tx } from '../../db/client';
import { barUploads, brokerStops, tradeExcursions, trades } from '../../db/schema';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { getPreferences, preferencesIn } from '../../core/preferences/repo';
import { addOutcome, barChunkSize, compareOwnBarsIn, emptyOutcome, hasOwnBarsIn, upsertOwnBarsIn, type UpsertOutcome } from '../../core/market/bars';
import { readBars, recomputeForOwnBars, toExcursionTrade, type StoredExcursion } from '../../core/market/excursions';
import { fillsRepo, toFillDto, toFillRecord } from '../../core/trades/fills';
import { parseBarsInWorker, type BarsJob, type Upload } from '../../core/parse/parse-pool';
import type { FillsCheck, FillToCheck } from '../../core/parse/bars-file';

/** The most bars one chart draws: beyond it the bars farthest from the trade are left out. */
const MAX_CHART_BARS = 20_000;
/** The exit analysis looks an hour past the exit: the chart reads that far to compute the trade's figures. */
const AFTER_EXIT_MS = 61 * 60_000;

const iso = (ms: number) => new Date(ms).toISOString();
const instantText = (value: string) => new Date(value).toISOString();

type TradeRowForMarket = typeof trades.$inferSelect;

/** The words for where bars came from: the trader's uploads, or a provider's gateway by its firm's name. */
export function sourceLabeller(config: Pick<Config, 'PROJECTX_API_URL' | 'PROJECTX_NAME'>) {
  const configuredHost = hostOf(config.PROJECTX_API_URL);
  return (id: string): { id: string; label: string } => {
    if (id === 'upload') return { id, label: 'your uploads' };
    const host = id.replace(/^[a-z]+:/, '');
    if (host === configuredHost) return { id, label: config.PROJECTX_NAME };
    return { id, label: PROJECTX_FIRMS.find((firm) => hostOf(firm.baseUrl) === host)?.label ?? host };
  };
}
type Labeller = ReturnType<typeof sourceLabeller>;

function exitAfterDto(after: ExitAfter, commission: number, net: number, risk: number | null) {
  if (after.status !== 'ok')
    return {
      minutes: after.minutes,
      status: after.status,
      ...(after.status === 'missing' && after.minute !== undefined && { minute: iso(after.minute) }),
    };
  return {
    minutes: after.minutes,
    status: 'ok' as const,
    gross_pnl: centsToDecimalString(after.grossPnlCents),
    net_pnl: centsToDecimalString(after.grossPnlCents - commission),
    difference: centsToDecimalString(after.grossPnlCents - commission - net),
    net_pnl_r: inR(after.grossPnlCents - commission, risk),
    difference_r: inR(after.grossPnlCents - commission - net, risk),
    price: after.price,
    time: iso(after.time),
  };
}

/**
 * A stored (or freshly computed) domain result as the API says it: money as decimals, R from the planned risk when
 * the trade has one, the exit analysis net of the trade's own commission and against its real net P&L.
 */
export function toExcursionsDto(
  stored: StoredExcursion,
  trade: { contract: string; commission: string; pnl: string; plannedRiskCents?: number | null },
  computedAt: string,
  label: Labeller,
): Excursions {
  const at = instantText(computedAt);
  const result = stored as ExcursionResult;
  const sources = (stored.sources ?? []).map(label);
  if (result.status === 'not-applicable') return { status: 'not-applicable', reason: result.reason, computed_at: at };
  if (result.status === 'no-bars')
    return { status: 'no-bars', contract: trade.contract, from: iso(result.from), to: iso(result.to), computed_at: at };
  if (result.status === 'missing') {
    return {
      status: 'missing',
      contract: trade.contract,
      resolution: result.resolution,
      missing: result.missing.map((range) => ({ from: iso(range.from), to: iso(range.to) })),
      from: iso(result.from),
      to: iso(result.to),
      sources,
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
    exit_after: result.exitAfter.map((after) => exitAfterDto(after, commission, net, risk)),
    // Figures stored before the second mode existed have only the first: they are computed again at the next change.
    exit_after_each_fill: (result.exitAfterEachFill ?? []).map((after) => exitAfterDto(after, commission, net, risk)),
    quiet_minutes: result.quietMinutes ?? 0,
    sources,
    computed_at: at,
  };
}

async function findTrade(tx: Tx, userId: string, id: string): Promise<TradeRowForMarket | undefined> {
  const [row] = await tx
    .select()
    .from(trades)
    .where(and(eq(trades.userId, userId), eq(trades.id, id)));
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

const wire = (bar: Bar) =>
  [bar.start / 1000, Number(bar.open), Number(bar.high), Number(bar.low), Number(bar.close), bar.volume === null ? null : Number(bar.volume)] as [
    number,
    number,
    number,
    number,
    number,
    number | null,
  ];

/** The SQL form of marketKeyOf over the trades table. */
const marketKey = sql`upper(trim(coalesce(nullif(trim(${trades.contract}), ''), ${trades.symbol})))`;

export function createMarketService(config: Pick<Config, 'PROJECTX_API_URL' | 'PROJECTX_NAME'>) {
  const label = sourceLabeller(config);

  return {
    /**
     * A trade's chart: the bars the trader may read of its contract from `padding` minutes before the entry to as long
     * after the exit (the finest resolution with bars there, or the one asked for), the minutes without a bar, its
     * fills, its average prices and planned stop, and its MAE, MFE and exit analysis computed from the same bars as
     * the stored ones are.
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
        const [bracket] = await tx
          .select()
          .from(brokerStops)
          .where(and(eq(brokerStops.userId, userId), eq(brokerStops.tradeId, tradeId)));
        const stopPrice = trade.stopPrice === null ? null : trimDecimalZeros(trade.stopPrice);
        const stop =
          stopPrice === null
            ? null
            : {
                price: stopPrice,
                source: bracket && trimDecimalZeros(bracket.stopPrice) === stopPrice ? ('stop-order' as const) : ('trade' as const),
              };
        const money = { contract, commission: trade.commission, pnl: trade.pnl, plannedRiskCents };
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
          stop,
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
            holes: [],
            excursions: toExcursionsDto(
              { status: 'not-applicable', reason: 'The trade has no entry and exit times: add its fills or times to see it on a chart' },
              money,
              new Date().toISOString(),
              label,
            ),
          };
        }
        const entry = new Date(trade.entryTime ?? anchor).getTime();
        const exit = new Date(trade.exitTime ?? anchor).getTime();
        const padMs = query.padding * 60_000;
        const from = entry - padMs;
        const to = exit + padMs;
        // From a bar before the window (a bar that starts before it may end inside it) to an hour past the exit.
        const read = await readBars(tx, userId, contract, Math.min(from, entry) - 60_000, Math.max(to, exit + AFTER_EXIT_MS));
        const available = ([1, 60] as const).map((resolution) => ({
          resolution,
          bars: (read.bars[resolution] ?? []).filter((bar) => bar.start + periodMs(resolution) > from && bar.start <= to).length,
        }));
        const chosen: Resolution | null =
          query.resolution ??
          available.find((a) => a.bars > 0 && a.bars <= MAX_CHART_BARS)?.resolution ??
          available.find((a) => a.bars > 0)?.resolution ??
          null;
        const inWindow = chosen === null ? [] : (read.bars[chosen] ?? []).filter((bar) => bar.start + periodMs(chosen) > from && bar.start <= to);
        const drawn = nearest(inWindow, entry, exit);
        const holes =
          chosen === null || drawn.bars.length === 0
            ? []
            : findMissingBars(
                drawn.bars,
                chosen,
                drawn.bars[0]!.start,
                drawn.bars[drawn.bars.length - 1]!.start,
                instrumentFigures(contract).market,
                read.quiet,
              );
        const excursion: StoredExcursion = measured
          ? { ...computeExcursions(measured, read.bars, { quiet: read.quiet }), sources: read.sources }
          : { status: 'not-applicable', reason: 'The trade needs its side, quantity, entry and exit prices and times to be measured' };
        return {
          ...base,
          available,
          resolution: chosen,
          from: iso(from),
          to: iso(to),
          bars: drawn.bars.map(wire),
          truncated: drawn.truncated,
          holes: holes.map((range) => ({ from: iso(range.from), to: iso(range.to) })),
          excursions: toExcursionsDto(excursion, money, new Date().toISOString(), label),
        };
      });
      if (!result) throw notFound('Trade not found');
      return result;
    },

    /** The stored figures of some trades (the Trade Log's columns), by trade. */
    async storedExcursions(
      tx: Tx,
      userId: string,
      rows: ReadonlyArray<{ id: string; contract: string | null; symbol: string; commission: string; pnl: string }>,
    ) {
      const byTrade = new Map<string, Excursions>();
      if (rows.length === 0) return byTrade;
      const stored = await tx
        .select()
        .from(tradeExcursions)
        .where(and(eq(tradeExcursions.userId, userId), sql`${tradeExcursions.tradeId} = any(${`{${rows.map((r) => r.id).join(',')}}`}::uuid[])`));
      const tradeOf = new Map(rows.map((r) => [r.id, r]));
      for (const row of stored) {
        const trade = tradeOf.get(row.tradeId)!;
        byTrade.set(
          row.tradeId,
          toExcursionsDto(
            row.detail as StoredExcursion,
            { contract: marketKeyOf(trade.contract, trade.symbol), commission: trade.commission, pnl: trade.pnl },
            row.computedAt,
            label,
          ),
        );
      }
      return byTrade;
    },

    /** A bar file read and checked: each contract's bars, those already stored, the fills that contradict them. */
    previewBars(db: Database, userId: string, upload: Upload, query: BarsQuery): Promise<BarsPreview> {
      return withBarFile(db, userId, upload, query, async (job, summary, contradictions) => {
        const compared = new Map<string, Omit<UpsertOutcome, 'added' | 'replaced'>>();
        const conflicts: UpsertOutcome['conflicts'] = [];
        await db.withUser(userId, async (tx) => {
          // Only the contracts the trader has bars of in the file's span are compared bar by bar: the rest are all new.
          const fresh: string[] = [];
          for (const s of summary.series)
            if (!(await hasOwnBarsIn(tx, userId, s.contract, summary.resolution, s.first, s.last))) fresh.push(s.contract);
          if (fresh.length === summary.series.length) return;
          for await (const chunk of job.chunks({ size: barChunkSize(db), skip: fresh })) {
            const part = await compareOwnBarsIn(tx, userId, chunk.contract, summary.resolution, chunk.columns);
            const total = compared.get(chunk.contract) ?? { unchanged: 0, conflicting: 0, conflicts: [] };
            total.unchanged += part.unchanged;
            total.conflicting += part.conflicting;
            for (const conflict of part.conflicts) if (conflicts.length < 20) conflicts.push(conflict);
            compared.set(chunk.contract, total);
            await yieldConnection(tx);
          }
        });
        return {
          format: summary.format,
          resolution: summary.resolution,
          time_zone: summary.timeZone,
          naive_times: summary.naiveTimes,
          row_count: summary.rowCount,
          duplicates_in_file: summary.duplicates,
          series: summary.series.map((s) => ({
            contract: s.contract,
            bars: s.bars,
            first: iso(s.first),
            last: iso(s.last),
            already_stored: compared.get(s.contract)?.unchanged ?? 0,
            conflicting: compared.get(s.contract)?.conflicting ?? 0,
          })),
          issues: summary.issues,
          unreadable_rows: summary.errorRows,
          time_zone_check: summary.timeZoneCheck,
          headers: summary.headers,
          mapping: summary.mapping,
          conflicts,
          contradictions,
          omits_quiet_minutes: summary.format.id === 'databento-ohlcv',
        };
      });
    },

    /**
     * Stores a bar file's bars as the trader's own, in one transaction, chunk by chunk as the worker reads them, then
     * computes again the MAE and MFE of the trader's trades they touch. A file with unreadable rows is refused unless
     * the trader chose to skip them (as trade imports); a file the trader's own fills contradict is refused, naming
     * the contract and the first of those fills, unless the trader insists.
     */
    importBars(db: Database, userId: string, upload: Upload, query: BarsQuery & { skip_unreadable: boolean }): Promise<BarsOutcome> {
      return withBarFile(db, userId, upload, query, async (job, summary, contradictions, timeZone) => {
        if (summary.errorRows > 0 && !query.skip_unreadable) {
          const first = summary.issues.find((i) => i.severity === 'error')!;
          throw new HttpError(
            422,
            `${summary.errorRows} ${summary.errorRows === 1 ? 'row' : 'rows'} of the file could not be read (first: row ${first.row}: ${first.message}). Review them in the preview, then confirm to import the other bars.`,
            { code: 'unreadable-rows', unreadable_rows: summary.errorRows, issues: summary.issues.filter((i) => i.severity === 'error') },
          );
        }
        if (contradictions.length > 0 && !query.insist) {
          throw new HttpError(409, contradictionMessage(contradictions, timeZone), { code: 'contradicts-fills', contradictions });
        }
        const totals = emptyOutcome();
        const added = new Map<string, number>();
        await db.withUser(userId, async (tx) => {
          const fresh = new Set<string>();
          for (const s of summary.series)
            if (!(await hasOwnBarsIn(tx, userId, s.contract, summary.resolution, s.first, s.last))) fresh.add(s.contract);
          for await (const chunk of job.chunks({ size: barChunkSize(db) })) {
            const outcome = await upsertOwnBarsIn(tx, userId, chunk.contract, summary.resolution, chunk.columns, {
              replace: query.replace,
              fresh: fresh.has(chunk.contract),
            });
            addOutcome(totals, outcome);
            added.set(chunk.contract, (added.get(chunk.contract) ?? 0) + outcome.added + outcome.replaced);
            await yieldConnection(tx);
          }
          for (const s of summary.series) {
            await tx.insert(barUploads).values({
              userId,
              contract: barContractOf(s.contract),
              resolution: summary.resolution,
              firstStart: iso(s.first),
              lastStart: iso(s.last),
              bars: s.bars,
              format: summary.format.id,
              quietMinutes: query.quiet_minutes,
            });
            // Replacing bars replaces what vouched for the minutes they lack: an earlier confirmation no longer stands there.
            if (query.replace && !query.quiet_minutes) {
              await tx.execute(sql`
                update bar_uploads set quiet_minutes = false
                where user_id = ${userId} and contract = ${barContractOf(s.contract)} and quiet_minutes
                  and first_start <= ${iso(s.last)}::timestamptz and last_start >= ${iso(s.first)}::timestamptz
              `);
            }
          }
        });
        let tradesUpdated = 0;
        for (const s of summary.series) {
          if ((added.get(s.contract) ?? 0) === 0 && !query.quiet_minutes) continue;
          tradesUpdated += await recomputeForOwnBars(db, userId, barContractOf(s.contract), s.first, s.last + periodMs(summary.resolution));
        }
        return {
          added: totals.added,
          unchanged: totals.unchanged,
          conflicting: totals.conflicting,
          replaced: totals.replaced,
          conflicts: totals.conflicts,
          contradictions,
          quiet_minutes: query.quiet_minutes,
          skipped_rows: summary.errorRows,
          resolution: summary.resolution,
          series: summary.series.map((s) => ({ contract: s.contract, added: added.get(s.contract) ?? 0 })),
          trades_updated: tradesUpdated,
        };
      });
    },

    /** The trader's own bars per contract, resolution and day in their zone. */
    async coverage(db: Database, userId: string, contract: string | undefined): Promise<BarsCoverage> {
      const timeZone = (await getPreferences(db, userId)).timeZone;
      const days = await db.withUser(userId, (tx) =>
        queryRows<{ contract: string; resolution: number; day: string; bars: number; first: string; last: string }>(
          tx,
          sql`
            select contract, resolution, to_char(start at time zone ${timeZone}, 'YYYY-MM-DD') as day, count(*)::int as bars,
              min(start) as first, max(start) as last
            from price_bars
            where user_id = ${userId} ${contract ? sql`and contract = ${barContractOf(contract)}` : sql``}
            group by 1, 2, 3
            order by 1, 3 desc, 2
          `,
        ),
      );
      return {
        time_zone: timeZone,
        days: days.map((d) => ({
          contract: d.contract,
          resolution: Number(d.resolution) as Resolution,
          day: d.day,
          bars: Number(d.bars),
          first: instantText(d.first),
          last: instantText(d.last),
          mine: Number(d.bars),
        })),
      };
    },

    /**
     * Deletes the trader's bars of a contract, resolution and day (their zone). The MAE and MFE of their trades that
     * read them are computed again.
     */
    async deleteDay(db: Database, userId: string, query: { contract: string; resolution: Resolution; day: string }): Promise<BarsDeleted> {
      const contract = barContractOf(query.contract);
      const outcome = await db.withUser(userId, async (tx) => {
        const { timeZone } = await preferencesIn(tx, userId);
        const [row] = await queryRows<{ deleted: number; from_ms: string; to_ms: string }>(
          tx,
          sql`
            with bounds as (
              select (${query.day}::date::timestamp at time zone ${timeZone}) as from_at,
                     ((${query.day}::date + 1)::timestamp at time zone ${timeZone}) as to_at
            ),
            removed as (
              delete from price_bars p using bounds b
              where p.user_id = ${userId} and p.contract = ${contract} and p.resolution = ${query.resolution}
                and p.start >= b.from_at and p.start < b.to_at
              returning p.start
            )
            select (select count(*)::int from removed) as deleted,
              (select extract(epoch from from_at) * 1000 from bounds)::bigint::text as from_ms,
              (select extract(epoch from to_at) * 1000 from bounds)::bigint::text as to_ms
          `,
        );
        return row!;
      });
      const deleted = Number(outcome.deleted);
      const tradesUpdated = deleted > 0 ? await recomputeForOwnBars(db, userId, contract, Number(outcome.from_ms), Number(outcome.to_ms)) : 0;
      return { deleted, kept: 0, trades_updated: tradesUpdated };
    },
  };
}

export type MarketService = ReturnType<typeof createMarketService>;

/** The refusal of bars the trader's fills contradict, naming each contract and its first fills in the trader's zone. */
function contradictionMessage(contradictions: BarsPreview['contradictions'], timeZone: string): string {
  const parts = contradictions.map((c) => {
    const fills = c.first
      .slice(0, 3)
      .map(
        (f) =>
          `${f.side} ${trimDecimalZeros(f.quantity)} at ${f.price} on ${formatInZone(f.time, timeZone, 'MMM d HH:mm:ss') ?? f.time} (bar ${f.bar_low}-${f.bar_high})`,
      )
      .join('; ');
    return `${c.contract}: ${c.fills_outside} of your ${c.fills_checked} fills with a bar in this file lie outside their minute's range by more than a tick (first: ${fills})`;
  });
  return `${parts.join('. ')}. These bars may be of another contract month or a back-adjusted continuous series. Nothing was stored: upload bars of the contract you traded, or confirm to store them anyway.`;
}

/** The trader's fills of these contracts in [from, to], for the check against a file's bars. */
async function fillsOf(
  db: Database,
  userId: string,
  spans: ReadonlyArray<{ contract: string; from: number; to: number }>,
): Promise<Record<string, FillToCheck[]>> {
  if (spans.length === 0) return {};
  return db.withUser(userId, async (tx) => {
    const out: Record<string, FillToCheck[]> = {};
    for (const span of spans) {
      const rows = await queryRows<{ t: string; side: string; quantity: string; price: string; trade_id: string }>(
        tx,
        sql`
          select (extract(epoch from f.time) * 1000)::bigint::text as t, f.side, f.quantity::text as quantity, f.price::text as price, f.trade_id
          from trade_fills f join trades on trades.user_id = f.user_id and trades.id = f.trade_id
          where f.user_id = ${userId} and ${marketKey} = ${barContractOf(span.contract)}
            and f.time >= ${iso(span.from)}::timestamptz and f.time < ${iso(span.to)}::timestamptz
          order by f.time
          limit 200000
        `,
      );
      if (rows.length > 0)
        out[span.contract] = rows.map((r) => ({
          time: Number(r.t),
          side: r.side,
          quantity: trimDecimalZeros(r.quantity),
          price: trimDecimalZeros(r.price),
          tradeId: r.trade_id,
        }));
    }
    return out;
  });
}

/**
 * Reads a bar file in the parse worker, with the zone the trader chose (or the format's), as trade imports do, when its
 * turn at the imports' parse gate comes; checks the trader's fills against it; then `use` runs with the file's chunks
 * at hand before the turn is given back.
 */
async function withBarFile<T>(
  db: Database,
  userId: string,
  upload: Upload,
  query: BarsQuery,
  use: (job: BarsJob, summary: BarFileSummary, contradictions: BarsPreview['contradictions'], timeZone: string) => Promise<T>,
): Promise<T> {
  const preferences = await getPreferences(db, userId);
  const preferredTimeZones = [query.browser_time_zone, preferences.timeZone].filter((zone): zone is string => Boolean(zone && isValidTimeZone(zone)));
  const job = await parseBarsInWorker(
    upload,
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
    const summary = job.summary;
    if (!summary.ok) throw badRequest(summary.message, { code: summary.code, ...(summary.headers && { headers: summary.headers }) });
    const period = periodMs(summary.resolution);
    const fills = await fillsOf(
      db,
      userId,
      summary.series.map((s) => ({ contract: s.contract, from: s.first, to: s.last + period })),
    );
    const checks = Object.keys(fills).length > 0 ? await job.checkFills(fills) : [];
    return await use(job, summary, checks.filter((c) => c.outside > 0).map(toContradiction), preferences.timeZone);
  } finally {
    job.release();
  }
}

function toContradiction(check: FillsCheck): BarsPreview['contradictions'][number] {
  const decimal = (value: number) => trimDecimalZeros(String(value));
  return {
    contract: check.contract,
    fills_checked: check.checked,
    fills_outside: check.outside,
    first: check.first.map((f) => ({
      trade_id: f.tradeId,
      time: iso(f.time),
      side: f.side === 'Sell' ? ('Sell' as const) : ('Buy' as const),
      quantity: f.quantity,
      price: f.price,
      bar_low: decimal(f.low),
      bar_high: decimal(f.high),
    })),
  };
}
