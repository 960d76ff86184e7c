import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { trades } from '../../db/schema';

/** Import keys per statement: far below PostgreSQL's 65,535 bind parameters. */
const KEY_CHUNK = 5_000;

/** What the imports feature reads besides the trades repository: the import keys an account already holds. */
export const importsRepo = (tx: Tx, userId: string) => ({
  /** The subset of `keys` that trades of this account already carry (the duplicates a confirm would skip). */
  async existingKeys(accountId: string, keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += KEY_CHUNK) {
      const rows = await tx
        .select({ key: trades.importKey })
        .from(trades)
        .where(
          and(
            eq(trades.userId, userId),
            eq(trades.accountId, accountId),
            isNotNull(trades.importKey),
            inArray(trades.importKey, keys.slice(i, i + KEY_CHUNK)),
          ),
        );
      for (const row of rows) if (row.key) found.add(row.key);
    }
    return found;
  },
});
