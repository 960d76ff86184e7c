import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Tx } from '../db/client';

/**
 * The whole instance in one file, and back: every table of the schema (traders, their sign-in data, sessions, trades,
 * notes, bars, connections with their keys as the database holds them, encrypted), every uploaded file, and the
 * generated auth secret when the instance uses one. On PostgreSQL it may run beside a serving server (one snapshot);
 * the embedded database's data directory is the running server's alone.
 *
 * The file is gzip'd JSON lines: a header (format, version, schema), then per table its columns and one line per row,
 * then one line per file, then an end line with the counts. A restore that does not reach the end line stores nothing.
 * Rows are written and read by PostgreSQL itself (row_to_json, json_populate_recordset), so every type comes back as
 * it was: exact numerics, instants, arrays, json.
 */

export const BACKUP_FORMAT = 'edgebook-instance';
export const BACKUP_VERSION = 1;

/** Rows fetched from a cursor, and rows inserted, per statement. */
const ROWS_PER_STATEMENT = 500;

export interface BackupHeader {
  kind: 'header';
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  /** The migrations applied to the database backed up: a restore needs the same ones. */
  schema: { migrations: number; last: string | null };
  database: Database['kind'];
  /**
   * Where the auth secret came from. It encrypts the connections' keys and signs sessions, so the restored instance
   * needs the same one: the generated file's value travels in the backup, a value set by AUTH_SECRET only as a
   * fingerprint to check against.
   */
  secret: { source: 'file'; value: string; fingerprint: string } | { source: 'env'; fingerprint: string } | { source: 'none' };
}

type Line =
  | BackupHeader
  | { kind: 'table'; name: string; columns: string[] }
  | { kind: 'row'; row: Record<string, unknown> }
  | { kind: 'file'; path: string; base64: string }
  | { kind: 'end'; tables: number; rows: number; files: number };

export interface InstancePlace {
  database: Database;
  /** DATA_DIR: uploads live under `uploads/`, the generated secret in `auth-secret`. */
  dataDir: string;
  /** AUTH_SECRET when set. */
  authSecret?: string;
}

export interface BackupSummary {
  tables: number;
  rows: number;
  files: number;
}

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

const fingerprint = (secret: string) => crypto.createHash('sha256').update(`edgebook-auth-secret:${secret}`).digest('hex').slice(0, 16);

interface TableInfo {
  name: string;
  /** Stored columns only: generated ones are computed again on insert. */
  columns: string[];
}

/** Every table of the schema, parents before the tables whose foreign keys point at them. */
async function tablesInOrder(tx: Pick<Tx, 'execute'>): Promise<TableInfo[]> {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    tx,
    sql`select c.table_name, c.column_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
        order by c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table_name, column_name } of columns) {
    const list = byTable.get(table_name) ?? [];
    list.push(column_name);
    byTable.set(table_name, list);
  }
  const edges = await queryRows<{ child: string; parent: string }>(
    tx,
    sql`select child.relname as child, parent.relname as parent from pg_constraint k
        join pg_class child on child.oid = k.conrelid
        join pg_class parent on parent.oid = k.confrelid
        where k.contype = 'f' and k.connamespace = current_schema()::regnamespace and k.conrelid <> k.confrelid`,
  );
  const parents = new Map<string, Set<string>>([...byTable.keys()].map((name) => [name, new Set<string>()]));
  for (const { child, parent } of edges) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < parents.size) {
    const ready = [...parents].filter(([name, of]) => !placed.has(name) && [...of].every((p) => placed.has(p) || !parents.has(p)));
    if (ready.length === 0) throw new Error(`the tables' foreign keys form a cycle: ${[...parents.keys()].filter((n) => !placed.has(n)).join(', ')}`);
    for (const [name] of ready.sort(([a], [b]) => a.localeCompare(b))) {
      ordered.push(name);
      placed.add(name);
    }
  }
  return ordered.map((name) => ({ name, columns: byTable.get(name)! }));
}

/** The migrations applied to this database, as drizzle records them. */
async function appliedMigrations(tx: Pick<Tx, 'execute'>): Promise<BackupHeader['schema']> {
  const rows = await queryRows<{ n: number; last: string | null }>(
    tx,
    sql`select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  return { migrations: Number(rows[0]?.n ?? 0), last: rows[0]?.last ?? null };
}

const columnList = (columns: string[]) =>
  sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );

function uploadsDir(dataDir: string) {
  return path.join(dataDir, 'uploads');
}

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

function readIfPresent(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function secretOf(place: InstancePlace): BackupHeader['secret'] {
  if (place.authSecret) return { source: 'env', fingerprint: fingerprint(place.authSecret) };
  const file = path.join(place.dataDir, 'auth-secret');
  if (!fs.existsSync(file)) return { source: 'none' };
  const value = fs.readFileSync(file, 'utf8').trim();
  return { source: 'file', value, fingerprint: fingerprint(value) };
}

/**
 * Writes the instance to `file` (gzip'd JSON lines), from one read-only snapshot of the database. The file appears
 * only once complete.
 */
export async function backupInstance(place: InstancePlace, file: string, now = new Date()): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  const summary: BackupSummary = { tables: 0, rows: 0, files: 0 };
  const { database } = place;
  async function* lines(): AsyncGenerator<string> {
    const tx = await beginSnapshot(database);
    try {
      const header: BackupHeader = {
        kind: 'header',
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        created_at: now.toISOString(),
        schema: await appliedMigrations(tx.tx),
        database: database.kind,
        secret: secretOf(place),
      };
      yield `${JSON.stringify(header)}\n`;
      for (const table of await tablesInOrder(tx.tx)) {
        summary.tables++;
        yield `${JSON.stringify({ kind: 'table', name: table.name, columns: table.columns } satisfies Line)}\n`;
        await tx.tx.execute(
          sql`declare edgebook_backup no scroll cursor for select row_to_json(r)::text as j from (select ${columnList(table.columns)} from ${sql.identifier(table.name)}) r`,
        );
        for (;;) {
          const rows = await queryRows<{ j: string }>(tx.tx, sql.raw(`fetch forward ${ROWS_PER_STATEMENT} from edgebook_backup`));
          for (const { j } of rows) yield `{"kind":"row","row":${j}}\n`;
          summary.rows += rows.length;
          if (rows.length < ROWS_PER_STATEMENT) break;
        }
        await tx.tx.execute(sql`close edgebook_backup`);
      }
    } finally {
      await tx.end();
    }
    const root = uploadsDir(place.dataDir);
    for (const relative of filesUnder(root)) {
      // On PostgreSQL a running server may delete an upload after it was listed: gone, it is left out.
      const bytes = readIfPresent(path.join(root, relative));
      if (!bytes) continue;
      summary.files++;
      const base64 = bytes.toString('base64');
      yield `${JSON.stringify({ kind: 'file', path: relative, base64 } satisfies Line)}\n`;
    }
    yield `${JSON.stringify({ kind: 'end', ...summary } satisfies Line)}\n`;
  }
  try {
    await pipeline(Readable.from(lines()), zlib.createGzip(), fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return summary;
}

/**
 * A transaction held open across the generator's yields: drizzle's transaction takes a callback, so it is started
 * here and ended by resolving the promise the callback waits on.
 */
async function beginSnapshot(database: Database): Promise<{ tx: Tx; end(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: (tx: Tx) => void;
  const ready = new Promise<Tx>((resolve) => (started = resolve));
  const done = database.db.transaction(
    async (tx) => {
      started(tx);
      await released;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const tx = await Promise.race([ready, done.then(() => Promise.reject(new Error('the snapshot ended before it began')))]);
  return {
    tx,
    async end() {
      release();
      await done;
    },
  };
}

async function* readLines(file: string): AsyncGenerator<Line> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  const reader = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const text of reader) {
    if (text.length > 0) yield JSON.parse(text) as Line;
  }
}

/** What a restore found in the target before it began: a reason to refuse, or null when the instance is empty. */
async function notEmpty(tx: Pick<Tx, 'execute'>, tables: TableInfo[], dataDir: string): Promise<string | null> {
  for (const table of tables) {
    const [row] = await queryRows<{ any: boolean }>(tx, sql`select exists (select from ${sql.identifier(table.name)}) as any`);
    if (row?.any) return `its table ${table.name} has rows`;
  }
  const files = filesUnder(uploadsDir(dataDir));
  if (files.length > 0) return `${uploadsDir(dataDir)} holds ${files.length} file(s)`;
  return null;
}

/**
 * Loads a backup into an empty instance, already migrated (opening the database runs the migrations), in one
 * transaction: the tables in the file's order (parents first), their triggers off meanwhile because the rows they
 * would derive (rollups, versions, the change log) are in the file too. Files are written beside the uploads
 * directory and moved in after the commit; the generated secret is written when the backup carried one.
 */
export async function restoreInstance(place: InstancePlace, file: string): Promise<BackupSummary> {
  const { database, dataDir } = place;
  if (!fs.existsSync(file)) throw new RestoreRefused(`There is no backup file ${file}.`);
  const staging = path.join(dataDir, 'uploads.restoring');
  fs.rmSync(staging, { recursive: true, force: true });
  const summary: BackupSummary = { tables: 0, rows: 0, files: 0 };
  let header: BackupHeader | undefined;
  try {
    await database.db.transaction(async (tx) => {
      const tables = await tablesInOrder(tx);
      const known = new Map(tables.map((t) => [t.name, t]));
      const reason = await notEmpty(tx, tables, dataDir);
      if (reason) {
        throw new RestoreRefused(
          `This instance is not empty (${reason}). A backup is restored only into an empty instance: ` +
            'point DATA_DIR at a new directory, or DATABASE_URL at a new database, and run the restore again.',
        );
      }
      let table: TableInfo | undefined;
      let pending: string[] = [];
      const disabled: string[] = [];
      const flush = async () => {
        if (!table || pending.length === 0) return;
        const columns = columnList(table.columns);
        const rows = `[${pending.join(',')}]`;
        await tx.execute(
          sql`insert into ${sql.identifier(table.name)} (${columns}) select ${columns} from json_populate_recordset(null::${sql.identifier(table.name)}, ${rows}::json)`,
        );
        summary.rows += pending.length;
        pending = [];
      };
      let ended = false;
      for await (const line of readLines(file)) {
        if (ended) throw new RestoreRefused('The backup file goes on after its end: it is not a file this version wrote.');
        if (!header) {
          if (line.kind !== 'header' || line.format !== BACKUP_FORMAT) throw new RestoreRefused(`${file} is not an Edgebook instance backup.`);
          if (line.version !== BACKUP_VERSION) {
            throw new RestoreRefused(
              `${file} is a backup of format version ${line.version}; this version of Edgebook reads version ${BACKUP_VERSION}.`,
            );
          }
          header = line;
          const here = await appliedMigrations(tx);
          if (here.migrations !== line.schema.migrations) {
            throw new RestoreRefused(
              `The backup was made by a version of Edgebook with ${line.schema.migrations} database migrations; this one has ${here.migrations}. ` +
                'Restore it with the version that made it, then upgrade as usual (the migrations run when the server starts).',
            );
          }
          checkSecret(line.secret, place);
          continue;
        }
        switch (line.kind) {
          case 'table': {
            await flush();
            const target = known.get(line.name);
            if (!target || target.columns.join() !== line.columns.join()) {
              throw new RestoreRefused(`The backup's table ${line.name} does not match this database's schema.`);
            }
            table = target;
            summary.tables++;
            await tx.execute(sql`alter table ${sql.identifier(table.name)} disable trigger user`);
            disabled.push(table.name);
            break;
          }
          case 'row':
            if (!table) throw new RestoreRefused('The backup file has a row before any table.');
            pending.push(JSON.stringify(line.row));
            if (pending.length >= ROWS_PER_STATEMENT) await flush();
            break;
          case 'file': {
            await flush();
            const target = path.resolve(staging, line.path);
            if (!target.startsWith(staging + path.sep)) throw new RestoreRefused(`The backup names a file outside the uploads: ${line.path}`);
            fs.mkdirSync(path.dirname(target), { recursive: true });
            fs.writeFileSync(target, Buffer.from(line.base64, 'base64'));
            summary.files++;
            break;
          }
          case 'end':
            await flush();
            if (line.tables !== summary.tables || line.rows !== summary.rows || line.files !== summary.files) {
              throw new RestoreRefused('The backup file is damaged: its counts do not match its contents.');
            }
            ended = true;
            break;
          default:
            throw new RestoreRefused('The backup file has a line this version does not know.');
        }
      }
      if (!header) throw new RestoreRefused(`${file} is empty.`);
      if (!ended) throw new RestoreRefused('The backup file is cut short (no end line): nothing was restored.');
      for (const name of disabled) await tx.execute(sql`alter table ${sql.identifier(name)} enable trigger user`);
    });
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const uploads = uploadsDir(dataDir);
  if (fs.existsSync(staging)) {
    fs.rmSync(uploads, { recursive: true, force: true });
    fs.renameSync(staging, uploads);
  }
  if (header?.secret.source === 'file') {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'auth-secret'), header.secret.value, { mode: 0o600 });
  }
  return summary;
}

/** The restored instance must sign and decrypt with the secret the backed-up one used. */
function checkSecret(secret: BackupHeader['secret'], place: InstancePlace) {
  if (secret.source === 'none') return;
  if (secret.source === 'env' && !place.authSecret) {
    throw new RestoreRefused(
      'The backed-up instance took its secret from AUTH_SECRET: set the same AUTH_SECRET for the restore (and for the server), ' +
        "or the connections' saved keys could not be read.",
    );
  }
  if (place.authSecret && fingerprint(place.authSecret) !== secret.fingerprint) {
    throw new RestoreRefused(
      secret.source === 'env'
        ? 'AUTH_SECRET differs from the one the backed-up instance used: set the same value.'
        : 'AUTH_SECRET is set, but the backed-up instance used a generated secret (kept in the backup): unset AUTH_SECRET ' +
            "for the restore and the server, or the connections' saved keys could not be read.",
    );
  }
}

/** Exported for the tests: the SQL that lists every stored row of a table, in a stable order, as text. */
export function everyRowText(table: string, columns: string[]): SQL {
  return sql`select row_to_json(r)::text as j from (select ${columnList(columns)} from ${sql.identifier(table)}) r order by 1`;
}

export { tablesInOrder };
