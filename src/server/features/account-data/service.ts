import { eq, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { AccountExport } from '../../../contract/account';
import type { Database } from '../../db/client';
import * as schema from '../../db/schema';
import type { FileStorage } from '../../storage';

/**
 * Export everything a trader owns as one JSON file, and delete the account with everything it owns ("Account
 * controls"). Both find the owned tables in the schema (every table with a `user_id` column), so a table
 * added later is exported and deleted without anyone remembering to list it here.
 */

/** better-auth's tables: exported without secrets (password hashes, tokens, TOTP secrets), never as raw rows. */
const AUTH_TABLES = new Set(['user', 'session', 'account', 'verification', 'two_factor', 'rate_limit']);

/**
 * Columns an export leaves out: a broker connection's API key, even as ciphertext, never leaves the server.
 */
const NEVER_EXPORTED: Readonly<Record<string, readonly string[]>> = { broker_connections: ['secret'] };

/** Every owned table of the schema, in the order the schema declares them. */
export function ownedTablesInSchema(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .filter((table) => !AUTH_TABLES.has(getTableName(table)))
    .filter((table) => getTableConfig(table).columns.some((column) => column.name === 'user_id'))
    .map((table) => getTableName(table));
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export type { AccountExport };

export function createAccountDataService(deps: { database: Database; storage: FileStorage }) {
  const { database, storage } = deps;
  const iso = (value: Date | string) => new Date(value).toISOString();

  return {
    async exportAll(userId: string, now: Date): Promise<AccountExport> {
      const [user] = await database.db.select().from(schema.user).where(eq(schema.user.id, userId));
      if (!user) throw new Error('exportAll: no such user');
      const methods = await database.db
        .select({ provider: schema.account.providerId, createdAt: schema.account.createdAt })
        .from(schema.account)
        .where(eq(schema.account.userId, userId));
      const sessions = await database.db
        .select({
          createdAt: schema.session.createdAt,
          expiresAt: schema.session.expiresAt,
          ipAddress: schema.session.ipAddress,
          userAgent: schema.session.userAgent,
        })
        .from(schema.session)
        .where(eq(schema.session.userId, userId));

      // One transaction as the trader: row-level security applies, and the export is one consistent snapshot.
      const tables = await database.withUser(userId, async (tx) => {
        const out: Record<string, Record<string, unknown>[]> = {};
        for (const name of ownedTablesInSchema()) {
          const rows = rowsOf(await tx.execute(sql`select * from ${sql.identifier(name)} where user_id = ${userId} order by 1`));
          for (const column of NEVER_EXPORTED[name] ?? []) for (const row of rows) delete row[column];
          out[name] = rows;
        }
        return out;
      });

      const files: AccountExport['files'] = [];
      for (const key of await storage.listOwned(userId)) {
        const bytes = await storage.get(key);
        if (bytes) files.push({ key, size: bytes.byteLength, base64: Buffer.from(bytes).toString('base64') });
      }

      return {
        format: 'edgebook-export',
        version: 1,
        exported_at: now.toISOString(),
        user: {
          id: user.id,
          name: user.name,
          email: user.email,
          email_verified: user.emailVerified,
          two_factor_enabled: user.twoFactorEnabled,
          created_at: iso(user.createdAt),
        },
        sign_in_methods: methods.map((m) => ({ provider: m.provider, created_at: iso(m.createdAt) })),
        sessions: sessions.map((s) => ({
          created_at: iso(s.createdAt),
          expires_at: iso(s.expiresAt),
          ip_address: s.ipAddress,
          user_agent: s.userAgent,
        })),
        tables,
        files,
      };
    },

    /**
     * Deletes the account and everything it owns in one transaction: the user row (its owned rows and sessions
     * follow by cascade), then any row still carrying the user's id in a table the cascade does not reach, and the
     * auth system's one-time values (reset links, two-factor challenges). Files go after the commit.
     */
    async deleteAll(userId: string): Promise<void> {
      await database.db.transaction(async (tx) => {
        await tx.delete(schema.user).where(eq(schema.user.id, userId));
        const leftovers = rowsOf(
          await tx.execute(sql`
            select c.table_name from information_schema.columns c
            join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
            where c.table_schema = current_schema() and c.column_name = 'user_id' and t.table_type = 'BASE TABLE'`),
        );
        for (const { table_name } of leftovers) {
          await tx.execute(sql`delete from ${sql.identifier(String(table_name))} where user_id::text = ${userId}`);
        }
        await tx.delete(schema.verification).where(eq(schema.verification.value, userId));
      });
      for (const key of await storage.listOwned(userId)) await storage.remove(key);
    },
  };
}
