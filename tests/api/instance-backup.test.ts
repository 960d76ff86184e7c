import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../src/server/db/client';
import { secretBinding } from '../../src/server/features/connections/secret-box';
import { backupInstance, everyRowText, RestoreRefused, restoreInstance, tablesInOrder } from '../../src/server/ops/instance-backup';
import { backends, createPostgresDatabase, startTestApp, uniqueEmail, type ApiClient, type Backend, type TestApp } from '../support/app';
import { KEY, OTHER_KEY } from './connections-support';
import { sendFile } from './imports-support';
import { createNote, PNG_BYTES, uploadAttachment } from './notes-support';
import { startProjectXServer, type ProjectXStandIn } from '../support/projectx-server';

/**
 * The whole instance in one file and back (`npm run backup` / `npm run restore`): two traders with trades, a note, an
 * uploaded image, price bars and a broker connection are backed up with the server stopped and restored into a new,
 * empty database; every row of every table comes back the same, each trader signs in with the same password, and the
 * API answers byte for byte as before. A non-empty instance is refused. The same pair moves an embedded instance
 * onto PostgreSQL.
 */

const PASSWORD = 'correct-horse-9';

interface Trader {
  email: string;
  password: string;
  client: ApiClient;
  connectionId: string;
  imageUrl: string;
}

/** One-minute bars of MNQH5 (TradingView's export: unix seconds), ten minutes from 10:00 New York on 2025-03-05. */
function bars(base: number): string {
  const lines = ['time,open,high,low,close,Volume'];
  for (let i = 0; i < 10; i++) {
    const t = Date.UTC(2025, 2, 5, 15, i) / 1000;
    lines.push(`${t},${base + i},${base + i + 3},${base + i - 2},${base + i + 1},${10 + i}`);
  }
  return `${lines.join('\n')}\n`;
}

async function newTrader(app: TestApp, prefix: string, pxUser: string, pxKey: string, barBase: number): Promise<Trader> {
  const client = app.client();
  const email = uniqueEmail(prefix);
  const password = `${PASSWORD}-${prefix}`;
  expect((await client.signUp(email, password)).status).toBe(200);
  expect((await client.post('/api/onboarding')).status).toBeLessThan(300);
  const account = await client.post('/api/accounts', { name: `Topstep ${prefix}`, is_default: true });
  expect(account.status).toBe(201);
  const trade = await client.post('/api/trades', {
    date: '2025-03-05',
    period: 'AM',
    symbol: 'MNQ',
    pnl: '321.09',
    commission: '1.24',
    notes: `plan of ${prefix}`,
    account_id: account.body.id,
  });
  expect(trade.status, JSON.stringify(trade.body)).toBe(201);
  const note = await createNote(client, { title: `Review ${prefix}`, content: `# What ${prefix} learned\n\nWait for the open.` });
  const image = await uploadAttachment(client, { note_id: note.id }, PNG_BYTES);
  expect(image.status, JSON.stringify(image.body)).toBe(201);
  const uploaded = await sendFile(client, '/api/market/bars', { contract: 'MNQH5' }, bars(barBase));
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBeLessThan(300);
  const connection = await client.post('/api/connections', { user_name: pxUser, api_key: pxKey });
  expect(connection.status, JSON.stringify(connection.body)).toBe(201);
  return { email, password, client, connectionId: connection.body.id, imageUrl: image.body.url };
}

/** What the trader sees, as the server sends it: the bytes of each answer. */
async function answers(client: ApiClient, trader: Trader): Promise<Record<string, string>> {
  const paths = [
    '/api/trades',
    '/api/reports/overview',
    '/api/reports/equity',
    '/api/notes',
    '/api/accounts',
    '/api/market/bars/coverage',
    `/api/connections/${trader.connectionId}`,
    trader.imageUrl,
  ];
  const out: Record<string, string> = {};
  for (const p of paths) {
    const res = await client.request('GET', p);
    expect(res.status, p).toBe(200);
    out[p] = Buffer.from(await res.arrayBuffer()).toString('base64');
  }
  return out;
}

/** Every stored row of every table, as PostgreSQL writes it: what a restore must give back. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tablesInOrder(database.db)) {
    out[table.name] = (await queryRows<{ j: string }>(database.db, everyRowText(table.name, table.columns))).map((r) => r.j);
  }
  return out;
}

const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `edgebook-${name}-`));

interface Instance {
  backend: Backend;
  dataDir: string;
  databaseUrl?: string;
}

async function newInstance(backend: Backend, name: string): Promise<Instance> {
  return { backend, dataDir: tempDir(name), ...(backend === 'postgres' && { databaseUrl: await createPostgresDatabase() }) };
}

const openInstance = (i: Instance) => openDatabase({ databaseUrl: i.databaseUrl, dataDir: i.dataDir, autovacuum: false, poolSize: 2 });

/** The server of an instance: AUTH_SECRET unset, so the secret is the generated one in DATA_DIR, which a backup carries. */
function startOn(i: Instance, px: ProjectXStandIn): Promise<TestApp> {
  return startTestApp({
    backend: 'pglite',
    env: {
      DATA_DIR: i.dataDir,
      AUTH_SECRET: '',
      PROJECTX_API_URL: px.url,
      PROJECTX_TIMEOUT: '5',
      ...(i.databaseUrl && { DATABASE_URL: i.databaseUrl }),
    },
  });
}

async function restoreInto(i: Instance, file: string) {
  const database = await openInstance(i);
  try {
    const summary = await restoreInstance({ database, dataDir: i.dataDir }, file);
    return { summary, rows: await everyRow(database) };
  } finally {
    await database.close();
  }
}

/** Signs each trader in anew on `app` and reads their answers there. */
async function answersOn(app: TestApp, traders: Trader[]) {
  const out: Array<Record<string, string>> = [];
  for (const t of traders) {
    const client = app.client();
    const signedIn = await client.signIn(t.email, t.password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect((await app.client().signIn(t.email, 'not-the-password')).status).toBe(401);
    out.push(await answers(client, t));
  }
  return out;
}

describe.each(backends())('instance backup and restore on %s', (backend) => {
  let px: ProjectXStandIn;
  let source: Instance;
  let traders: Trader[];
  let before: Array<Record<string, string>>;
  let rowsBefore: Record<string, string[]>;
  let file: string;
  const cleanup: string[] = [];

  beforeAll(async () => {
    px = await startProjectXServer({
      users: [
        { userName: 'alice.px', apiKey: KEY },
        { userName: 'bob.px', apiKey: OTHER_KEY },
      ],
    });
    source = await newInstance(backend, 'source');
    cleanup.push(source.dataDir);
    const app = await startOn(source, px);
    try {
      traders = [await newTrader(app, 'alice', 'alice.px', KEY, 21000), await newTrader(app, 'bob', 'bob.px', OTHER_KEY, 19000)];
      before = [];
      for (const t of traders) before.push(await answers(t.client, t));
    } finally {
      await app.close();
    }
    // With the server stopped, as the command runs.
    const database = await openInstance(source);
    try {
      rowsBefore = await everyRow(database);
      file = path.join(source.dataDir, '..', `${path.basename(source.dataDir)}.backup`);
      cleanup.push(file);
      const summary = await backupInstance({ database, dataDir: source.dataDir }, file);
      expect(summary.files).toBe(2);
    } finally {
      await database.close();
    }
  });

  afterAll(async () => {
    await px?.close();
    for (const p of cleanup) fs.rmSync(p, { recursive: true, force: true });
  });

  it('the backup holds every table: both traders, their sign-in rows, trades, notes, images, bars and connections', () => {
    for (const table of ['user', 'account', 'session', 'trades', 'notes', 'attachments', 'price_bars', 'broker_connections']) {
      expect(rowsBefore[table]?.length ?? 0, table).toBeGreaterThan(0);
    }
    expect(rowsBefore.user).toHaveLength(2);
    // The connections' keys are kept as the database holds them: encrypted, never in clear.
    expect(fs.readFileSync(file).includes(KEY)).toBe(false);
  });

  it('restores into an empty instance: every row, file and answer the same, each trader signs in with the same password', async () => {
    const target = await newInstance(backend, 'target');
    cleanup.push(target.dataDir);
    const restored = await restoreInto(target, file);
    expect(restored.rows).toEqual(rowsBefore);
    expect(restored.summary.files).toBe(2);

    const app = await startOn(target, px);
    try {
      expect(await answersOn(app, traders)).toEqual(before);
      // Each connection's key still opens with the restored instance's secret, bound to its row as before.
      const keys = await queryRows<{ id: string; user_id: string; secret: string }>(
        app.server.database.db,
        sql`select id, user_id, secret from broker_connections order by user_name`,
      );
      expect(keys.map((k) => app.server.connections.box.open(k.secret, secretBinding(k.id, k.user_id)))).toEqual([KEY, OTHER_KEY]);
    } finally {
      await app.close();
    }

    // Now it is not empty: a second restore is refused with words, and changes nothing.
    const database = await openInstance(target);
    try {
      const rows = await everyRow(database);
      const refused = restoreInstance({ database, dataDir: target.dataDir }, file);
      await expect(refused).rejects.toBeInstanceOf(RestoreRefused);
      await expect(refused).rejects.toThrow(/not empty.*restored only into an empty instance/);
      expect(await everyRow(database)).toEqual(rows);
    } finally {
      await database.close();
    }
  });

  it('refuses a file cut short, storing nothing', async () => {
    const cut = `${file}.cut`;
    cleanup.push(cut);
    const whole = fs.readFileSync(file);
    // A gzip stream cut in its middle: the end line never comes.
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const target = await newInstance(backend, 'cut');
    cleanup.push(target.dataDir);
    const database = await openInstance(target);
    try {
      await expect(restoreInstance({ database, dataDir: target.dataDir }, cut)).rejects.toThrow();
      const rows = await everyRow(database);
      expect(Object.values(rows).every((r) => r.length === 0)).toBe(true);
      expect(fs.existsSync(path.join(target.dataDir, 'uploads'))).toBe(false);
    } finally {
      await database.close();
    }
  });

  it.runIf(backend === 'pglite')(
    'npm run backup and npm run restore: the commands read DATA_DIR as the server does, and refuse in words',
    async () => {
      const cli = (command: string, file: string, dataDir: string) =>
        new Promise<{ code: number; out: string }>((resolve) => {
          // A clean environment, as a shell would give it (the test runner's own variables, BASE_URL among them, left out).
          // DATABASE_URL and AUTH_SECRET set empty, so that a developer's .env cannot fill them in.
          const env = {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DATA_DIR: dataDir,
            DATABASE_URL: '',
            AUTH_SECRET: '',
            NODE_ENV: 'test',
          };
          execFile(
            process.execPath,
            ['--import', 'tsx', 'src/server/ops/instance-cli.ts', command, file],
            { env, timeout: 120_000 },
            (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
          );
        });
      const copy = `${file}.cli`;
      cleanup.push(copy);
      const backedUp = await cli('backup', copy, source.dataDir);
      expect(backedUp.out).toMatch(/^Backed up the embedded database in .* to .*: \d+ tables, \d+ rows, 2 files\.$/m);
      expect(backedUp.code).toBe(0);
      const target = await newInstance('pglite', 'cli');
      cleanup.push(target.dataDir);
      const restored = await cli('restore', copy, target.dataDir);
      expect(restored.out).toMatch(/^Restored .* into the embedded database in .*: \d+ tables, \d+ rows, 2 files\.$/m);
      expect(restored.code).toBe(0);
      const again = await cli('restore', copy, target.dataDir);
      expect(again.code).toBe(1);
      expect(again.out).toContain('This instance is not empty');
      const database = await openInstance(target);
      try {
        expect(await everyRow(database)).toEqual(rowsBefore);
      } finally {
        await database.close();
      }
    },
  );

  it.runIf(backend === 'postgres')(
    'backs up PostgreSQL while the server takes trades: one snapshot, its rollups agreeing with its trades',
    async () => {
      const live = await newInstance('postgres', 'live');
      cleanup.push(live.dataDir);
      const app = await startOn(live, px);
      const database = await openInstance(live);
      const copy = path.join(live.dataDir, '..', `${path.basename(live.dataDir)}.backup`);
      cleanup.push(copy);
      let acknowledged = 0;
      let atStart = 0;
      try {
        const client = app.client();
        expect((await client.signUp(uniqueEmail('live'), PASSWORD)).status).toBe(200);
        let writing = true;
        // One trade after another, each acknowledged before the next, for as long as the backup runs.
        const writer = (async () => {
          for (let i = 0; writing; i++) {
            const res = await client.post('/api/trades', { date: '2025-03-05', period: 'AM', symbol: 'MNQ', pnl: `${(i % 7) - 3}.25` });
            expect(res.status, JSON.stringify(res.body)).toBe(201);
            acknowledged++;
          }
        })();
        while (acknowledged < 5) await new Promise((resolve) => setTimeout(resolve, 10));
        atStart = acknowledged;
        try {
          await backupInstance({ database, dataDir: live.dataDir }, copy);
        } finally {
          writing = false;
          await writer;
        }
      } finally {
        await database.close();
        await app.close();
      }
      const target = await newInstance('postgres', 'live-target');
      cleanup.push(target.dataDir);
      const restored = await restoreInto(target, copy);
      const trades = restored.rows.trades!.map((j) => JSON.parse(j) as { pnl: string });
      // Every trade acknowledged before the backup began is in it; none that was never acknowledged.
      expect(trades.length).toBeGreaterThanOrEqual(atStart);
      expect(trades.length).toBeLessThanOrEqual(acknowledged);
      // The per-day rollups were read in the same instant as the trades: their counts and sum agree to the cent.
      const day = restored.rows
        .trade_day_rollups!.map((j) => JSON.parse(j) as { scope: string; trades: number; pnl: string })
        .find((r) => r.scope === 'all');
      const cents = trades.reduce((sum, t) => sum + Math.round(Number(t.pnl) * 100), 0);
      expect({ trades: day?.trades, cents: Math.round(Number(day?.pnl) * 100) }).toEqual({ trades: trades.length, cents });
    },
  );

  it.runIf(backend === 'pglite')('npm run backup refuses, in words, the data directory of a running embedded server', async () => {
    const app = await startOn(source, px);
    try {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATA_DIR: source.dataDir,
        DATABASE_URL: '',
        AUTH_SECRET: '',
        NODE_ENV: 'test',
      };
      const copy = `${file}.running`;
      cleanup.push(copy);
      const out = await new Promise<{ code: number; text: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/server/ops/instance-cli.ts', 'backup', copy],
          { env, timeout: 120_000 },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, text: `${stdout}${stderr}` }),
        );
      });
      expect(out.code).toBe(1);
      expect(out.text).toContain(`The data directory ${source.dataDir} is in use by another Edgebook server (pid ${process.pid})`);
      expect(fs.existsSync(copy)).toBe(false);
    } finally {
      await app.close();
    }
  });

  it.runIf(backend === 'pglite' && backends().includes('postgres'))('moves the embedded instance onto PostgreSQL', async () => {
    const target = await newInstance('postgres', 'moved');
    cleanup.push(target.dataDir);
    const restored = await restoreInto(target, file);
    expect(restored.rows).toEqual(rowsBefore);
    const app = await startOn(target, px);
    try {
      expect(app.server.database.kind).toBe('postgres');
      expect(await answersOn(app, traders)).toEqual(before);
    } finally {
      await app.close();
    }
  });
});
