import { fork } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { lockDataDir, type DataDirLock } from './lock';
import { startPgliteAutovacuum, type AutovacuumOptions } from './pglite-autovacuum';
import { SharedPglite, type LenderToken } from './pglite-connection';
import { DatabaseUnreachableError, describeReason, describeTarget, isDatabaseUnavailable } from './unavailable';
import type { Logger } from '../logger';
import { packageRoot } from '../paths';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/**
 * Rows per statement of a bulk write. PGlite runs each statement on the server's own thread and lends its one
 * connection
 * to other traders between statements (yieldConnection), so there statements stay small enough that another request
 * waits tens of milliseconds, not the whole write; PostgreSQL has a connection per request and takes larger ones.
 */
export interface BatchSizes {
  /** Trades inserted or changed per statement. */
  trades: number;
  /** Fills (a broker's executions) per statement. */
  fills: number;
  /** Keys looked up per statement (an import's duplicate check). */
  keys: number;
}

const BATCH_SIZES: Readonly<Record<'pglite' | 'postgres', BatchSizes>> = {
  pglite: { trades: 250, fills: 1_000, keys: 4_000 },
  postgres: { trades: 5_000, fills: 5_000, keys: 20_000 },
};

/** The rows a statement returned, typed: both drivers answer `{ rows }`. */
export async function queryRows<T>(tx: Pick<Tx, 'execute'> | Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface Database {
  /** Which database this is: for the health answer and the logs. Code that must act differently asks `batch`. */
  kind: 'pglite' | 'postgres';
  /** Rows per statement of a bulk write on this database. */
  batch: BatchSizes;
  /** The owner connection: migrations and better-auth's own tables. Owned tables go through `withUser`. */
  db: Db;
  /** Runs `fn` in one transaction as the app role with app.user_id set, so row-level security applies. */
  withUser<T>(userId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction of a mentor looking at a trader who shared accounts with them: the role
   * edgebook_mentor, app.user_id the trader and app.mentor_id the mentor. The role's row-level security shows only the
   * rows of the accounts in the trader's live grants to this mentor (and what those trades need around them), nothing
   * of the rest, and the role has no grant to change anything (migration mentor_rls). `'read'` (the default) is also
   * READ ONLY; `'comment'` may insert the mentor's own comment, the one thing a mentor writes.
   */
  withMentor<T>(traderId: string, mentorId: string, fn: (tx: Tx) => Promise<T>, access?: MentorAccess): Promise<T>;
  ping(): Promise<boolean>;
  /**
   * Whether a long write holds the one connection of the embedded database right now: the server's own statements
   * (sessions, the sync schedule) wait for it to end, never running inside another trader's transaction. Always false
   * on PostgreSQL, where every request has a connection of its own.
   */
  heldByWrite(): boolean;
  close(): Promise<void>;
  /** Tells every process on this database, this one included, that sessions ended (sign-out, revocation, deletion). */
  sessionsChanged(): Promise<void>;
  /**
   * Calls `fn` whenever any process says sessions changed. `live()` is false while such news could be missed (the
   * PostgreSQL listener is reconnecting): a cache of sessions must not be trusted then.
   */
  onSessionsChanged(fn: () => void): { live(): boolean };
  /**
   * Says that a request changed `rows` trades (an import, a restore, a bulk delete or assign). After enough of them
   * the planner's statistics of the trades and their rollups are refreshed, before the request answers (the promise):
   * PGlite runs no autovacuum, and PostgreSQL's waits for a threshold and a nap, while a list planned from the
   * statistics of an empty table is slow.
   */
  noteTradesWritten(rows: number): Promise<void>;
  /**
   * A lock that every server process on this database respects, for work that runs outside any one transaction (a
   * broker sync: minutes of API calls, then one transaction): null when another holder has it, else its release.
   * PostgreSQL: a session-level advisory lock on a connection of its own, so it goes with a process that dies.
   * PGlite is one process: a lock in memory.
   */
  tryLock(scope: string, key: string): Promise<(() => Promise<void>) | null>;
  /**
   * Whether some process holds the lock of `scope` and `key` now (tryLock). What it guards ends with its holder: a
   * process killed in the middle holds nothing any more, whatever it wrote down before.
   */
  lockHeld(scope: string, key: string): Promise<boolean>;
}

/** What a mentor's transaction may do: read, or also add a comment. */
export type MentorAccess = 'read' | 'comment';

const SESSIONS_CHANNEL = 'edgebook_sessions';

/** Resolved from the package root, not from this module's URL, so it survives bundling. */
export const migrationsFolder = path.join(packageRoot, 'src', 'server', 'db', 'migrations');

/** Extensions the migrations create (pg_trgm for search); every PGlite that opens an Edgebook database needs them. */
export const pgliteExtensions = { pg_trgm } satisfies PGliteOptions['extensions'];

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; 'memory://' for an in-memory database. */
  dataDir?: string;
  /** A PGlite data-directory dump (tar) to start from, for fast test databases. */
  loadDataDir?: Blob | File;
  /** Run the migrations (default). Cluster workers skip them: the primary has run them once before forking. */
  migrate?: boolean;
  /** PostgreSQL connections per process. */
  poolSize?: number;
  /** Where lost PostgreSQL connections and the wait for the database at start-up are reported. */
  logger?: Logger;
  /** How long (ms) to wait at start-up for a PostgreSQL server that cannot be reached yet; 60 s by default. */
  startTimeoutMs?: number;
  /** The embedded database's autovacuum (pglite-autovacuum.ts): its timings, or false for none. */
  autovacuum?: Omit<AutovacuumOptions, 'logger'> | false;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

/**
 * The embedded database sized for a laptop. Its memory is WebAssembly memory, which grows to the
 * most it ever held and never gives any back, so PostgreSQL's defaults for a server of its own (128 MB of shared
 * buffers, 64 MB for maintenance) stayed resident after the first big import. A trader's hot pages (the latest
 * trades, the rollups) fit in 16 MB; the rest comes from the operating system's file cache.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB', '-c', 'maintenance_work_mem=16MB', '-c', 'wal_buffers=1MB', '-c', 'temp_buffers=2MB'];

/** The environment variable that makes the server's entry create a new PGlite data directory and exit. */
export const CREATE_DATA_DIR_ENV = 'EDGEBOOK_CREATE_PGLITE_DATA_DIR';
let creatorScript: string | undefined;

/**
 * A new data directory is created and migrated by a child process (`script`, the server's entry,
 * run with CREATE_DATA_DIR_ENV), and the server then opens it as an existing one. Creating it runs initdb in two
 * more WebAssembly instances of PostgreSQL, whose compiled code and freed memory stayed resident in the server for
 * good: 414 MB after a first start against 238-252 MB after starting on the same directory again.
 */
export function createNewDataDirsApart(script: string): void {
  creatorScript = script;
}

/** Creates (initdb) and migrates a PGlite data directory, then closes it: what the child process runs. */
export async function createPgliteDataDir(dataDir: string): Promise<void> {
  const client = await openPgliteClient(dataDir);
  try {
    await migratePglite(drizzlePglite({ client, schema }) as never, { migrationsFolder });
  } finally {
    await client.close();
  }
}

function openPgliteClient(dataDir: string, loadDataDir?: Blob | File): Promise<PGlite> {
  return PGlite.create(dataDir, {
    extensions: pgliteExtensions,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
    ...(loadDataDir && { loadDataDir }),
  });
}

async function createDataDirInChild(script: string, dataDir: string): Promise<void> {
  // --watch (npm run dev) would keep the child alive, watching, instead of letting it exit.
  const child = fork(script, [], {
    env: { ...process.env, [CREATE_DATA_DIR_ENV]: dataDir },
    execArgv: process.execArgv.filter((arg) => !arg.startsWith('--watch')),
    stdio: 'inherit',
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`creating the database in ${dataDir} failed (exit code ${code})`);
}

async function openPglite(options: OpenOptions): Promise<Database> {
  const dir = options.dataDir ?? 'memory://';
  let lock: DataDirLock | undefined;
  let dataDir = dir;
  if (!dir.startsWith('memory://')) {
    fs.mkdirSync(dir, { recursive: true });
    lock = lockDataDir(dir);
    dataDir = path.join(dir, 'pglite');
  }
  try {
    if (creatorScript && lock && !options.loadDataDir && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      await createDataDirInChild(creatorScript, dataDir);
    }
    const client = await openPgliteClient(dataDir, options.loadDataDir);
    // Every statement goes through one queue, so that a long transaction can lend the connection.
    const shared = new SharedPglite(client);
    const db = drizzlePglite({ client: shared as unknown as PGlite, schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    const autovacuum = options.autovacuum === false ? null : startPgliteAutovacuum(shared, { ...options.autovacuum, logger: options.logger });
    const database = wrap(
      'pglite',
      db,
      async () => {
        // A long transaction under way (an import) ends at its next pause, so that the database closes in time.
        await shared.stopForClose();
        await autovacuum?.stop();
        await client.close();
        lock?.release();
      },
      options.logger,
      // Never inside another trader's transaction, as a statement of the queue may be (pglite-connection.ts).
      (statement) => shared.maintain(statement),
      pgliteRefreshStatements(),
    );
    const withUser = database.withUser;
    database.withUser = (userId, fn) =>
      shared.forUser(userId, () =>
        withUser(userId, (tx) => {
          lenders.set(tx, { shared, token: shared.transactionHere() });
          return fn(tx);
        }),
      );
    const withMentor = database.withMentor;
    // Queued as the trader's: never lent to inside that trader's own transaction (an import not committed yet). A
    // mentor's transaction is short and lends its connection to no one.
    database.withMentor = (traderId, mentorId, fn, access) => shared.forUser(traderId, () => withMentor(traderId, mentorId, fn, access));
    database.heldByWrite = () => shared.held();
    pgliteConnections.set(database, shared);
    return database;
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/**
 * A new connection that takes longer than this fails the request (a 503) instead of holding it: a database host that
 * vanished (a failover) drops packets rather than refusing them. Also the longest a request waits for a free pooled
 * connection.
 */
const CONNECT_TIMEOUT_MS = 10_000;

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const size = options.poolSize ?? 10;
  // TCP keepalive: a connection whose server went away without a word (a failover, a dropped route) is noticed and
  // dropped instead of waited on.
  const connection = { connectionString: url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS };
  // The owner's pool: migrations, better-auth's tables, health. Requests reach it only when a session is looked up.
  const pool = new pg.Pool({ ...connection, max: Math.max(2, Math.ceil(size / 4)) });
  survive(pool, 'owner', options.logger);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  try {
    if (options.migrate !== false) {
      await waitForDatabase(pool, url, options.startTimeoutMs ?? 60_000, options.logger);
      await migratePg(db as never, { migrationsFolder });
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  // The requests' pool. Its connections are the app role from the start (a startup option: a
  // connection that cannot take the role is refused), so row-level security applies to everything they run even
  // before a transaction's settings arrive; with no app.user_id they see no rows at all. Pipelined: BEGIN and the
  // user's setting go out with the request's first query instead of a round trip ahead of it, which under load
  // costs the server and PostgreSQL CPU on both ends.
  const appPool = new pg.Pool({ ...connection, max: size, options: '-c role=edgebook_app', pipeline: true });
  survive(appPool, 'requests', options.logger);
  const signals = sessionSignals(url);
  const database = wrap(
    'postgres',
    db,
    async () => {
      await Promise.all([pool.end(), appPool.end(), signals.close()]);
    },
    options.logger,
  );
  // Other server processes (WEB_CONCURRENCY, more machines) hear of ended sessions through LISTEN/NOTIFY.
  database.sessionsChanged = async () => {
    signals.notifyHere();
    await pool.query(`select pg_notify('${SESSIONS_CHANNEL}', '')`);
  };
  database.onSessionsChanged = signals.subscribe;
  const lockClients = new Set<pg.Client>();
  database.tryLock = async (scope, key) => {
    const client = new pg.Client(connection);
    client.on('error', () => undefined);
    await client.connect();
    try {
      const result = await client.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1), hashtext($2)) as ok', [scope, key]);
      if (!result.rows[0]?.ok) {
        await client.end().catch(() => undefined);
        return null;
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    lockClients.add(client);
    return async () => {
      if (!lockClients.delete(client)) return;
      // Ending the session releases its advisory locks, whatever the unlock says.
      await client.query('select pg_advisory_unlock(hashtext($1), hashtext($2))', [scope, key]).catch(() => undefined);
      await client.end().catch(() => undefined);
    };
  };
  // Advisory locks of two int4 keys show in pg_locks as classid and objid (the keys as unsigned oids), objsubid 2.
  database.lockHeld = async (scope, key) => {
    const rows = await queryRows<{ held: boolean }>(
      db,
      sql`select exists (
        select 1 from pg_locks
        where locktype = 'advisory' and granted and objsubid = 2
          and database = (select oid from pg_database where datname = current_database())
          and classid = (hashtext(${scope})::bigint & 4294967295)::oid
          and objid = (hashtext(${key})::bigint & 4294967295)::oid
      ) as held`,
    );
    return rows[0]?.held === true;
  };
  const closeDatabase = database.close;
  database.close = async () => {
    await Promise.all([...lockClients].map((client) => client.end().catch(() => undefined)));
    lockClients.clear();
    await closeDatabase();
  };
  // Building a drizzle instance extracts the whole schema's relations: once per pooled connection, not per request.
  const perClient = new WeakMap<pg.PoolClient, Tx>();
  const onClient = (client: pg.PoolClient): Tx => {
    let tx = perClient.get(client);
    if (!tx) perClient.set(client, (tx = drizzlePg({ client, schema }) as unknown as Tx));
    return tx;
  };
  database.withUser = (userId, fn) => {
    // Thrown at once, as the generic withUser does: a missing id is a programming error, not a rejected query.
    if (!UUID.test(userId)) throw new Error('withUser needs a user id');
    return inTransaction(userId, fn);
  };
  database.withMentor = (traderId, mentorId, fn, access = 'read') => {
    if (!UUID.test(traderId) || !UUID.test(mentorId)) throw new Error('withMentor needs a trader id and a mentor id');
    const begin =
      `begin${access === 'read' ? ' read only' : ''}; ` +
      `select set_config('role', 'edgebook_mentor', true), set_config('app.user_id', '${traderId}', true), set_config('app.mentor_id', '${mentorId}', true)`;
    return inTransaction(traderId, fn, begin);
  };
  const inTransaction = async <T>(
    userId: string,
    fn: (tx: Tx) => Promise<T>,
    begin = `begin; select set_config('app.user_id', '${userId}', true)`,
  ): Promise<T> => {
    const client = await appPool.connect();
    // Not awaited before the first query: the pipeline keeps the order, and a failed BEGIN or setting fails every
    // query after it in the transaction (PostgreSQL refuses them until the rollback). The ids are checked UUIDs.
    const begun = client.query(begin).then(
      () => null,
      (error: Error) => error,
    );
    let broken: Error | undefined;
    try {
      const result = await fn(onClient(client));
      const beginError = await begun;
      if (beginError) throw beginError;
      await client.query('commit');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped from the pool rather than handed to the next request.
      await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
      // The first failure is the one to report: after a failed BEGIN every query says only "transaction is aborted".
      throw (await begun) ?? error;
    } finally {
      client.release(broken);
    }
  };
  return database;
}

/**
 * A PostgreSQL restart ends every connection (57P01 to each), and node-postgres reports that as an
 * 'error' event, which ended the whole process wherever nobody listened: on the pool for an idle connection, on the
 * client for one a request holds between two queries. The pool has already dropped an idle one and opens new ones as
 * requests need them; a held one fails the request's next query (a 503) and is dropped when released (it is no longer
 * queryable).
 */
function survive(pool: pg.Pool, name: string, logger?: Logger) {
  pool.on('error', (error) => logger?.warn({ pool: name, reason: describeReason(error) }, 'a database connection was lost'));
  pool.on('connect', (client) => client.on('error', () => undefined));
}

/**
 * At start-up the database may not be up yet (the machine has just booted, or a container beside this one is still
 * starting): try again with growing pauses (up to 2 s) for `timeoutMs`, then give up with one clear message. Other
 * failures (a wrong password, a missing database) end the start at once.
 */
async function waitForDatabase(pool: pg.Pool, url: string, timeoutMs: number, logger?: Logger) {
  const started = Date.now();
  let pause = 250;
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query('select 1');
      if (attempt > 1) logger?.info({ database: describeTarget(url), waitedMs: Date.now() - started }, 'the database is reachable');
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const left = started + timeoutMs - Date.now();
      if (left <= 0) throw new DatabaseUnreachableError(url, Math.round(timeoutMs / 1000), error);
      if (attempt === 1) {
        logger?.warn(
          { database: describeTarget(url), reason: describeReason(error), timeoutSeconds: Math.round(timeoutMs / 1000) },
          'waiting for the database',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      pause = Math.min(pause * 2, 2000);
    }
  }
}

/** One LISTEN connection per process, opened on the first subscriber and reopened (after a pause) when it drops. */
function sessionSignals(url: string) {
  const listeners = new Set<() => void>();
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const notifyHere = () => listeners.forEach((fn) => fn());
  const lost = () => {
    if (!live && client === null) return;
    live = false;
    client = null;
    // Whatever was said while nobody listened is lost: every cache forgets all it holds.
    notifyHere();
    if (!closed) retry = setTimeout(() => void connect(), 1000);
  };
  const connect = async () => {
    retry = undefined;
    if (closed) return;
    const next = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client = next;
    next.on('notification', notifyHere);
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`listen ${SESSIONS_CHANNEL}`);
      if (closed) return void (await next.end().catch(() => {}));
      live = true;
      // Sessions may have ended before the listener was up: start from an empty cache.
      notifyHere();
    } catch {
      await next.end().catch(() => {});
      lost();
    }
  };
  return {
    notifyHere,
    subscribe(fn: () => void) {
      listeners.add(fn);
      if (!client && !closed && !retry) void connect();
      return { live: () => live };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      live = false;
      await open?.end().catch(() => {});
    },
  };
}

/** The PGlite queue of each transaction's connection (yieldConnection) and of each database (tests). */
const lenders = new WeakMap<Tx, { shared: SharedPglite; token: LenderToken | null }>();
const pgliteConnections = new WeakMap<Database, SharedPglite>();

/**
 * Between two statements of a long transaction (an import's inserts), with none of its statements in flight: lets
 * other requests run. On PostgreSQL they have connections of their own, and this only gives the event loop a turn.
 * On PGlite, the one connection is lent to other traders' reads waiting for it, each run inside this transaction,
 * read-only and rolled back (pglite-connection.ts), so that they wait milliseconds, not for the whole import.
 */
export async function yieldConnection(tx: Tx): Promise<void> {
  const lender = lenders.get(tx);
  if (lender) await lender.shared.lend(lender.token);
  else await new Promise<void>((resolve) => setImmediate(resolve));
}

/** How many requests ran inside other transactions on this embedded database (tests); null on PostgreSQL. */
export function guestsServed(database: Database): number | null {
  return pgliteConnections.get(database)?.guests ?? null;
}

/** How many of the server's own statements ran inside a trader's transaction (tests: none ever should); null on PostgreSQL. */
export function ownerGuestsServed(database: Database): number | null {
  return pgliteConnections.get(database)?.ownerGuests ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rows changed since the last refresh that warrant another: about a day of a busy trader's imports. */
export const ANALYZE_AFTER_ROWS = 1_000;

/** A statement run outside any transaction block (VACUUM cannot run in one), on the owner's connection. */
type Maintain = (statement: string) => Promise<unknown>;

/**
 * The refresh after large writes of trades: the planner's statistics of the trades and their
 * rollups, and a VACUUM of the rollups. An import updates each day's rollup row once per statement of its inserts, all
 * in one transaction, so a 100,000-trade import left ~300,000 dead versions of 2,800 rows (a 31 MB table, its primary
 * key listing 15,000 entries for the trader's 1,400 days): the Trade Log's count, summed from the rollups in its first
 * page's statement, read 1,263 pages for it, 1.4 ms of the page on PGlite (0.4 ms once vacuumed). PGlite runs no
 * autovacuum at all, and PostgreSQL's comes only after its threshold and nap.
 */
const REFRESH_STATEMENTS = ['vacuum (analyze) trade_day_rollups', 'analyze trades'];

/** Columns of trades one ANALYZE statement of the embedded database's refresh reads. */
export const ANALYZE_COLUMNS_PER_STATEMENT = 6;

/**
 * The refresh as the embedded database runs it. Its one connection serves nobody else while a statement runs, and the
 * ANALYZE of a 30,000-trade table held it for 0.4-1 s right after a restore, the longest wait another trader had. So
 * trades are analysed a few columns a statement, other requests running in between: each statement samples the table
 * anew (about 15 ms) and the columns get the statistics a whole-table ANALYZE gives them. An ANALYZE naming columns
 * leaves the table's count of changes since its last analysis as it was, so the embedded autovacuum analyses it whole
 * once more when the database is next idle.
 */
export function pgliteRefreshStatements(): string[] {
  const columns = Object.values(getTableColumns(schema.trades)).map((column) => `"${column.name}"`);
  const parts: string[] = [];
  for (let i = 0; i < columns.length; i += ANALYZE_COLUMNS_PER_STATEMENT) {
    parts.push(`analyze trades (${columns.slice(i, i + ANALYZE_COLUMNS_PER_STATEMENT).join(', ')})`);
  }
  return [REFRESH_STATEMENTS[0]!, ...parts];
}

/**
 * Runs the refresh once `rows` changes have added up to the threshold, one at a time. The promise resolves when the
 * refresh these rows asked for is done (at once when they asked for none), and the write's answer waits for it
 *: run after the answer, the ANALYZE of 100,000 trades took the CPU (PostgreSQL) or the one
 * connection (PGlite) from the Trade Log's first pages, which the trader opens right then (p95 117 ms against 6 ms once
 * it was done). A failure is only logged: the statistics stay as they were.
 */
function planAnalyze(maintain: Maintain, statements: readonly string[], logger?: Logger) {
  let pending = 0;
  let running: Promise<void> | null = null;
  const run = async () => {
    // Rows noted while one refresh runs are covered by the next turn of the loop, which their writers wait for too.
    while (pending >= ANALYZE_AFTER_ROWS) {
      pending = 0;
      try {
        for (const statement of statements) await maintain(statement);
      } catch (error) {
        logger?.warn({ reason: describeReason(error) }, 'refreshing the planner statistics failed');
      }
    }
    running = null;
  };
  return (rows: number): Promise<void> => {
    if (!(rows > 0)) return Promise.resolve();
    pending += rows;
    if (running) return running;
    if (pending < ANALYZE_AFTER_ROWS) return Promise.resolve();
    running = run();
    return running;
  };
}

function wrap(
  kind: Database['kind'],
  db: Db,
  close: () => Promise<void>,
  logger?: Logger,
  maintain: Maintain = (statement) => db.execute(sql.raw(statement)),
  refreshStatements: readonly string[] = REFRESH_STATEMENTS,
): Database {
  let open = 0;
  // The embedded database is one process: news of ended sessions has nowhere else to go.
  const listeners = new Set<() => void>();
  const held = new Set<string>();
  return {
    kind,
    batch: BATCH_SIZES[kind],
    db,
    async tryLock(scope, key) {
      const name = `${scope}\u0000${key}`;
      if (held.has(name)) return null;
      held.add(name);
      return async () => void held.delete(name);
    },
    async lockHeld(scope, key) {
      return held.has(`${scope}\u0000${key}`);
    },
    async sessionsChanged() {
      listeners.forEach((fn) => fn());
    },
    onSessionsChanged(fn) {
      listeners.add(fn);
      return { live: () => true };
    },
    withUser(userId, fn) {
      if (!userId) throw new Error('withUser needs a user id');
      return db.transaction(async (tx) => {
        open++;
        try {
          // No mentor's setting in a trader's own transaction, whatever transaction it runs inside (PGlite lends its one
          // connection: pglite-connection.ts).
          await tx.execute(
            sql`select set_config('role', 'edgebook_app', true), set_config('app.user_id', ${userId}, true), set_config('app.mentor_id', '', true)`,
          );
          return await fn(tx as Tx);
        } finally {
          open--;
        }
      });
    },
    withMentor(traderId, mentorId, fn, access = 'read') {
      if (!traderId || !mentorId) throw new Error('withMentor needs a trader id and a mentor id');
      return db.transaction(async (tx) => {
        open++;
        try {
          // A read is read only from its first statement on (a transaction may always become read only; a guest's is).
          const readOnly = access === 'read' ? sql`, set_config('transaction_read_only', 'on', true)` : sql``;
          await tx.execute(
            sql`select set_config('role', 'edgebook_mentor', true), set_config('app.user_id', ${traderId}, true), set_config('app.mentor_id', ${mentorId}, true)${readOnly}`,
          );
          return await fn(tx as Tx);
        } finally {
          open--;
        }
      });
    },
    heldByWrite: () => false,
    async ping() {
      // PGlite is one connection: during a long transaction (a 100,000-trade import) a query waits for all of it. A
      // transaction in progress is proof enough that the embedded database is up, so health answers at once.
      if (kind === 'pglite' && open > 0) return true;
      const result = await db.execute(sql`select 1 as ok`);
      return (result as unknown as { rows: unknown[] }).rows.length === 1;
    },
    close,
    noteTradesWritten: planAnalyze(maintain, refreshStatements, logger),
  };
}
