import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder, pgliteExtensions } from '../../src/server/db/client';
import { createPostgresDatabase } from '../support/app';

/** Helpers of the tests of a migration that changes stored data: a database as it was before it, then migrated. */

/** The migrations folder as it was before migration `idx`: the journal and the files before it (remove it after). */
export function migrationsBefore(idx: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < idx);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

export interface MigratingDb {
  query(text: string, params?: unknown[]): Promise<{ rows: any[] }>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

/** A new database of the backend, as the table owner (the migrations' role). */
export async function openMigratingDb(backend: 'pglite' | 'postgres'): Promise<MigratingDb> {
  if (backend === 'pglite') {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    return {
      query: (text, params) => client.query(text, params) as Promise<{ rows: any[] }>,
      migrate: (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: await createPostgresDatabase(), max: 2 });
  return {
    query: (text, params) => pool.query(text, params as unknown[]),
    migrate: (folder) => migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder }),
    close: () => pool.end(),
  };
}
