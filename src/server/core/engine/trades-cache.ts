import { appendOrderedColumns, reserveRoom } from './columns/append-columns';
import { SparePool } from './columns/column-room';
import { collectBuffers, mergeOrderedColumns, patchOrderedColumns } from './columns/merge-columns';
import type { Database } from '../../db/client';
import { reportsRepo, type TradesSnapshot } from './repo';

/**
 * The trades the reports read, kept in this process's memory per trader. A report needs most of a trader's
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
 * one version. The whole set is read again only when the log no longer reaches back to the copy's version (a write
 * of more
 * than 20,000 trades, or that many changes since) or the changes are most of it.
 *
 * Bounded: beyond MAX_CACHED_TRADES the traders read longest ago are dropped (a trader with 100,000 trades holds about
 * 18 MB here, in columns and their trading-order keys; up to half again as much once an append has made room for the
 * next), and a trader not read for IDLE_MS is dropped at the next read of anyone.
 *
 * The reports take a copy with acquire() and release it when done (service.ts withReportScope), so that a merge may
 * write into the buffers of a trader's former copies once no report reads them (Spare, below), instead of allocating
 * every column anew.
 */
const MAX_CACHED_TRADES = 400_000;
const IDLE_MS = 15 * 60_000;
/** The longest a write waits for the reports' copy to catch up with it (catchUp). */
const CATCH_UP_WAIT_MS = 250;
/** A trader's spare buffers (below) are dropped after this long without a merge or a copy released. */
const SPARE_IDLE_MS = 60_000;

interface Entry {
  snapshot: TradesSnapshot;
  lastUsed: number;
}

/** A copy taken by a report, held until it says it is done with it (release, once). */
export interface TradesLease {
  snapshot: TradesSnapshot;
  release(): void;
}

/** A load under way: the reports waiting for it hold its copy as soon as it is made (none can miss it). */
interface Load {
  promise: Promise<TradesSnapshot>;
  waiters: number;
  pins: number;
}

/**
 * Spare buffers (sixth pass): a merge writes every column anew (~18 MB at 100,000 trades), and the copy it
 * replaced left as much to collect; the collection's marking then fell into the next report (31-53 ms instead of 10-12
 * on PostgreSQL). So a merge writes into the buffers of the trader's former copies instead, once no report reads them
 * and no copy of theirs still uses them: copies of one lineage share buffers (an append writes past the old length into
 * the same ones, a patch shares the columns it leaves alone, merge-columns.ts), so a buffer is spare only when every
 * copy that uses it is neither the trader's current copy, nor held by a report or a load, nor handed to a caller that
 * does not say when it is done (pinned: such a copy's buffers are never made spare, and are collected as before).
 * Bounded: at most one copy's worth of bytes per trader in the cache (the larger of their current copy and the one
 * retired),
 * dropped with their entry and after SPARE_IDLE_MS.
 */
interface Spare {
  pool: SparePool;
  timer: ReturnType<typeof setTimeout> | undefined;
}

class TradesCache {
  private readonly entries = new Map<string, Entry>();
  /** Loads under way, by trader and the version they were asked for: concurrent reports share one read. */
  private readonly loading = new Map<string, Load>();
  /** Copies held (reports reading them, loads merging from or into them), with their trader and how many hold each. */
  private readonly holds = new Map<TradesSnapshot, { userId: string; count: number }>();
  /** Copies handed out without a release (pinned), while they are alive. */
  private readonly pinned = new Map<string, Set<WeakRef<TradesSnapshot>>>();
  private readonly spares = new Map<string, Spare>();

  constructor(private readonly database: Database) {}

  /**
   * The trader's trades at `version` or newer, held until `release()`: from memory, or read once however many reports
   * ask at the same time. Until released, none of the copy's buffers is written by a merge.
   */
  async acquire(userId: string, version: number, now = Date.now()): Promise<TradesLease> {
    const snapshot = await this.take(userId, version, now, 'hold');
    let held = true;
    return {
      snapshot,
      release: () => {
        if (!held) return;
        held = false;
        this.release(snapshot);
      },
    };
  }

  /**
   * The trader's trades at `version` or newer, for a caller that does not say when it is done with them: that copy's
   * buffers are never made spare (pinned while it is alive). The reports take theirs through acquire.
   */
  async get(userId: string, version: number, now = Date.now()): Promise<TradesSnapshot> {
    return this.take(userId, version, now, 'pin');
  }

  private take(userId: string, version: number, now: number, how: 'hold' | 'pin' | 'none'): Promise<TradesSnapshot> {
    const entry = this.entries.get(userId);
    if (entry && entry.snapshot.version >= version) {
      entry.lastUsed = now;
      this.keep(userId, entry.snapshot, how);
      return Promise.resolve(entry.snapshot);
    }
    const key = `${userId}:${version}`;
    let load = this.loading.get(key);
    if (!load) {
      const base = entry?.snapshot;
      // The base is held while the load reads from it: no merge elsewhere writes its buffers meanwhile.
      if (base) this.hold(userId, base);
      // A transaction of its own, never one a caller holds open: PGlite runs one transaction at a time, and a report
      // waiting inside its transaction for another's load would wait for ever.
      const started: Load = { promise: this.load(userId, base), waiters: 0, pins: 0 };
      load = started;
      this.loading.set(key, started);
      // The first reaction to the load: the copy is stored and held for every report waiting before any of them (or
      // any other merge) runs, then the load's own holds (of the new copy and of its base) are let go.
      void started.promise.then(
        (snapshot) => {
          this.loading.delete(key);
          this.store(userId, snapshot, Date.now());
          if (started.waiters > 0) this.hold(userId, snapshot, started.waiters);
          if (started.pins > 0) this.pin(userId, snapshot);
          this.release(snapshot);
          if (base) this.release(base);
        },
        () => {
          this.loading.delete(key);
          if (base) this.release(base);
        },
      );
    }
    if (how === 'hold') load.waiters++;
    else if (how === 'pin') load.pins++;
    return load.promise;
  }

  private keep(userId: string, snapshot: TradesSnapshot, how: 'hold' | 'pin' | 'none') {
    if (how === 'hold') this.hold(userId, snapshot);
    else if (how === 'pin') this.pin(userId, snapshot);
  }

  private hold(userId: string, snapshot: TradesSnapshot, count = 1) {
    const held = this.holds.get(snapshot);
    if (held) held.count += count;
    else this.holds.set(snapshot, { userId, count });
  }

  private pin(userId: string, snapshot: TradesSnapshot) {
    let refs = this.pinned.get(userId);
    if (!refs) this.pinned.set(userId, (refs = new Set()));
    for (const ref of refs) {
      const copy = ref.deref();
      if (copy === snapshot) return;
      if (!copy) refs.delete(ref);
    }
    refs.add(new WeakRef(snapshot));
  }

  private release(snapshot: TradesSnapshot) {
    const held = this.holds.get(snapshot);
    if (!held) return;
    if (--held.count > 0) return;
    this.holds.delete(snapshot);
    this.reclaim(held.userId, snapshot);
  }

  /**
   * A copy no longer the trader's current one nor held: its buffers that no live copy of theirs uses become spare (the
   * trader's pool, when they are still in the cache and the copy is not pinned).
   */
  private reclaim(userId: string, snapshot: TradesSnapshot) {
    const entry = this.entries.get(userId);
    if (!entry || entry.snapshot === snapshot || this.holds.has(snapshot)) return;
    const live = collectBuffers(entry.snapshot);
    for (const [held, { userId: holder }] of this.holds) if (holder === userId) collectBuffers(held, live);
    const refs = this.pinned.get(userId);
    if (refs) {
      for (const ref of refs) {
        const copy = ref.deref();
        if (copy === snapshot) return;
        if (copy) collectBuffers(copy, live);
        else refs.delete(ref);
      }
    }
    const spare = this.spareOf(userId);
    for (const buffer of collectBuffers(snapshot)) {
      if (live.has(buffer)) continue;
      if (buffer instanceof ArrayBuffer) spare.pool.add(buffer);
      else if (Array.isArray(buffer)) spare.pool.addIds(buffer as string[]);
    }
    // At most one copy's worth: the larger of the current copy's bytes and the retired one's (a copy of a full read has
    // half again as much room as a merged one: bounded by the current copy's alone, part of its set would be dropped,
    // and every other merge would allocate what it lacked).
    spare.pool.trim(Math.max(countBytes(entry.snapshot), countBytes(snapshot)));
  }

  private spareOf(userId: string): Spare {
    let spare = this.spares.get(userId);
    if (!spare) this.spares.set(userId, (spare = { pool: new SparePool(), timer: undefined }));
    clearTimeout(spare.timer);
    spare.timer = setTimeout(() => this.spares.delete(userId), SPARE_IDLE_MS);
    spare.timer.unref?.();
    return spare;
  }

  private dropSpare(userId: string) {
    const spare = this.spares.get(userId);
    if (!spare) return;
    clearTimeout(spare.timer);
    this.spares.delete(userId);
  }

  /**
   * After a write of the trader's: a copy held here is brought up to date before the write answers, so the
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
    if (version <= entry.snapshot.version) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CATCH_UP_WAIT_MS)));
    try {
      const current = await Promise.race([this.take(userId, version, Date.now(), 'none').then(() => true), waited.then(() => false)]);
      if (current) this.counts.caughtUp++;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The trader's trades now: the copy held brought up to date with what changed since, or all of them read again. The
   * copy made is held for the load (take's first reaction lets it go), from the moment it exists.
   */
  private async load(userId: string, base: TradesSnapshot | undefined): Promise<TradesSnapshot> {
    const made = (snapshot: TradesSnapshot) => {
      this.hold(userId, snapshot);
      return snapshot;
    };
    if (base && base.columns.size > 0) {
      const changes = await this.database.withUser(userId, (tx) => reportsRepo(tx, userId).loadChanges(base.version));
      // New trades after the last one (an import of the latest trades), however many: written after the copy's rows,
      // which stay as they are (append-columns.ts). Tried first: it costs what was added, and tells an edit apart
      // without a pass over every id.
      const appended = changes && appendOrderedColumns(base, changes.changed, changes.current);
      if (changes && appended) {
        this.counts.appended++;
        return made({ version: changes.version, ...appended });
      }
      // Changes to most of the trades: reading them all costs about what merging them would.
      if (changes && changes.changed.size <= base.columns.size / 2) {
        // Edits that leave every trade in its place change a few columns: copied alone, the rest shared with the copy
        // reports may still be reading. Anything else is merged into new columns, written into spare buffers where
        // the trader has them.
        const patched = patchOrderedColumns(base, changes.changed, changes.current);
        if (patched) this.counts.patched++;
        else this.counts.merged++;
        const spares = patched ? undefined : this.spares.get(userId)?.pool;
        return made({ version: changes.version, ...(patched ?? mergeOrderedColumns(base, changes.changed, changes.current, spares)) });
      }
    }
    this.counts.read++;
    const { version, ...read } = await this.database.withUser(userId, (tx) => reportsRepo(tx, userId).loadTrades());
    // Room past the rows for the trades the trader adds next (append-columns.ts), made now rather than at the append.
    return made({ version, ...reserveRoom(read) });
  }

  private store(userId: string, snapshot: TradesSnapshot, now: number) {
    const current = this.entries.get(userId);
    if (current && current.snapshot.version > snapshot.version) return;
    this.entries.set(userId, { snapshot, lastUsed: now });
    // The copy replaced: spare once no report reads it (a new lineage's full read, a merge: all its buffers).
    if (current && current.snapshot !== snapshot) this.reclaim(userId, current.snapshot);
    this.evict(now);
  }

  private evict(now: number) {
    let total = 0;
    for (const [userId, entry] of this.entries) {
      if (now - entry.lastUsed > IDLE_MS) this.forget(userId);
      else total += entry.snapshot.columns.size;
    }
    if (total <= MAX_CACHED_TRADES) return;
    const byAge = [...this.entries].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [userId, entry] of byAge) {
      if (total <= MAX_CACHED_TRADES || this.entries.size === 1) break;
      this.forget(userId);
      total -= entry.snapshot.columns.size;
    }
  }

  /** The trader's copy and spares gone: copies still read are collected once released. */
  private forget(userId: string) {
    this.entries.delete(userId);
    this.dropSpare(userId);
    this.pinned.delete(userId);
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
    for (const entry of this.entries.values()) trades += entry.snapshot.columns.size;
    return { traders: this.entries.size, trades };
  }

  /** The trader's spare bytes, and the bytes of their current copy's buffers (for tests: the pool's bound). */
  spareBytes(userId: string) {
    const entry = this.entries.get(userId);
    return { spare: this.spares.get(userId)?.pool.bytes ?? 0, copy: entry ? countBytes(entry.snapshot) : 0 };
  }

  /** Forgets a trader's copy: their next report reads every trade (the tests' cold cache). */
  drop(userId: string) {
    this.forget(userId);
  }
}

/** The bytes of a copy's buffers (typed arrays; its list of ids not counted). */
export function countBytes(snapshot: TradesSnapshot) {
  let bytes = 0;
  for (const buffer of collectBuffers(snapshot)) if (buffer instanceof ArrayBuffer) bytes += buffer.byteLength;
  return bytes;
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
