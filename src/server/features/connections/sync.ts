import { sql } from 'drizzle-orm';
import { addDays, formatDay, getTodayInZone } from '../../../domain/dates';
import {
  contractSpecOf,
  roundTripsFromFills,
  type ContractSpec,
  type FlatPoints,
  type RoundTripsResult,
  type SyncedFill,
} from '../../../domain/connections/round-trips';
import { fetchWindows, syncStartOf } from '../../../domain/connections/sync-window';
import type { ImportedTrade } from '../../../domain/importers';
import type { TradingDayRule } from '../../../domain/market-time';
import { isExchangeProvider, type SyncOutcome } from '../../../contract/connections';
import { bracketStopOf, type OrderForStop } from '../../../domain/connections/bracket-stop';
import { ConnectorError, type BrokerContract, type BrokerFill, type BrokerOrder, type BrokerPosition } from '../../connectors/types';
import type { Database } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { describeError } from '../../http/error-log';
import type { Logger } from '../../logger';
import { toFillRecords, toTradeRow } from '../../core/parse/convert';
import { writeTrades, type TradeWriter } from '../../core/trades/write';
import { preferencesIn } from '../../core/preferences/repo';
import type { ConnectorRegistry } from './registry';
import { fetchMissingBars } from './bars';
import { createExchangeSync } from './exchange-sync';
import { connectionsRepo, type BrokerAccountRow, type StoredRoundTrip } from './repo';
import { secretBinding, type SecretBox } from './secret-box';
import { accountAsRead, DEFAULT_HISTORY_DAYS, runSync, splitStored, SYNC_STARTING, type SyncTrigger } from './sync-shared';

/**
 * A sync of one connection: read every mapped account's new fills from the provider, then store them and
 * the round trips they complete in ONE transaction. The reading can take minutes (the provider's rate limits, a slow
 * gateway), so it runs off the request path, outside any transaction, under a lock that every server process
 * respects (one sync of a connection at a time); the trader follows its progress, kept on the connection's row. Any
 * failure before the commit leaves the journal as it was: nothing partial is stored.
 */

/** Where trades from a connection come from, as imports name their formats. */
export const SYNC_SOURCE = 'topstepx-api';
/** The next fetch reads the last 10 minutes again: a fill the provider recorded late is still found (ids dedupe it). */
const OVERLAP_MS = 10 * 60_000;
/** The lock a sync of a connection holds while it runs (Database.tryLock), whichever process runs it. */
export const SYNC_LOCK = 'broker_sync';

export interface SyncRunnerDeps {
  database: Database;
  logger: Logger;
  box: SecretBox;
  registry: ConnectorRegistry;
  /** Aborted when the server shuts down: the sync under way stops before its transaction. */
  shutdown?: AbortSignal;
  /** PROJECTX_SYNC_MINUTES: a scheduled sync of a connection synced more recently than this is skipped. */
  scheduleMinutes: number;
}

export interface SyncRunner {
  /** Starts a sync unless one is under way (in this process or another): 'running' then. */
  start(userId: string, connectionId: string, trigger: SyncTrigger): Promise<'started' | 'running'>;
  /** The sync this process runs for the connection, if any (tests wait for it). */
  current(connectionId: string): Promise<void> | undefined;
  /** Waits for every sync this process runs. */
  idle(): Promise<void>;
}

interface AccountPlan {
  account: BrokerAccountRow;
  accountId: string;
  syncFrom: string;
  from: Date;
  to: Date;
  fills: BrokerFill[];
  /** The account's orders in the same windows (a bracket's stop gives a trade its plan); null when they could not be read. */
  orders: BrokerOrder[] | null;
  /** The positions open now; null when they could not be read. */
  positions: BrokerPosition[] | null;
  built?: RoundTripsResult;
}

interface AccountResult {
  added: number;
  duplicates: number;
  openPositions: number;
}

export function createSyncRunner(deps: SyncRunnerDeps): SyncRunner {
  const { database, logger, box, registry } = deps;
  const running = new Map<string, Promise<void>>();
  // Contracts do not change: described once per process, by provider and id.
  const described = new Map<string, BrokerContract | null>();
  const barsAsked = new Set<string>();
  const exchanges = createExchangeSync({ database, logger, box, registry, shutdown: deps.shutdown, barsAsked });

  async function run(userId: string, connectionId: string, trigger: SyncTrigger, startedAt: Date): Promise<void> {
    const signal = deps.shutdown;
    await runSync(
      { database, logger, userId, connectionId, trigger, startedAt, kind: 'broker', label: registry.get('topstepx').label },
      async (run) => {
        const { report, warnings } = run;
        const plans: AccountPlan[] = [];
        const loaded = await database.withUser(userId, async (tx) => {
          const repo = connectionsRepo(tx, userId);
          const connection = await repo.find(connectionId);
          return connection ? { connection, accounts: await repo.accounts(connectionId), preferences: await preferencesIn(tx, userId) } : null;
        });
        if (!loaded) return null;
        const { connection, preferences } = loaded;
        const rule = preferences.tradingDay as TradingDayRule;
        const apiKey = box.open(connection.secret, secretBinding(connection.id, userId));
        const connector = registry.get(connection.provider as 'topstepx', connection.firm);
        run.label = connector.label;
        // Where this firm's bars are kept: the gateway the connection speaks to now (PROJECTX_API_URL may have moved).
        if (connection.barSource !== connector.barSource) {
          await database.withUser(userId, (tx) => connectionsRepo(tx, userId).update(connectionId, { barSource: connector.barSource }));
        }
        const session = await connector.connect({ userName: connection.userName, apiKey }, { signal });
        await report({ phase: 'accounts' });
        const listed = await session.listAccounts();
        await database.withUser(userId, (tx) => connectionsRepo(tx, userId).rememberAccounts(connectionId, listed));
        const listedIds = new Set(listed.map((a) => a.externalId));
        const accounts = await database.withUser(userId, (tx) => connectionsRepo(tx, userId).accounts(connectionId));

        const now = new Date();
        const today = getTodayInZone(now, preferences.timeZone);
        for (const account of accounts) {
          if (account.accountId === null) continue;
          if (!listedIds.has(account.externalId)) {
            warnings.push(`${connector.label} no longer lists ${account.name}: nothing new comes from it.`);
            continue;
          }
          const syncFrom = account.syncFrom ?? addDays(today, -DEFAULT_HISTORY_DAYS);
          const start = syncStartOf(syncFrom, rule);
          const from = account.fetchedUntil ? new Date(Math.max(Date.parse(account.fetchedUntil) - OVERLAP_MS, start.getTime())) : start;
          plans.push({ account, accountId: account.accountId, syncFrom, from, to: now, fills: [], orders: [], positions: null });
          run.accounts.push(account.id);
        }
        const windowsOf = plans.map((plan) => fetchWindows(plan.from, plan.to));
        await report({ phase: 'fills', accounts_total: plans.length, windows_total: windowsOf.reduce((n, w) => n + w.length, 0) }, true);
        let windowsDone = 0;
        for (const [i, plan] of plans.entries()) {
          await report({ account_name: plan.account.name, accounts_done: i });
          for (const window of windowsOf[i]!) {
            plan.fills.push(...(await session.fetchFills(plan.account.externalId, window)));
            // The orders of the same window: what a trade's planned stop is read from. Not having them loses no trade.
            if (plan.orders) {
              try {
                plan.orders.push(...(await session.fetchOrders(plan.account.externalId, window)));
              } catch (error) {
                if (!(error instanceof ConnectorError) || error.kind === 'aborted') throw error;
                plan.orders = null;
                warnings.push(
                  `${connector.label} did not give the orders of ${plan.account.name} (${error.message}): its new trades have no planned stop from their stop orders.`,
                );
              }
            }
            await report({ windows_done: ++windowsDone, fills: sumBefore(plans, i) + plan.fills.length });
          }
          try {
            plan.positions = await session.openPositions(plan.account.externalId);
          } catch (error) {
            if (!(error instanceof ConnectorError) || error.kind === 'aborted') throw error;
            warnings.push(`${connector.label} did not say which positions of ${plan.account.name} are open (${error.message}).`);
          }
        }
        await report({ accounts_done: plans.length });
        // Windows share their ends (and the next sync re-reads the last minutes): a fill read twice is one fill.
        for (const plan of plans) plan.fills = [...new Map(plan.fills.map((fill) => [fill.externalId, fill])).values()];

        // The fills stored after each contract's flat point, with those just read (a fill read again wins: it may have
        // been voided since).
        const merged = new Map<AccountPlan, SyncedFill[]>();
        for (const plan of plans) {
          const byId = new Map<string, SyncedFill>();
          const flat = plan.account.flatPoints as FlatPoints;
          for (const fill of await database.withUser(userId, (tx) => connectionsRepo(tx, userId).fillsAfter(plan.account.id, flat)))
            byId.set(fill.id, fill);
          for (const fill of plan.fills) byId.set(fill.externalId, { ...fill, id: fill.externalId });
          merged.set(plan, [...byId.values()]);
        }

        // Every contract the build will meet, described by the provider (tick value / tick size is the point value).
        const specs = new Map<string, ContractSpec>();
        const contractIds = new Set([...merged.values()].flatMap((fills) => fills.map((fill) => fill.contractId)));
        for (const contractId of contractIds) {
          const key = `${connection.provider}|${contractId}`;
          if (!described.has(key)) described.set(key, await session.contract(contractId));
          const contract = described.get(key) ?? null;
          specs.set(contractId, contractSpecOf(contractId, contract));
          if (!contract)
            warnings.push(`${connector.label} does not describe ${contractId}: its point value comes from Edgebook's table of contracts.`);
        }

        // Round trips are built before the transaction: the sync lock keeps any other sync from storing fills meanwhile,
        // and the transaction only stores (on PGlite, one connection, it holds every other request while it runs).
        for (const plan of plans) {
          const flat = plan.account.flatPoints as FlatPoints;
          plan.built = roundTripsFromFills(merged.get(plan)!, flat, specs, { tradingDay: rule });
          if (plan.built.orphans > 0) {
            warnings.push(
              `${plan.built.orphans} ${plan.built.orphans === 1 ? 'fill' : 'fills'} of ${plan.account.name} closed positions opened before ${formatDay(plan.syncFrom, 'MMM d, yyyy')}: those positions are not in the journal (import them from the CSV export, or sync from an earlier day).`,
            );
          }
          for (const issue of plan.built.issues) warnings.push(`${plan.account.name}: ${issue.message}`);
        }

        await report({ phase: 'saving' }, true);
        signal?.throwIfAborted();
        const results = await writeTrades(database, userId, async (writer) => {
          const repo = connectionsRepo(writer.tx, userId);
          // One import or sync at a time into a trading account (the imports' lock): the duplicate check below then sees
          // what an export imported at the same moment stored.
          for (const accountId of [...new Set(plans.map((p) => p.accountId))].sort()) await lockFor(writer.tx, 'account_imports', accountId);
          const out: AccountResult[] = [];
          for (const plan of plans) {
            const built = plan.built!;
            const current = await accountAsRead(repo, connectionId, plan);
            if (!current) {
              out.push({ added: 0, duplicates: 0, openPositions: 0 });
              continue;
            }
            await repo.storeFills(current.id, plan.fills, writer);
            const { fresh, known } = await splitStored(repo, plan.accountId, built.trades);
            // A new trade's planned stop is its bracket's: the first protective stop order placed with it.
            const orders = ordersForStops(plan.orders ?? [], specs);
            const stops = new Map(fresh.map((trade) => [trade.importKey, bracketStopOf(trade, orders)]));
            // A synced trade keeps the gateway's own fills (its executions, their times to the millisecond).
            const inserted = await writer.insert(
              fresh.map((trade) => ({
                ...toTradeRow(trade, plan.accountId, SYNC_SOURCE),
                stopPrice: stops.get(trade.importKey)?.stopPrice ?? null,
                fills: trade.fills ? toFillRecords(trade.fills) : null,
              })),
              { skipKnownKeys: true },
            );
            await repo.storeStops(
              inserted.flatMap(({ id, importKey }) => {
                const stop = importKey === null ? null : stops.get(importKey);
                return stop
                  ? [{ tradeId: id, orderId: stop.orderId, stopPrice: stop.stopPrice, placedAt: new Date(stop.placedAt).toISOString() }]
                  : [];
              }),
            );
            await refineFromGateway(writer, known);
            const added = inserted.length;
            await repo.updateAccount(current.id, {
              fetchedUntil: plan.to.toISOString(),
              flatPoints: built.flat,
              lastSyncAt: sql`now()`,
              lastSyncAdded: added,
              lastSyncStatus: 'ok',
              lastError: null,
              ...(plan.positions && { openPositions: positionsDto(plan.positions, specs), positionsReadAt: sql`now()` }),
            });
            out.push({ added, duplicates: built.trades.length - added, openPositions: built.openPositions.length });
          }
          await repo.update(connectionId, { status: 'connected', lastError: null, lastSyncAt: sql`now()` });
          return out;
        });

        // The trades are stored; the bars their replay lacks come after, each contract's in a transaction of its own
        // (market data, right on their own): a failure here leaves the trades and the bars stored so far, and the next
        // sync asks for what is still missing.
        // The trades are stored; the bars their replay lacks come after, each contract's in a transaction of its own
        // (market data, right on their own): a failure here leaves the trades and the bars stored so far, and the next
        // sync asks for what is still missing.
        const bars = await run.fetchBars(async () => {
          const fetched = await fetchMissingBars({
            database,
            userId,
            session,
            source: connector.barSource,
            accountIds: [...new Set(plans.map((p) => p.accountId))],
            described: new Map(
              [...described]
                .filter(([key]) => key.startsWith(`${connection.provider}|`))
                .map(([key, contract]) => [key.slice(connection.provider.length + 1), contract]),
            ),
            asked: barsAsked,
            onRequest: (done, total) => report({ windows_done: done, windows_total: total }),
            signal,
          });
          if (fetched.deferred > 0)
            warnings.push(`Price bars of older trades are read by the next syncs (${connector.label} allows only so many requests at a time).`);
          for (const contract of fetched.unknown)
            warnings.push(`${connector.label} has no price bars of ${contract}: its trades replay once bars of it are added.`);
          return fetched.added;
        });
        return {
          added: results.reduce((n, r) => n + r.added, 0),
          duplicates: results.reduce((n, r) => n + r.duplicates, 0),
          fills: plans.reduce((n, p) => n + p.fills.length, 0),
          open_positions: results.reduce((n, r) => n + r.openPositions, 0),
          bars,
        };
      },
    );
  }

  /** Another process may have synced it between the scheduler's look and this lock. */
  async function syncedRecently(userId: string, connectionId: string): Promise<boolean> {
    const connection = await database.withUser(userId, (tx) => connectionsRepo(tx, userId).find(connectionId));
    const finished = (connection?.lastOutcome as SyncOutcome | null)?.finished_at;
    return finished !== undefined && Date.now() - Date.parse(finished) < deps.scheduleMinutes * 60_000 - 5_000;
  }

  return {
    async start(userId, connectionId, trigger) {
      if (running.has(connectionId)) return 'running';
      const release = await database.tryLock(SYNC_LOCK, connectionId);
      if (!release) return 'running';
      const startedAt = new Date();
      let job: Promise<void>;
      try {
        if (trigger === 'schedule' && (await syncedRecently(userId, connectionId))) {
          await release();
          return 'running';
        }
        const marked = await database.withUser(userId, (tx) =>
          connectionsRepo(tx, userId).update(connectionId, {
            syncStartedAt: startedAt.toISOString(),
            syncHeartbeatAt: startedAt.toISOString(),
            syncProgress: SYNC_STARTING,
          }),
        );
        if (!marked) {
          await release();
          return 'running';
        }
        // A crypto exchange's connection syncs its own way (perpetuals, funding): exchange-sync.ts.
        const provider = (await database.withUser(userId, (tx) => connectionsRepo(tx, userId).find(connectionId)))?.provider ?? '';
        job = isExchangeProvider(provider) ? exchanges.run(userId, connectionId, trigger, startedAt) : run(userId, connectionId, trigger, startedAt);
      } catch (error) {
        await release();
        throw error;
      }
      const tracked = job
        .catch((error: unknown) => logger.error({ connection: connectionId, error: describeError(error) }, 'broker sync crashed'))
        .finally(async () => {
          running.delete(connectionId);
          await release();
        });
      running.set(connectionId, tracked);
      return 'started';
    },
    current: (connectionId) => running.get(connectionId),
    idle: async () => {
      await Promise.all([...running.values()]);
    },
  };
}

/** The orders as the stop rule reads them, under the journal's names of their contracts. */
function ordersForStops(orders: readonly BrokerOrder[], specs: ReadonlyMap<string, ContractSpec>): OrderForStop[] {
  return orders.map((order) => ({
    id: order.externalId,
    contract: (specs.get(order.contractId) ?? contractSpecOf(order.contractId, null)).contract,
    placedAt: Date.parse(order.createdAt),
    type: order.type,
    side: order.side,
    stopPrice: order.stopPrice,
  }));
}

/** Open positions as the connection's account shows them, under the journal's names of their contracts. */
function positionsDto(positions: readonly BrokerPosition[], specs: ReadonlyMap<string, ContractSpec>) {
  return positions.map((p) => ({
    contract: (specs.get(p.contractId) ?? contractSpecOf(p.contractId, null)).contract,
    side: p.side,
    size: p.size,
    average_price: p.averagePrice,
    since: p.since,
  }));
}

/** Fills read so far before account `i` (progress counts every account's). */
function sumBefore(plans: AccountPlan[], i: number): number {
  let n = 0;
  for (let k = 0; k < i; k++) n += plans[k]!.fills.length;
  return n;
}

/**
 * A trade the account held from a file before the gateway reported it ends with the most precise data of both: the
 * gateway's fills (its real executions, where an export may split or merge them) and its times to the millisecond
 * (an export may give minutes only). What the trader wrote (notes, tags, plan, playbook) and the money stay as stored.
 * A trade synced before keeps what it has.
 */
async function refineFromGateway(writer: TradeWriter, known: Array<{ trade: ImportedTrade; stored: StoredRoundTrip }>) {
  for (const { trade, stored } of known) {
    if (stored.importSource === SYNC_SOURCE || !trade.fills || trade.fills.length === 0) continue;
    await writer.update(stored.id, { entryTime: trade.entryTime, exitTime: trade.exitTime });
    await writer.replaceFills(stored.id, toFillRecords(trade.fills));
  }
}
