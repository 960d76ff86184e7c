import { sql } from 'drizzle-orm';
import type { Tx } from './client';

/**
 * What a transaction may hold a lock on while it checks and then writes: another transaction asking for the same
 * scope and key waits until the first commits or rolls back, and then reads what the first wrote. For checks that no
 * row can be locked for (nothing exists yet: the first chat session, a recurring task's copy for a day, a trade
 * another export already holds).
 */
export type LockScope =
  'trading_accounts' | 'account_imports' | 'chat_sessions' | 'recurring_tasks' | 'trade_preferences' | 'journal_notes' | 'mistake_tags';

/**
 * Takes the transaction-level advisory lock of `scope` and `key` (two hashed int4s), held until the transaction ends.
 * A hash collision of two keys costs only some waiting, never a wrong answer.
 */
export async function lockFor(tx: Tx, scope: LockScope, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`);
}
