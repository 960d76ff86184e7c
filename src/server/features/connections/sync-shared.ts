import type { SyncOutcome } from '../../../contract/connections';
import { matchStoredRoundTrips, type ImportedTrade, type RoundTrip } from '../../../domain/importers';
import { ConnectorError } from '../../connectors/types';
import { isDatabaseUnavailable } from '../../db/unavailable';
import type { connectionsRepo, StoredRoundTrip } from './repo';
import { SecretUnreadable } from './secret-box';

/** What a futures broker's sync (sync.ts) and an exchange's (exchange-sync.ts) share. */

export type SyncTrigger = SyncOutcome['trigger'];

/** A sync that said nothing for this long is gone (its process died): the connection is no longer shown as syncing. */
export const SYNC_STALE_MS = 3 * 60_000;
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
