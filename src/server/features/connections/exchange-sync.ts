import { sql } from 'drizzle-orm';
import { addDays, formatDay, getTodayInZone } from '../../../domain/dates';
import { attributeFunding, fundingCents } from '../../../domain/connections/funding';
import { perpetualRoundTrips, type PerpetualFill, type PerpetualSpec, type PerpetualTripsResult } from '../../../domain/connections/perpetual-trips';
import type { FlatPoints } from '../../../domain/connections/round-trips';
import { syncStartOf } from '../../../domain/connections/sync-window';
import { resultOf } from '../../../domain/fills';
import { perpetualContract, perpetualOf, type PerpetualVenue, type SettlementCurrency } from '../../../domain/instruments';
import { Decimal, centsToDecimalString, toCents } from '../../../domain/money';
import type { TradingDayRule } from '../../../domain/market-time';
import type { ExchangeProviderId } from '../../../contract/connections';
import type { ExchangeFill, ExchangeFunding, ExchangeInstrument, ExchangeSession } from '../../connectors/exchanges';
import type { Database } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import type { Logger } from '../../logger';
import { toFillRecords, toTradeRow } from '../../core/parse/convert';
import { writeTrades, type TradeWriter } from '../../core/trades/write';
import { preferencesIn } from '../../core/preferences/repo';
import { barsNeeded, BAR_REQUESTS_PER_SYNC, storeBars } from './bars';
import { exchangeRepo, type StoredFunding } from './exchange-repo';
import { currencyOfBrokerAccount, exchangeCredentialsOf } from './logins';
import type { ConnectorRegistry } from './registry';
import { connectionsRepo, type BrokerAccountRow, type StoredRoundTrip } from './repo';
import { secretBinding, type SecretBox } from './secret-box';
import { accountAsRead, DEFAULT_HISTORY_DAYS, runSync, splitStored, type SyncTrigger } from './sync-shared';
import type { ImportedTrade } from '../../../domain/importers';

/**
 * A sync of one crypto exchange connection: the same guarantees as a futures broker's (sync.ts): every mapped account's
 * new fills and funding payments read off the request path under the connection's lock, then stored with the round
 * trips they complete in ONE transaction, or nothing at all; a trade the journal holds already (synced, or imported
 * from the exchange's own export) is not stored twice. What differs: fills are per symbol and position side (one-way or
 * hedge mode, domain/connections/perpetual-trips.ts), money is in the account's settlement currency, and funding
 * payments are entries of their own that count in the trade open when they were paid (domain/connections/funding.ts).
 */

/** Where trades from an exchange connection come from, as imports name their formats ('binance-api'). */
export const exchangeSource = (provider: ExchangeProviderId) => `${provider}-api`;
/** The next fetch reads the last 10 minutes again: a fill the exchange recorded late is still found (ids dedupe it). */
const OVERLAP_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

export interface ExchangeSyncDeps {
  database: Database;
  logger: Logger;
  box: SecretBox;
  registry: ConnectorRegistry;
  shutdown?: AbortSignal;
  /** Bar spans already asked for in this process (the exchange may have none at a trade's minute). */
  barsAsked: Set<string>;
}

interface Plan {
  account: BrokerAccountRow;
  accountId: string;
  currency: SettlementCurrency;
  syncFrom: string;
  from: Date;
  to: Date;
  fills: ExchangeFill[];
  funding: StoredFunding[];
  built?: PerpetualTripsResult;
}

export function createExchangeSync(deps: ExchangeSyncDeps) {
  const { database, logger, box, registry } = deps;

  async function run(userId: string, connectionId: string, trigger: SyncTrigger, startedAt: Date): Promise<void> {
    const signal = deps.shutdown;
    await runSync({ database, logger, userId, connectionId, trigger, startedAt, kind: 'exchange', label: 'The exchange' }, async (run) => {
      const { report, warnings } = run;
      const plans: Plan[] = [];
      const loaded = await database.withUser(userId, async (tx) => {
        const connection = await connectionsRepo(tx, userId).find(connectionId);
        return connection ? { connection, preferences: await preferencesIn(tx, userId) } : null;
      });
      if (!loaded) return null;
      const { connection, preferences } = loaded;
      const provider = connection.provider as ExchangeProviderId;
      const connector = registry.exchange(provider);
      run.label = connector.label;
      const { label } = run;
      // Where this exchange's bars are kept: the API the connection speaks to now (its address may have moved).
      if (connection.barSource !== connector.barSource) {
        await database.withUser(userId, (tx) => connectionsRepo(tx, userId).update(connectionId, { barSource: connector.barSource }));
      }
      const rule = preferences.tradingDay as TradingDayRule;
      const opened = box.open(connection.secret, secretBinding(connection.id, userId));
      const session = await connector.connect(exchangeCredentialsOf(connection.userName, opened), { signal });
      await report({ phase: 'accounts' });
      const listed = await session.listAccounts();
      const accounts = await database.withUser(userId, async (tx) => {
        const repo = connectionsRepo(tx, userId);
        await repo.rememberAccounts(connectionId, listed);
        return repo.accounts(connectionId);
      });
      const listedIds = new Set(listed.map((a) => a.externalId));

      const now = new Date();
      const today = getTodayInZone(now, preferences.timeZone);
      const oldest = now.getTime() - connector.historyDays * DAY_MS;
      for (const account of accounts) {
        if (account.accountId === null) continue;
        if (!listedIds.has(account.externalId)) {
          warnings.push(`${label} no longer lists ${account.name}: nothing new comes from it.`);
          continue;
        }
        const syncFrom = account.syncFrom ?? addDays(today, -DEFAULT_HISTORY_DAYS);
        // A perpetual trades around the clock: its day starts at midnight, whatever the trading-day setting.
        const start = syncStartOf(syncFrom, 'calendar');
        if (account.fetchedUntil === null && start.getTime() < oldest) {
          warnings.push(
            `${label} keeps ${connector.historyDays} days of fills: ${account.name} is read from ${formatDay(addDays(today, -connector.historyDays), 'MMM d, yyyy')}, not ${formatDay(syncFrom, 'MMM d, yyyy')}. Import its trade-history export for older trades.`,
          );
        }
        const from = account.fetchedUntil ? new Date(Math.max(Date.parse(account.fetchedUntil) - OVERLAP_MS, start.getTime())) : start;
        const currency = currencyOfBrokerAccount(provider, account.externalId);
        if (currency === 'USD') continue;
        plans.push({ account, accountId: account.accountId, currency, syncFrom, from, to: now, fills: [], funding: [] });
        run.accounts.push(account.id);
      }

      await report({ phase: 'fills', accounts_total: plans.length }, true);
      const instruments = await session.instruments();
      for (const [i, plan] of plans.entries()) {
        await report({ account_name: plan.account.name, accounts_done: i, windows_done: 0, windows_total: 0 });
        const known = await database.withUser(userId, (tx) => exchangeRepo(tx, userId).knownSymbols(plan.account.id));
        const read = await session.fetchFills(plan.currency, { from: plan.from, to: plan.to }, known, {
          onRequest: (done, total) => report({ windows_done: done, windows_total: total, fills: countFills(plans) }),
        });
        warnings.push(...read.notes);
        const { specs, skipped } = specsOf(read.fills, instruments, connector.venue, plan.currency);
        for (const note of skipped) warnings.push(`${plan.account.name}: ${note}`);
        plan.fills = read.fills.filter((fill) => specs.has(fill.symbol));
        plan.funding = fundingOf(
          await session.fetchFunding(plan.currency, { from: plan.from, to: plan.to }),
          instruments,
          connector.venue,
          plan.currency,
        );
        await report({ fills: countFills(plans) });
      }
      await report({ accounts_done: plans.length });

      // The fills stored after each position's flat point, with those just read; then the round trips.
      for (const plan of plans) {
        const flat = plan.account.flatPoints as FlatPoints;
        const byId = new Map<string, PerpetualFill>();
        for (const fill of await database.withUser(userId, (tx) => exchangeRepo(tx, userId).fillsAfter(plan.account.id, flat)))
          byId.set(fill.id, fill);
        for (const fill of plan.fills) byId.set(fill.id, fill);
        const merged = [...byId.values()];
        const { specs } = specsOf(merged, instruments, connector.venue, plan.currency);
        plan.built = perpetualRoundTrips(
          merged.filter((fill) => specs.has(fill.symbol)),
          flat,
          specs,
          { tradingDay: rule },
        );
        if (plan.built.orphans > 0) {
          warnings.push(
            `${plan.built.orphans} ${plan.built.orphans === 1 ? 'fill' : 'fills'} of ${plan.account.name} closed positions opened before ${formatDay(plan.syncFrom, 'MMM d, yyyy')}: those positions are not in the journal (import them from ${label}'s export, or sync from an earlier day).`,
          );
        }
        for (const issue of plan.built.issues) warnings.push(`${plan.account.name}: ${issue.message}`);
        const elsewhere = new Map<string, Decimal>();
        let tradesWith = 0;
        for (const trip of plan.built.trips) {
          const assets = Object.entries(trip.otherFees);
          if (assets.length > 0) tradesWith += 1;
          for (const [asset, amount] of assets) elsewhere.set(asset, (elsewhere.get(asset) ?? new Decimal(0)).plus(amount));
        }
        if (elsewhere.size > 0) {
          const amounts = [...elsewhere].map(([asset, amount]) => `${amount.toFixed()} ${asset}`).join(', ');
          warnings.push(
            `Fees of ${tradesWith} ${tradesWith === 1 ? 'trade' : 'trades'} of ${plan.account.name} were charged in another asset (${amounts}): they are kept with the fills and not counted in its ${plan.currency} P&L, as Edgebook does not convert between assets.`,
          );
        }
      }

      await report({ phase: 'saving', fills: countFills(plans) }, true);
      signal?.throwIfAborted();
      const source = exchangeSource(provider);
      const results = await writeTrades(database, userId, async (writer) => {
        const repo = connectionsRepo(writer.tx, userId);
        const exchange = exchangeRepo(writer.tx, userId);
        for (const accountId of [...new Set(plans.map((p) => p.accountId))].sort()) await lockFor(writer.tx, 'account_imports', accountId);
        const out: Array<{ added: number; duplicates: number; openPositions: number; funding: number }> = [];
        for (const plan of plans) {
          const built = plan.built!;
          const current = await accountAsRead(repo, connectionId, plan);
          if (!current) {
            out.push({ added: 0, duplicates: 0, openPositions: 0, funding: 0 });
            continue;
          }
          await exchange.storeFills(current.id, plan.fills, writer);
          await exchange.storeFunding(current.id, plan.funding);
          const trades = built.trips.map((trip) => trip.trade);
          const { fresh, known } = await splitStored(repo, plan.accountId, trades);
          const inserted = await writer.insert(
            fresh.map((trade) => ({ ...toTradeRow(trade, plan.accountId, source), fills: trade.fills ? toFillRecords(trade.fills) : null })),
            { skipKnownKeys: true },
          );
          await refineFromExchange(writer, known, source);
          await countFunding(writer, plan);
          await repo.updateAccount(current.id, {
            fetchedUntil: plan.to.toISOString(),
            flatPoints: built.flat,
            lastSyncAt: sql`now()`,
            lastSyncAdded: inserted.length,
            lastSyncStatus: 'ok',
            lastError: null,
          });
          out.push({
            added: inserted.length,
            duplicates: trades.length - inserted.length,
            openPositions: built.openPositions.length,
            funding: plan.funding.length,
          });
        }
        await repo.update(connectionId, { status: 'connected', lastError: null, lastSyncAt: sql`now()`, keyWarning: session.keyWarning });
        return out;
      });

      for (const plan of plans) {
        const alone = await database.withUser(userId, (tx) => exchangeRepo(tx, userId).fundingLeftAlone(plan.account.id));
        for (const { asset, count, amount } of alone) {
          warnings.push(
            `${count} funding ${count === 1 ? 'payment' : 'payments'} of ${plan.account.name} (${new Decimal(amount).toFixed()} ${asset}) ${count === 1 ? 'counts' : 'count'} in no trade yet: ${asset === plan.currency ? 'paid on a position still open, opened before the first synced day, or on one of two positions open at once that the exchange does not tell apart' : `paid in ${asset}, which is not the account's currency`}.`,
          );
        }
      }

      const bars = await run.fetchBars(() =>
        fetchExchangeBars(userId, session, connector.venue, connector.barSource, instruments, plans, warnings, (done, total) =>
          report({ windows_done: done, windows_total: total }),
        ),
      );
      return {
        added: results.reduce((n, r) => n + r.added, 0),
        duplicates: results.reduce((n, r) => n + r.duplicates, 0),
        fills: plans.reduce((n, p) => n + p.fills.length, 0),
        open_positions: results.reduce((n, r) => n + r.openPositions, 0),
        bars,
        funding: results.reduce((n, r) => n + r.funding, 0),
      };
    });
  }

  /**
   * The account's payments that count in no trade yet, given to the trade open when each was paid (the domain's rule);
   * then each trade they went to counts its payments: funding = their sum, net P&L = gross - commission + funding.
   */
  async function countFunding(writer: TradeWriter, plan: Plan) {
    const exchange = exchangeRepo(writer.tx, writer.userId);
    const pending = await exchange.unattributedFunding(plan.account.id, plan.currency);
    if (pending.length === 0) return;
    const times = pending.map((p) => p.time);
    const candidates = await exchange.tradesOpenBetween(
      plan.accountId,
      [...new Set(pending.map((p) => p.contract))],
      Math.min(...times),
      Math.max(...times),
    );
    const pairs = attributeFunding(pending, candidates);
    await exchange.attribute(plan.account.id, pairs);
    for (const trade of await exchange.fundedTrades([...new Set(pairs.values())], plan.currency)) {
      const funding = fundingCents(trade.amounts);
      const before = trade.grossPnl !== null ? toCents(trade.grossPnl) - toCents(trade.commission) : toCents(trade.pnl);
      const pnl = before + funding;
      await writer.update(trade.id, { funding: centsToDecimalString(funding), pnl: centsToDecimalString(pnl), status: resultOf(pnl) });
    }
  }

  /**
   * One-minute bars of the exchange for the trades of the synced accounts that lack them, from the exchange's own public
   * klines (never another exchange's prices), kept under the exchange's source and the journal's contract: provider
   * bars, read by the traders connected to that exchange, never mixed with a trader's own uploads.
   */
  async function fetchExchangeBars(
    userId: string,
    session: ExchangeSession,
    venue: PerpetualVenue,
    source: string,
    instruments: ReadonlyMap<string, ExchangeInstrument>,
    plans: Plan[],
    warnings: string[],
    onRequest: (done: number, total: number) => Promise<void>,
  ): Promise<number> {
    const symbolOf = new Map<string, string>();
    for (const instrument of instruments.values()) {
      if (instrument.kind === 'perpetual' && instrument.settle)
        symbolOf.set(perpetualContract(venue, instrument.base, instrument.settle), instrument.symbol);
    }
    const keyOf = (contract: string, from: number, to: number) => `${userId}|${source}|${contract}|${from}|${to}`;
    const needs = (await barsNeeded(database, userId, source, [...new Set(plans.map((p) => p.accountId))]))
      .filter((need) => perpetualOf(need.contract)?.venue === venue && symbolOf.has(need.contract))
      .filter((need) => !deps.barsAsked.has(keyOf(need.contract, need.span.from, need.span.to)));
    const chosen = needs.slice(0, BAR_REQUESTS_PER_SYNC);
    if (needs.length > chosen.length)
      warnings.push('Price bars of older trades are read by the next syncs (the exchange allows only so many requests at a time).');
    let added = 0;
    for (const [i, need] of chosen.entries()) {
      deps.shutdown?.throwIfAborted();
      const bars = await session.fetchBars(symbolOf.get(need.contract)!, { from: new Date(need.span.from), to: new Date(need.span.to) });
      added += await storeBars(database, userId, source, need.contract, bars);
      deps.barsAsked.add(keyOf(need.contract, need.span.from, need.span.to));
      await onRequest(i + 1, chosen.length);
    }
    return added;
  }

  return { run };
}

function countFills(plans: Plan[]): number {
  return plans.reduce((n, p) => n + p.fills.length, 0);
}

/**
 * How the journal files each symbol of these fills: the exchange's linear perpetuals settling in the account's currency.
 * Coin-margined (inverse) and dated contracts are not read yet, and say so.
 */
function specsOf(
  fills: ReadonlyArray<{ symbol: string }>,
  instruments: ReadonlyMap<string, ExchangeInstrument>,
  venue: PerpetualVenue,
  currency: SettlementCurrency,
): { specs: Map<string, PerpetualSpec>; skipped: string[] } {
  const specs = new Map<string, PerpetualSpec>();
  const skipped = new Set<string>();
  for (const symbol of new Set(fills.map((f) => f.symbol))) {
    const instrument = instruments.get(symbol);
    if (!instrument) skipped.add(`the exchange no longer describes ${symbol}: its fills are kept and wait until it does.`);
    else if (instrument.kind === 'inverse' || instrument.settle === null)
      skipped.add(`${symbol} is a coin-margined (inverse) contract, which Edgebook does not support yet: its fills are not read.`);
    else if (instrument.kind === 'dated') skipped.add(`${symbol} is a dated futures contract, which Edgebook does not read yet (only perpetuals).`);
    else if (instrument.settle === currency)
      specs.set(symbol, { contract: perpetualContract(venue, instrument.base, currency), base: instrument.base.toUpperCase(), currency });
  }
  return { specs, skipped: [...skipped] };
}

function fundingOf(
  payments: readonly ExchangeFunding[],
  instruments: ReadonlyMap<string, ExchangeInstrument>,
  venue: PerpetualVenue,
  currency: SettlementCurrency,
): StoredFunding[] {
  return payments.flatMap((p) => {
    const instrument = instruments.get(p.symbol);
    if (!instrument || instrument.kind !== 'perpetual' || instrument.settle !== currency) return [];
    return [
      {
        externalId: p.id,
        contract: perpetualContract(venue, instrument.base, currency),
        time: p.time,
        amount: p.amount,
        asset: p.asset,
        positionSide: p.positionSide,
      },
    ];
  });
}

/**
 * A trade the account held from the exchange's export before the API reported it ends with the API's fills and their
 * times to the millisecond; what the trader wrote and the money stay as stored. A trade synced before keeps what it has.
 */
async function refineFromExchange(writer: TradeWriter, known: Array<{ trade: ImportedTrade; stored: StoredRoundTrip }>, source: string) {
  for (const { trade, stored } of known) {
    if (stored.importSource === source || !trade.fills || trade.fills.length === 0) continue;
    await writer.update(stored.id, { entryTime: trade.entryTime, exitTime: trade.exitTime });
    await writer.replaceFills(stored.id, toFillRecords(trade.fills));
  }
}
