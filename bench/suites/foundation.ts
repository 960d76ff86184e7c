import fs from 'node:fs';
import { measureRequests, signUp, spawnServer, summarize, tempDir, type PostgresForBench, type Row, type ServerProcess } from '../lib';

const SUITE = 'foundation';

/**
 * Server start (fresh and existing data), request latency for /api/health and an authenticated request, and the
 * server's resident memory, on the embedded PGlite and on a PostgreSQL server. The server is the compiled build
 * `npm start` runs.
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const starts = ctx.quick ? 1 : 3;
  const requests = ctx.quick ? 100 : 500;

  // PGlite: a fresh directory creates and migrates the database; an existing one only opens it.
  const fresh: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < starts; i++) {
    const dir = tempDir('pglite');
    const first = await spawnServer({ DATA_DIR: dir });
    fresh.push(first.startMs);
    if (i === 0) {
      rows.push(...(await measureServer(first.server, 'pglite', requests)));
    }
    await first.server.stop();
    const again = await spawnServer({ DATA_DIR: dir });
    existing.push(again.startMs);
    await again.server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  rows.unshift(
    summarize(SUITE, 'server start, new data dir', 'pglite', fresh),
    summarize(SUITE, 'server start, existing data dir', 'pglite', existing),
  );

  if (ctx.postgres) {
    const pgFresh: number[] = [];
    const pgExisting: number[] = [];
    for (let i = 0; i < starts; i++) {
      const url = await ctx.postgres.newDatabase();
      const dir = tempDir('pg');
      const first = await spawnServer({ DATABASE_URL: url, DATA_DIR: dir });
      pgFresh.push(first.startMs);
      if (i === 0) rows.push(...(await measureServer(first.server, 'postgres', requests)));
      await first.server.stop();
      const again = await spawnServer({ DATABASE_URL: url, DATA_DIR: dir });
      pgExisting.push(again.startMs);
      await again.server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    rows.push(
      summarize(SUITE, 'server start, new database', 'postgres', pgFresh),
      summarize(SUITE, 'server start, existing database', 'postgres', pgExisting),
    );
  }
  return rows;
}

async function measureServer(server: ServerProcess, backend: string, n: number): Promise<Row[]> {
  const { url } = server;
  const idle = server.rssMb();
  const { cookie } = await signUp(url);
  const health = await measureRequests(`${url}/api/health`, {}, n);
  const authed = await measureRequests(`${url}/api/accounts`, { headers: { cookie } }, n);
  const busy = server.rssMb();
  // The compiled server within 150 MB on PostgreSQL (PGlite holds a whole PostgreSQL in the process).
  const target = backend === 'postgres' ? { limit: 150 } : undefined;
  return [
    summarize(SUITE, 'GET /api/health', backend, health),
    summarize(SUITE, 'GET /api/accounts (signed in)', backend, authed),
    summarize(SUITE, 'server RSS after start (compiled server)', backend, [idle], 'MB', undefined, target),
    summarize(SUITE, `server RSS after ${2 * n + 40} requests`, backend, [busy], 'MB', undefined, target),
  ];
}
