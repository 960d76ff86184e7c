import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { conflict, notFound } from '../../http/errors';
import { accountsRepo } from './repo';
import type { TradingAccount } from '../../../contract/accounts';
import type { AccountInput, AccountPatch } from './schemas';

export type AccountRow = Awaited<ReturnType<ReturnType<typeof accountsRepo>['list']>>[number];

export function toAccountDto(row: AccountRow): TradingAccount {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_default: row.isDefault,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * Serialises a trader's default-account changes: two concurrent "make X default" requests would otherwise both
 * clear the old default and then collide on the unique index. The lock lives only for the transaction.
 */
async function lockAccounts(tx: Tx, userId: string) {
  await lockFor(tx, 'trading_accounts', userId);
}

export const accountsService = {
  list: (db: Database, userId: string) =>
    db.withUser(userId, async (tx) => (await accountsRepo(tx, userId).list()).map(toAccountDto)),

  create: (db: Database, userId: string, input: AccountInput) =>
    db.withUser(userId, async (tx) => {
      const repo = accountsRepo(tx, userId);
      await lockAccounts(tx, userId);
      // A trader's first account becomes the default, so new trades always have a home.
      const isDefault = input.is_default || (await repo.list()).length === 0;
      if (isDefault) await repo.clearDefault();
      return toAccountDto(await repo.insert({ name: input.name, description: input.description ?? null, isDefault }));
    }),

  update: (db: Database, userId: string, id: string, patch: AccountPatch) =>
    db.withUser(userId, async (tx) => {
      const repo = accountsRepo(tx, userId);
      await lockAccounts(tx, userId);
      if (!(await repo.find(id))) throw notFound('Trading account not found');
      if (patch.is_default) await repo.clearDefault();
      const row = await repo.update(id, {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.is_default !== undefined && { isDefault: patch.is_default }),
      });
      return toAccountDto(row!);
    }),

  setDefault: (db: Database, userId: string, id: string) => accountsService.update(db, userId, id, { is_default: true }),

  remove: (db: Database, userId: string, id: string) =>
    db.withUser(userId, async (tx) => {
      const repo = accountsRepo(tx, userId);
      if (!(await repo.lockForDelete(id))) throw notFound('Trading account not found');
      // Part 1 §5: an account that any trade references cannot be deleted.
      if (await repo.hasTrades(id)) {
        throw conflict('Cannot delete account with existing trades', {
          description: 'Please delete all trades for this account first',
        });
      }
      await repo.remove(id);
    }),
};
