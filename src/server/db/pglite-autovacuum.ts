import type { Logger } from '../logger';
import { describeReason } from './unavailable';
import type { SharedPglite } from './pglite-connection';

export interface AutovacuumOptions {
  /** How often (ms) to look for tables due; PostgreSQL's autovacuum naps a minute between rounds too. */
  everyMs?: number;
  /** How long (ms) the database must have served nothing but maintenance before a round starts or goes on. */
  idleMs?: number;
  logger?: Logger;
}

/**
 * The tables due, by PostgreSQL's own autovacuum rules and default thresholds: a VACUUM (with ANALYZE) once dead rows
 * pass 50 + 20% of the live ones, or rows inserted since the last one pass 1,000 + 20% (so that index-only scans find
 * the pages all-visible); an ANALYZE alone once changed rows pass 50 + 10%.
 */
const DUE = `
  select format('%I.%I', schemaname, relname) as name,
         (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup) as vacuum
  from pg_stat_user_tables
  where n_dead_tup > 50 + 0.2 * n_live_tup
     or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup
     or n_mod_since_analyze > 50 + 0.1 * n_live_tup
  order by n_dead_tup + n_mod_since_analyze desc`;

/**
 * The embedded database's autovacuum. PGlite is PostgreSQL in one process without its background workers, so nothing
 * vacuums or analyses its tables but the server: after a large write of trades the server does it at once (client.ts),
 * but every other table a trader's days update and delete in (sessions, rate limits, the trades' change log, notes,
 * tasks, the trades themselves after edits one by one) kept its dead rows and stale planner statistics for good, and
 * grew slower to read. This does autovacuum's work with its thresholds, one table at a time, and only while the
 * database is idle: a VACUUM holds the one connection, so a request arriving meanwhile waits for that table's (never a
 * whole round's: the next table waits for idleness again).
 */
export function startPgliteAutovacuum(shared: SharedPglite, options: AutovacuumOptions = {}) {
  const everyMs = options.everyMs ?? 60_000;
  const idleMs = options.idleMs ?? 5_000;
  let round: Promise<void> | null = null;

  async function runRound(): Promise<void> {
    const [found] = await shared.maintain(DUE);
    for (const table of (found?.rows ?? []) as Array<{ name: string; vacuum: boolean }>) {
      if (!shared.idleFor(idleMs)) return;
      await shared.maintain(table.vacuum ? `vacuum (analyze) ${table.name}` : `analyze ${table.name}`);
    }
  }

  const timer = setInterval(() => {
    if (round || !shared.idleFor(idleMs)) return;
    round = runRound()
      .catch((error) => options.logger?.warn({ reason: describeReason(error) }, 'the embedded autovacuum failed'))
      .finally(() => (round = null));
  }, everyMs);
  timer.unref();

  return {
    /** Stops the rounds; resolves once one under way has ended (before the database closes). */
    async stop(): Promise<void> {
      clearInterval(timer);
      await round;
    },
  };
}
