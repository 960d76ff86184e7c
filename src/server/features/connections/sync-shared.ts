import { eq, sql } from 'drizzle-orm';
import type { SyncOutcome, SyncProgress } from '../../../contract/connections';
import { matchStoredRoundTrips, type ImportedTrade, type RoundTrip } from '../../../domain/importers';
import { ConnectorError } from '../../connectors/types';
import type { Database } from '../../db/client';
import { brokerConnections } from '../../db/schema';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { describeError } from '../../http/error-log';
import type { Logger } from '../../logger';
import { connectionsRepo, type BrokerAccountRow, type StoredRoundTrip } from './repo';
import { SecretUnreadable } from './secret-box';

/** What a futures broker's sync (sync.ts) and an exchange's (exchange-sync.ts) share: their frame, runSync, among it. */

export type SyncTrigger = SyncOutcome['trigger'];

/** A sync that said nothing for this long is gone (its process died): the connection is no longer shown as syncing. */
export const SYNC_STALE_MS = 3 * 60_000;
/** Progress is written at most this often, and at once when the phase changes. */
const PROGRESS_EVERY_MS = 500;
/** History read on a first sync when the trader chose no day. */
export const DEFAULT_HISTORY_DAYS = 30;

/**
 * The trades the account does not hold yet (`fresh`) and those it holds already (`known`, with the stored trade each
 * was found as): the two-export duplicate rule of the imports (matchStoredRoundTrips), so a trade imported from
 * TopstepX's CSV export before, or synced before, is not stored again. Keys the account already holds are left to the
 * unique index.
 */
export async function splitStored(
  repo: ReturnType<typeof connectionsRepo>,
  accountId: string,
  built: ImportedTrade[],
): Promise<{ fresh: ImportedTrade[]; known: Array<{ trade: ImportedTrade; stored: StoredRoundTrip }> }> {
  const timed = built.filter((t) => t.entryTime !== null);
  if (timed.length === 0) return { fresh: built, known: [] };
  const entries = timed.map((t) => Date.parse(t.entryTime!));
  const stored = await repo.roundTripsBetween(accountId, Math.min(...entries), Math.max(...entries));
  if (stored.length === 0) return { fresh: built, known: [] };
  const incoming: RoundTrip[] = built.map((t) => ({
    contract: t.contract,
    side: t.side,
    quantity: t.quantity?.toString() ?? null,
    entryPrice: t.entryPrice?.toString() ?? null,
    exitPrice: t.exitPrice?.toString() ?? null,
    entryTime: t.entryTime,
    exitTime: t.exitTime,
    minutePrecision: false,
  }));
  const matched = matchStoredRoundTrips(incoming, stored);
  return {
    fresh: built.filter((_, i) => !matched.has(i)),
    known: [...matched].map(([i, trip]) => ({ trade: built[i]!, stored: trip as StoredRoundTrip })),
  };
}

/** A failure in the trader's words. */
export function messageOf(error: unknown, label: string): string {
  if (error instanceof ConnectorError) return error.message;
  if (error instanceof SecretUnreadable)
    return `The saved API key can no longer be read (this server's AUTH_SECRET changed): enter your ${label} API key again.`;
  if (isDatabaseUnavailable(error)) return 'The database was not reachable during the sync.';
  return 'The sync failed on Edgebook’s side. Try again; if it keeps failing, tell whoever runs this Edgebook.';
}

/** A sync's progress as it starts. */
export const SYNC_STARTING: SyncProgress = {
  phase: 'signing-in',
  accounts_done: 0,
  accounts_total: 0,
  account_name: null,
  windows_done: 0,
  windows_total: 0,
  fills: 0,
};

/**
 * A connection's account as the sync read it before its transaction, or null when it was remapped, restarted from
 * another day or removed meanwhile (the next sync reads it afresh). Locks the row for the transaction.
 */
export async function accountAsRead(
  repo: ReturnType<typeof connectionsRepo>,
  connectionId: string,
  read: { account: BrokerAccountRow; accountId: string },
) {
  const current = await repo.account(connectionId, read.account.id, true);
  const same =
    current &&
    current.accountId === read.accountId &&
    current.syncFrom === read.account.syncFrom &&
    current.fetchedUntil === read.account.fetchedUntil;
  return same ? current : null;
}

/** What one sync tells its frame while it runs (runSync). */
export interface SyncRun {
  /** Progress for the connection's page: written at most every half second, at once with `force` or a new phase. */
  report(change: Partial<SyncProgress>, force?: boolean): Promise<void>;
  /** Notes for the trader, kept with the outcome (repeats dropped, the first 20). */
  readonly warnings: string[];
  /** The provider's name in the trader's messages, once the connection is read. */
  label: string;
  /** The connection's accounts this sync reads: each says the sync failed when it fails. */
  readonly accounts: string[];
  /**
   * The price bars of the stored trades, read after the trades are saved: a failure leaves the trades (and bars
   * stored so far), becomes a warning, and the next sync tries again. Answers the bars stored.
   */
  fetchBars(fetch: () => Promise<number>): Promise<number>;
}

/** What a sync that stored its trades counted (the outcome's figures). */
export type SyncCounts = Pick<SyncOutcome, 'added' | 'duplicates' | 'fills' | 'open_positions' | 'bars' | 'funding'>;

export interface SyncJob {
  database: Database;
  logger: Logger;
  userId: string;
  connectionId: string;
  trigger: SyncTrigger;
  startedAt: Date;
  /** 'broker' or 'exchange': how the log names this sync. */
  kind: string;
  /** The provider's name before the connection is read. */
  label: string;
}

/**
 * The frame of every sync, a futures broker's or an exchange's: progress and a heartbeat while it runs (a wait on the
 * provider's rate limits says nothing for a while, and a sync without a heartbeat is taken for one whose process
 * died), then its outcome on the connection: the counts when `sync` answers them, or the failure in the trader's words
 * ("Nothing was stored": a sync stores in one transaction or not at all), a refused or unreadable key marking the
 * connection until a new key is given. A sync that answers null (its connection is gone) records nothing.
 */
export async function runSync(job: SyncJob, sync: (run: SyncRun) => Promise<SyncCounts | null>): Promise<void> {
  const { database, logger, userId, connectionId, trigger, startedAt, kind } = job;
  let progress = SYNC_STARTING;
  let written = 0;
  const run: SyncRun = {
    async report(change, force = false) {
      const phaseChanged = change.phase !== undefined && change.phase !== progress.phase;
      progress = { ...progress, ...change };
      if (!force && !phaseChanged && Date.now() - written < PROGRESS_EVERY_MS) return;
      written = Date.now();
      await database.withUser(userId, (tx) =>
        connectionsRepo(tx, userId).update(connectionId, { syncProgress: progress, syncHeartbeatAt: sql`now()` }),
      );
    },
    warnings: [],
    label: job.label,
    accounts: [],
    async fetchBars(fetch) {
      try {
        await run.report({ phase: 'bars', windows_done: 0, windows_total: 0 }, true);
        return await fetch();
      } catch (error) {
        if (error instanceof ConnectorError)
          logger.warn({ connection: connectionId, user: userId, kind: error.kind, ...error.detail }, `${kind} bars failed`);
        else logger.error({ connection: connectionId, user: userId, error: describeError(error) }, `${kind} bars failed`);
        run.warnings.push(`The trades are saved, but their price bars could not be read: ${messageOf(error, run.label)} The next sync tries again.`);
        return 0;
      }
    },
  };
  const heartbeat = setInterval(() => void run.report({}, true).catch(() => undefined), SYNC_STALE_MS / 4);
  heartbeat.unref();
  let outcome: SyncOutcome;
  const finished = { trigger, started_at: startedAt.toISOString() };
  try {
    const counts = await sync(run);
    if (counts === null) return;
    outcome = {
      status: 'ok',
      message: null,
      ...finished,
      finished_at: new Date().toISOString(),
      ...counts,
      warnings: [...new Set(run.warnings)].slice(0, 20),
    };
    const { added, duplicates, fills, bars } = outcome;
    logger.info(
      { connection: connectionId, user: userId, trigger, provider: run.label, added, duplicates, fills, bars, ms: Date.now() - startedAt.getTime() },
      `${kind} sync done`,
    );
  } catch (error) {
    const message = `${messageOf(error, run.label)} Nothing was stored.`;
    if (error instanceof ConnectorError)
      logger.warn({ connection: connectionId, user: userId, kind: error.kind, ...error.detail }, `${kind} sync failed`);
    else if (!(error instanceof SecretUnreadable))
      logger.error({ connection: connectionId, user: userId, error: describeError(error) }, `${kind} sync failed`);
    outcome = {
      status: 'error',
      message,
      ...finished,
      finished_at: new Date().toISOString(),
      added: 0,
      duplicates: 0,
      fills: 0,
      open_positions: 0,
      bars: 0,
      warnings: [],
    };
    // A refused or unreadable key needs the trader: the connection says so until a new key is given.
    const credentialsFailed = error instanceof SecretUnreadable || (error instanceof ConnectorError && error.kind === 'credentials');
    await database
      .withUser(userId, async (tx) => {
        const repo = connectionsRepo(tx, userId);
        if (credentialsFailed) await repo.update(connectionId, { status: 'error', lastError: message });
        for (const account of run.accounts) await repo.updateAccount(account, { lastSyncStatus: 'error', lastError: message });
      })
      .catch(() => undefined);
  } finally {
    clearInterval(heartbeat);
  }
  await database
    .withUser(userId, (tx) =>
      tx
        .update(brokerConnections)
        .set({ lastOutcome: outcome, syncStartedAt: null, syncHeartbeatAt: null, syncProgress: null, updatedAt: sql`now()` })
        .where(eq(brokerConnections.id, connectionId)),
    )
    .catch((error: unknown) =>
      logger.warn({ connection: connectionId, error: describeError(error) }, `could not record the outcome of a ${kind} sync`),
    );
}
