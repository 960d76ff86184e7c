import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import { findPostgresBin, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';

/**
 * Roles are the server's, not a database's: the first migration of every Edgebook database makes sure edgebook_app
 * exists. Several databases on one new server migrating at once (the API tests do, so may a host running several
 * instances) must all succeed, whoever creates the role.
 */
const bin = findPostgresBin();
describe.skipIf(!bin && !process.env.CI)('migrating several new databases on one new PostgreSQL server at once', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster(bin!);
  });
  afterAll(() => cluster?.stop());

  it('succeeds for every database, with the app role there once', async () => {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    const names = Array.from({ length: 6 }, (_, i) => `edgebook_race_${i}`);
    try {
      for (const name of names) await admin.query(`create database ${name}`);
      const opened: Database[] = [];
      const results = await Promise.allSettled(
        names.map(async (name) => {
          const database = await openDatabase({ databaseUrl: cluster.adminUrl.replace(/\/[^/]*$/, `/${name}`), poolSize: 2 });
          opened.push(database);
        }),
      );
      await Promise.all(opened.map((d) => d.close()));
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      const roles = await admin.query(`select count(*)::int as n from pg_roles where rolname = 'edgebook_app'`);
      expect(roles.rows[0].n).toBe(1);
    } finally {
      await admin.end();
    }
  });
});
