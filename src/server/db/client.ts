import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..', '..', '..', 'src', 'server', 'db', 'migrations',
);

/** Extensions the migrations create (pg_trgm for search); every PGlite that opens an Edgebook database needs them. */
export const pgliteExtensions = { pg_trgm } satisfies PGliteOptions['extensions'];

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; 'memory://' for an in-memory database. */
  dataDir?: string;
  /** A PGlite data-directory dump (tar) to start from, for fast test databases. */
  loadDataDir?: Blob | File;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options);
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

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  try {
    await migratePg(db as never, { migrationsFolder });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return wrap('postgres', db, () => pool.end());
}

function wrap(kind: Database['kind'], db: Db, close: () => Promise<void>): Database {
  return {
    kind,
    db,
    withUser(userId, fn) {
      if (!userId) throw new Error('withUser needs a user id');
      return db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('role', 'edgebook_app', true), set_config('app.user_id', ${userId}, true)`);
        return fn(tx as Tx);
      });
    },
    async ping() {
      const result = await db.execute(sql`select 1 as ok`);
      return (result as unknown as { rows: unknown[] }).rows.length === 1;
    },
    close,
  };
}
