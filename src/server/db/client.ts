import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { lockDataDir, type DataDirLock } from './lock';
import { packageRoot } from '../paths';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  kind: 'pglite' | 'postgres';
  /** The owner connection: migrations and better-auth's own tables. Owned tables go through `withUser`. */
  db: Db;
  /** Runs `fn` in one transaction as the app role with app.user_id set, so row-level security applies. */
  withUser<T>(userId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Resolved from the package root, not from this module's URL, so it survives bundling (STACK-NOTES). */
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
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
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
    const client = await PGlite.create(dataDir, { extensions: pgliteExtensions, ...(options.loadDataDir && { loadDataDir: options.loadDataDir }) });
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    return wrap('pglite', db, async () => {
      await client.close();
      lock?.release();
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  try {
    if (options.migrate !== false) await migratePg(db as never, { migrationsFolder });
  } catch (error) {
    await pool.end();
    throw error;
  }
  const database = wrap('postgres', db, () => pool.end());
  // One round trip fewer per request: BEGIN and the two settings go to the server as one simple query (the user id
  // is a session's UUID, checked below, so it can be written into the statement). A request's transaction was four
  // round trips before its first query; under load each one costs both processes CPU (issue 13 point 7).
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
  const inTransaction = async <T>(userId: string, fn: (tx: Tx) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query(`begin; select set_config('role', 'edgebook_app', true), set_config('app.user_id', '${userId}', true)`);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    let broken: Error | undefined;
    try {
      const result = await fn(onClient(client));
      await client.query('commit');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped from the pool rather than handed to the next request.
      await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.release(broken);
    }
  };
  return database;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function wrap(kind: Database['kind'], db: Db, close: () => Promise<void>): Database {
  let open = 0;
  return {
    kind,
    db,
    withUser(userId, fn) {
      if (!userId) throw new Error('withUser needs a user id');
      return db.transaction(async (tx) => {
        open++;
        try {
          await tx.execute(sql`select set_config('role', 'edgebook_app', true), set_config('app.user_id', ${userId}, true)`);
          return await fn(tx as Tx);
        } finally {
          open--;
        }
      });
    },
    async ping() {
      // PGlite is one connection: during a long transaction (a 100,000-trade import) a query waits for all of it. A
      // transaction in progress is proof enough that the embedded database is up, so health answers at once.
      if (kind === 'pglite' && open > 0) return true;
      const result = await db.execute(sql`select 1 as ok`);
      return (result as unknown as { rows: unknown[] }).rows.length === 1;
    },
    close,
  };
}
