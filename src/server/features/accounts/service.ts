import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { conflict, notFound } from '../../http/errors';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { accountsRepo, type AccountValues } from '../../core/accounts/repo';
import type { TradingAccount } from '../../../contract/accounts';
import type { AccountInput, AccountPatch } from './schemas';

export type AccountRow = Awaited<ReturnType<ReturnType<typeof accountsRepo>['list']>>[number];

export function toAccountDto(row: AccountRow): TradingAccount {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_default: row.isDefault,
    kind: row.kind as TradingAccount['kind'],
    size: row.size,
    starting_balance: row.startingBalance,
    firm: row.firm,
    currency: row.currency as TradingAccount['currency'],
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

const money = (value: string | number) => centsToDecimalString(toCents(value));
const firmOf = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value === '' ? null : value);

/** The columns of a create or an edit; a field left out stays as it is. */
function valuesOf(input: Omit<AccountPatch, 'name' | 'is_default'>): Partial<AccountValues> {
  const firm = firmOf(input.firm);
  return {
    ...(input.description !== undefined && { description: input.description }),
    ...(input.kind !== undefined && { kind: input.kind }),
    ...(input.size !== undefined && { size: input.size === null ? null : money(input.size) }),
    ...(input.starting_balance !== undefined && { startingBalance: money(input.starting_balance) }),
    ...(firm !== undefined && { firm }),
    ...(input.currency !== undefined && { currency: input.currency }),
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
  list: (db: Database, userId: string) => db.withUser(userId, async (tx) => (await accountsRepo(tx, userId).list()).map(toAccountDto)),

  create: (db: Database, userId: string, input: AccountInput) =>
    db.withUser(userId, async (tx) => {
      const repo = accountsRepo(tx, userId);
      await lockAccounts(tx, userId);
      // A trader's first account becomes the default, so new trades always have a home.
      const isDefault = input.is_default || (await repo.list()).length === 0;
      if (isDefault) await repo.clearDefault();
      return toAccountDto(
        await repo.insert({
          kind: 'personal',
          size: null,
          startingBalance: '10000',
          firm: null,
          ...valuesOf(input),
          description: input.description ?? null,
          name: input.name,
          isDefault,
        }),
      );
    }),

  update: (db: Database, userId: string, id: string, patch: AccountPatch) =>
    db.withUser(userId, async (tx) => {
      const repo = accountsRepo(tx, userId);
      await lockAccounts(tx, userId);
      const current = await repo.find(id);
      if (!current) throw notFound('Trading account not found');
      // Its trades' amounts are in its currency: relabelling them would say they were in another.
      if (patch.currency !== undefined && patch.currency !== current.currency && (await repo.hasTrades(id))) {
        throw conflict(`Cannot change the currency of an account with trades: its amounts are in ${current.currency}`, {
          code: 'account-currency',
          fields: [{ field: 'currency', message: 'the account has trades' }],
        });
      }
      if (patch.is_default) await repo.clearDefault();
      const values = valuesOf(patch);
      const row = await repo.update(id, {
        ...(patch.name !== undefined && { name: patch.name }),
        ...values,
        ...(patch.is_default !== undefined && { isDefault: patch.is_default }),
      });
      if (values.firm !== undefined) await repo.setLedgerFirm(id, values.firm);
      return toAccountDto(row!);
    }),

  setDefault: (db: Database, userId: string, id: string) => accountsService.update(db, userId, id, { is_default: true }),

  remove: (db: Database, userId: string, id: string) =>
    db.withUser(userId, async (tx) => {
      const repo = accountsRepo(tx, userId);
      // An import or a broker sync into the account goes first, or after: it takes this lock before its rows (the broker
      // account it maps, then the trades' key-share on the account), and the delete's cascade takes them the other way
      // round, which on PostgreSQL was a deadlock and a 500.
      await lockFor(tx, 'account_imports', id);
      if (!(await repo.lockForDelete(id))) throw notFound('Trading account not found');
      // An account that any trade references cannot be deleted.
      if (await repo.hasTrades(id)) {
        throw conflict('Cannot delete account with existing trades', {
          description: 'Please delete all trades for this account first',
        });
      }
      await repo.remove(id);
    }),
};
