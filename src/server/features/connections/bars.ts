import { sql } from 'drizzle-orm';
import { barSpanOf, joinBarSpans, type BarSpan } from '../../../domain/connections/bar-spans';
import { contractSpecOf } from '../../../domain/connections/round-trips';
import type { BrokerBar, BrokerContract, ConnectorSession } from '../../connectors/types';
import type { Database } from '../../db/client';
import { storeProviderBars } from '../../core/market/bars';

/**
 * One-minute bars for replay: after a sync, the trades of the connection's trading accounts whose bars are missing get
 * them from the provider (a ProjectX gateway, or a crypto exchange's own klines), kept under the provider's source and
 * the journal's contract (MNQU5, BINANCE:BTCUSDT.P), readable by the traders connected to that source. A trade needs
 * bars when no one-minute bar the trader may read is stored at its entry's minute or its exit's: the exchange traded
 * then, so a bar of that minute exists wherever bars were stored for it.
 */

/** Requests for bars one sync makes at most (the provider allows 30 in 30 s): older trades get theirs next time. */
export const BAR_REQUESTS_PER_SYNC = 60;
/** Trades looked at per sync, newest first. */
const TRADES_LOOKED_AT = 5_000;
const ONE_MINUTE = 60;

export interface BarsOutcome {
  /** Bars stored that were not before. */
  added: number;
  /** Requests made. */
  requests: number;
  /** Spans left for the next sync (the cap per sync). */
  deferred: number;
  /** Journal contracts the provider does not know. */
  unknown: string[];
}

export interface Need {
  contract: string;
  span: BarSpan;
}

/** The bars a trader's trades in these trading accounts lack, as spans per journal contract, newest first. */
export async function barsNeeded(database: Database, userId: string, source: string, accountIds: readonly string[]): Promise<Need[]> {
  if (accountIds.length === 0) return [];
  const rows = await database.withUser(userId, async (tx) => {
    const result = await tx.execute(sql`
      with wanted as (
        select upper(trim(t.contract)) as contract, t.entry_time, t.exit_time
        from trades t
        where t.user_id = ${userId} and t.account_id in (${sql.join(
          accountIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
          and nullif(trim(t.contract), '') is not null and t.entry_time is not null and t.exit_time is not null
      )
      , minutes as (
        select w.contract, w.entry_time, w.exit_time, m.at
        from wanted w, lateral (values (date_trunc('minute', w.entry_time)), (date_trunc('minute', w.exit_time))) as m(at)
      )
      select distinct m.contract, m.entry_time, m.exit_time from minutes m
      where not exists (select 1 from provider_bars b where b.source = ${source} and b.contract = m.contract and b.resolution = ${ONE_MINUTE} and b.start = m.at)
        and not exists (select 1 from price_bars p where p.user_id = ${userId} and p.contract = m.contract and p.resolution = ${ONE_MINUTE} and p.start = m.at)
      order by m.exit_time desc
      limit ${TRADES_LOOKED_AT}
    `);
    return (result as unknown as { rows: Array<{ contract: string; entry_time: string; exit_time: string }> }).rows;
  });
  const byContract = new Map<string, BarSpan[]>();
  for (const row of rows) {
    let spans = byContract.get(row.contract);
    if (!spans) byContract.set(row.contract, (spans = []));
    spans.push(barSpanOf({ entry: new Date(row.entry_time).getTime(), exit: new Date(row.exit_time).getTime() }));
  }
  const needs: Need[] = [];
  for (const [contract, spans] of byContract) for (const span of joinBarSpans(spans)) needs.push({ contract, span });
  return needs.sort((a, b) => b.span.to - a.span.to);
}

/**
 * Stores one contract's bars under the provider's source, as `userId` (the policy lets only a trader connected to that
 * source add them). A bar the source gave before keeps its values, and the MAE and MFE of the trades of every trader
 * connected to it that the new bars touch are computed again. A bar whose high is below its low is left out (the
 * provider's, not the trader's, to answer for). Returns how many bars were added.
 */
export async function storeBars(database: Database, userId: string, source: string, contract: string, bars: readonly BrokerBar[]): Promise<number> {
  const kept = bars
    .filter((b) => Number(b.high) >= Number(b.low))
    .map((b) => ({ start: Date.parse(b.start), open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume }))
    .filter((b) => Number.isFinite(b.start))
    .sort((a, b) => a.start - b.start);
  if (kept.length === 0) return 0;
  return (await storeProviderBars(database, userId, source, contract, ONE_MINUTE, kept)).added;
}

export interface FetchBarsOptions {
  database: Database;
  userId: string;
  session: ConnectorSession;
  /** Where this provider's bars are kept (providerSource: 'projectx:<gateway host>'). */
  source: string;
  /** Trading accounts the connection syncs into. */
  accountIds: readonly string[];
  /** Contracts the provider described in this sync, by its id: their journal names map back to those ids. */
  described: ReadonlyMap<string, BrokerContract | null>;
  /**
   * Spans already asked for in this process (`userId|contract|from|to`): the provider may have no bar at a trade's
   * minute (a thin contract, a history it does not keep), and asking again at every sync would only spend its limits.
   */
  asked: Set<string>;
  onRequest?: (done: number, total: number) => Promise<void>;
  signal?: AbortSignal;
}

/** Fetches and stores the bars the trades of `accountIds` lack (at most BAR_REQUESTS_PER_SYNC requests). */
export async function fetchMissingBars(options: FetchBarsOptions): Promise<BarsOutcome> {
  const { database, userId, session } = options;
  const keyOf = (need: Need) => `${userId}|${options.source}|${need.contract}|${need.span.from}|${need.span.to}`;
  const needs = (await barsNeeded(database, userId, options.source, options.accountIds)).filter((need) => !options.asked.has(keyOf(need)));
  const outcome: BarsOutcome = { added: 0, requests: 0, deferred: Math.max(0, needs.length - BAR_REQUESTS_PER_SYNC), unknown: [] };
  const chosen = needs.slice(0, BAR_REQUESTS_PER_SYNC);
  // The provider's id of each journal contract: from the contracts this sync described, else looked up by name.
  const providerIds = new Map<string, string | null>();
  for (const [contractId, contract] of options.described) providerIds.set(contractSpecOf(contractId, contract).contract, contractId);
  const providerIdOf = async (contract: string): Promise<string | null> => {
    if (!providerIds.has(contract)) {
      const found = await session.findContract(contract);
      providerIds.set(contract, found?.id ?? null);
      if (!found) outcome.unknown.push(contract);
    }
    return providerIds.get(contract) ?? null;
  };
  for (const [i, need] of chosen.entries()) {
    options.signal?.throwIfAborted();
    const contractId = await providerIdOf(need.contract);
    if (contractId !== null) {
      const bars = await session.fetchBars(contractId, { from: new Date(need.span.from), to: new Date(need.span.to) });
      outcome.requests += 1;
      outcome.added += await storeBars(database, userId, options.source, need.contract, bars);
    }
    options.asked.add(keyOf(need));
    await options.onRequest?.(i + 1, chosen.length);
  }
  return outcome;
}
