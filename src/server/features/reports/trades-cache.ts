import { appendOrderedColumns, reserveRoom } from '../../../domain/reports/append-columns';
import { mergeOrderedColumns, patchOrderedColumns } from '../../../domain/reports/merge-columns';
import type { Database } from '../../db/client';
import { reportsRepo, type TradesSnapshot } from './repo';

/**
 * The trades the reports read, kept in this process's memory per trader (issue 26). A report needs most of a trader's
 * trades in trading order (streaks, drawdown, equity by trade) and any filter a trader can combine (hours in their
 * zone, hold times, tags): at 100,000 trades, reading them takes a grouped SQL query 50-150 ms on PGlite per pass and
 * the rows themselves about half a second, while the same figures over trades in memory take a few milliseconds. So
 * they are read once and kept until the trader's trades change, which the trade_versions row says in one indexed read
 * (bumped by triggers in the same transaction as every write, so every server process sees the change). After a
 * change, only the trades that changed since the copy's version are read (the triggers log them: trade_changes,
 * migration 0030) and appended after the copy's rows when they are new trades after its last (append-columns.ts),
 * patched into a copy that shares the columns they leave alone, or merged into new columns with room past their rows,
 * so that the next import of later trades is appended in place (merge-columns.ts); the patch and the merge find the
 * changed trades' rows by the copy's index of ids (column-room.ts), which the merge moves to the new rows: no row
 * of a copy handed out is ever written to (an append writes past its length only), so a report still reading it sees
 * one version. The whole set is read again only when the log no longer reaches back to the copy's version (a write of more
 * than 20,000 trades, or that many changes since) or the changes are most of it.
 *
 * Bounded: beyond MAX_CACHED_TRADES the traders read longest ago are dropped (a trader with 100,000 trades holds about
 * 18 MB here, in columns and their trading-order keys; up to half again as much once an append has made room for the
 * next), and a trader not read for IDLE_MS is dropped at the next read of anyone.
 */
const MAX_CACHED_TRADES = 400_000;
const IDLE_MS = 15 * 60_000;
/** The longest a write waits for the reports' copy to catch up with it (catchUp). */
const CATCH_UP_WAIT_MS = 250;

interface Entry extends TradesSnapshot {
  lastUsed: number;
}

class TradesCache {
  private readonly entries = new Map<string, Entry>();
  /** Loads under way, by trader and the version they were asked for: concurrent reports share one read. */
  private readonly loading = new Map<string, Promise<TradesSnapshot>>();

  constructor(private readonly database: Database) {}

  /** The trader's trades at `version` or newer: from memory, or read once however many reports ask at the same time. */
  async get(userId: string, version: number, now = Date.now()): Promise<TradesSnapshot> {
    const entry = this.entries.get(userId);
    if (entry && entry.version >= version) {
      entry.lastUsed = now;
      return entry;
    }
    const key = `${userId}:${version}`;
    let pending = this.loading.get(key);
    if (!pending) {
      // A transaction of its own, never one a caller holds open: PGlite runs one transaction at a time, and a report
      // waiting inside its transaction for another's load would wait for ever.
      pending = this.load(userId, entry);
      this.loading.set(key, pending);
      void pending.then(
        (snapshot) => {
          this.loading.delete(key);
          this.store(userId, snapshot, Date.now());
        },
        () => this.loading.delete(key),
      );
    }
    return pending;
  }

  /**
   * After a write of the trader's (issue 26): a copy held here is brought up to date before the write answers, so the
   * reports the trader opens next (the dashboard's R, the Reports page after an import) find it current instead of
   * merging the change first; the write waits for the few milliseconds of an append or a patch, the tens of a merge.
   * A trader without a copy here costs nothing more; one whose change needs a full read again (most of their trades
   * changed) waits at most CATCH_UP_WAIT_MS, the read going on for the report that will want it. A failure is the
   * report's to meet, not the write's.
   */
  async catchUp(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (!entry) return;
    const version = await this.database.withUser(userId, (tx) => reportsRepo(tx, userId).version());
    if (version <= entry.version) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CATCH_UP_WAIT_MS)));
    try {
      const current = await Promise.race([this.get(userId, version).then(() => true), waited.then(() => false)]);
      if (current) this.counts.caughtUp++;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The trader's trades now: the copy held brought up to date with what changed since, or all of them read again. */
  private async load(userId: string, base: TradesSnapshot | undefined): Promise<TradesSnapshot> {
    if (base && base.columns.size > 0) {
      const changes = await this.database.withUser(userId, (tx) => reportsRepo(tx, userId).loadChanges(base.version));
      // New trades after the last one (an import of the latest trades), however many: written after the copy's rows,
      // which stay as they are (append-columns.ts). Tried first: it costs what was added, and tells an edit apart
      // without a pass over every id.
      const appended = changes && appendOrderedColumns(base, changes.changed, changes.current);
      if (changes && appended) {
        this.counts.appended++;
        return { version: changes.version, ...appended };
      }
      // Changes to most of the trades: reading them all costs about what merging them would.
      if (changes && changes.changed.size <= base.columns.size / 2) {
        // Edits that leave every trade in its place change a few columns: copied alone, the rest shared with the copy
        // reports may still be reading. Anything else is merged into new columns.
        const patched = patchOrderedColumns(base, changes.changed, changes.current);
        if (patched) this.counts.patched++;
        else this.counts.merged++;
        return { version: changes.version, ...(patched ?? mergeOrderedColumns(base, changes.changed, changes.current)) };
      }
    }
    this.counts.read++;
    const { version, ...read } = await this.database.withUser(userId, (tx) => reportsRepo(tx, userId).loadTrades());
    // Room past the rows for the trades the trader adds next (append-columns.ts), made now rather than at the append.
    return { version, ...reserveRoom(read) };
  }

  private store(userId: string, snapshot: TradesSnapshot, now: number) {
    const current = this.entries.get(userId);
    if (current && current.version > snapshot.version) return;
    this.entries.set(userId, { ...snapshot, lastUsed: now });
    this.evict(now);
  }

  private evict(now: number) {
    let total = 0;
    for (const [userId, entry] of this.entries) {
      if (now - entry.lastUsed > IDLE_MS) this.entries.delete(userId);
      else total += entry.columns.size;
    }
    if (total <= MAX_CACHED_TRADES) return;
    const byAge = [...this.entries].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [userId, entry] of byAge) {
      if (total <= MAX_CACHED_TRADES || this.entries.size === 1) break;
      this.entries.delete(userId);
      total -= entry.columns.size;
    }
  }

  /**
   * Loads since the process started: trades read whole, copies brought up to date by merging their changes in, copies
   * patched (edits that left every trade in its place), and copies with new trades appended after their last; and the
   * writes that brought a copy up to date before answering (catchUp).
   */
  readonly counts = { read: 0, merged: 0, patched: 0, appended: 0, caughtUp: 0 };

  /** Traders and trades held now (for tests and the bench). */
  size() {
    let trades = 0;
    for (const entry of this.entries.values()) trades += entry.columns.size;
    return { traders: this.entries.size, trades };
  }

  /** Forgets a trader's copy: their next report reads every trade (the tests' cold cache). */
  drop(userId: string) {
    this.entries.delete(userId);
  }
}

const caches = new WeakMap<Database, TradesCache>();

export function tradesCacheOf(database: Database): TradesCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new TradesCache(database);
    caches.set(database, cache);
  }
  return cache;
}
