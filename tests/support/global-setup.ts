import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, pgliteExtensions } from '../../src/server/db/client';
import { findPostgresBin, startPostgresCluster, type PostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL cluster, or '' when none could be started outside CI. */
    pgAdminUrl: string;
    /** A migrated PGlite data directory dump: each test server starts from it in well under a second. */
    pgliteDump: string;
  }
}

let cluster: PostgresCluster | undefined;
let tmp: string | undefined;

export async function setup(project: TestProject) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-tests-'));
  const client = await PGlite.create({ extensions: pgliteExtensions });
  await migrate(drizzle({ client }), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dumpFile = path.join(tmp, 'pglite-migrated.tar');
  fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', dumpFile);

  const bin = findPostgresBin();
  if (!bin) {
    // Under CI a missing PostgreSQL fails the run; on a laptop the PostgreSQL half is skipped with a warning.
    if (process.env.CI) throw new Error('PostgreSQL binaries not found (initdb, pg_ctl): .ci/run must install postgresql');
    console.warn('PostgreSQL binaries not found: the PostgreSQL tests are skipped on this machine');
    project.provide('pgAdminUrl', '');
    return;
  }
  cluster = await startPostgresCluster(bin);
  project.provide('pgAdminUrl', cluster.adminUrl);
}

export async function teardown() {
  cluster?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
}
