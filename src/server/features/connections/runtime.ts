import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { describeError } from '../../http/error-log';
import type { Logger } from '../../logger';
import { createConnectorRegistry, type ConnectorRegistry } from './registry';
import { createSecretBox, type SecretBox } from './secret-box';
import { createConnectionsService, type ConnectionsService } from './service';
import { createSyncRunner, type SyncRunner } from './sync';

/**
 * Broker connections in one server process: the key box (from AUTH_SECRET), the connectors, the syncs this process
 * runs, and the schedule that starts them every PROJECTX_SYNC_MINUTES while the server runs. Every process of a
 * PostgreSQL deployment runs the schedule; the sync lock lets one of them sync a connection at a time.
 */
export interface ConnectionsRuntime {
  box: SecretBox;
  registry: ConnectorRegistry;
  syncs: SyncRunner;
  service: ConnectionsService;
  /** Stops the schedule and waits (a little) for the syncs under way, which the shutdown signal has told to stop. */
  close(): Promise<void>;
}

/** The first look for due connections comes soon after start; then once a minute (or sooner, for shorter periods). */
const FIRST_TICK_MS = 5_000;

export function createConnectionsRuntime(deps: {
  config: Config;
  database: Database;
  logger: Logger;
  authSecret: string;
  shutdown?: AbortSignal;
}): ConnectionsRuntime {
  const { config, database, logger } = deps;
  const minutes = config.projectxSyncMinutes;
  const box = createSecretBox(deps.authSecret);
  const registry = createConnectorRegistry(config);
  const syncs = createSyncRunner({ database, logger, box, registry, shutdown: deps.shutdown, scheduleMinutes: minutes });
  const service = createConnectionsService({ database, box, registry, syncs, syncMinutes: minutes });

  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let closed = false;

  /**
   * Connections due a sync: connected (a refused key waits for its trader), with a mapped account the provider still
   * lists, and not synced within the period. Read as the tables' owner, across traders: each sync then runs as its
   * trader.
   */
  async function tick() {
    const due = (await database.db.execute(sql`
      select c.id, c.user_id from broker_connections c
      where c.status = 'connected'
        and (c.last_outcome is null or (c.last_outcome->>'finished_at')::timestamptz < now() - make_interval(mins => ${minutes}))
        and exists (select 1 from broker_accounts a where a.connection_id = c.id and a.user_id = c.user_id and a.account_id is not null and a.listed)
      order by (c.last_outcome->>'finished_at') nulls first
      limit 100
    `)) as unknown as { rows: Array<{ id: string; user_id: string }> };
    for (const { id, user_id } of due.rows) {
      if (closed || deps.shutdown?.aborted) return;
      // One at a time: a schedule must not hold every connection of the server at once.
      if ((await syncs.start(user_id, id, 'schedule')) === 'started') await syncs.current(id);
    }
  }

  function schedule(delay: number) {
    if (closed) return;
    timer = setTimeout(() => {
      ticking = tick()
        .catch((error: unknown) => logger.warn({ error: describeError(error) }, 'the broker sync schedule could not run'))
        .finally(() => schedule(Math.min(60_000, minutes * 60_000)));
    }, delay);
    timer.unref();
  }
  if (minutes > 0) schedule(FIRST_TICK_MS + Math.floor(Math.random() * 1000));

  return {
    box,
    registry,
    syncs,
    service,
    async close() {
      closed = true;
      clearTimeout(timer);
      await Promise.all([ticking, syncs.idle()]);
    },
  };
}
