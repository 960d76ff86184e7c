import { writeTrades } from '../../core/trades/write';
import { accountsRepo } from '../../core/accounts/repo';
import type { FeeScheduleApplied, FeeScheduleDto } from '../../../contract/imports';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_FEE_SCHEDULE, parseRate, resultOf, retagForNet, scheduledCommission, type FeeSchedule } from '../../../domain/importers';
import { centsToDecimalString, toCents } from '../../../domain/money';
import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { feeSchedules, trades } from '../../db/schema';
import { badRequest } from '../../http/errors';

/**
 * Commission and fee schedules of trading accounts: read and saved per account, applied to an
 * import whose file has no costs, and applied again to the account's imported trades on request.
 */

export const ACCOUNT_NOT_FOUND = 'account_id: Trading account not found';

/** Rates as stored (numeric(10,4) comes back as "0.6200") shown as the trader wrote them ("0.62"). */
const rate = (value: string) => value.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

export function toFeeScheduleDto(accountId: string, schedule: FeeSchedule, stored: boolean): FeeScheduleDto {
  return { account_id: accountId, micro: schedule.micro, mini: schedule.mini, roots: schedule.roots, stored, defaults: DEFAULT_FEE_SCHEDULE };
}

export const feeSchedulesRepo = (tx: Tx, userId: string) => ({
  /** The schedules of these accounts; accounts without a saved one get the defaults. */
  async forAccounts(accountIds: string[]): Promise<Map<string, { schedule: FeeSchedule; stored: boolean }>> {
    const result = new Map<string, { schedule: FeeSchedule; stored: boolean }>();
    for (const id of accountIds) result.set(id, { schedule: DEFAULT_FEE_SCHEDULE, stored: false });
    if (accountIds.length === 0) return result;
    const rows = await tx
      .select()
      .from(feeSchedules)
      .where(and(eq(feeSchedules.userId, userId), inArray(feeSchedules.accountId, accountIds)));
    for (const row of rows) {
      result.set(row.accountId, {
        schedule: { micro: rate(row.micro), mini: rate(row.mini), roots: (row.roots ?? {}) as Record<string, string> },
        stored: true,
      });
    }
    return result;
  },

  async save(accountId: string, schedule: FeeSchedule) {
    await tx
      .insert(feeSchedules)
      .values({ userId, accountId, micro: schedule.micro, mini: schedule.mini, roots: schedule.roots })
      .onConflictDoUpdate({
        target: [feeSchedules.userId, feeSchedules.accountId],
        set: { micro: schedule.micro, mini: schedule.mini, roots: schedule.roots, updatedAt: sql`now()` },
      });
  },
});

async function assertAccount(tx: Tx, userId: string, accountId: string) {
  if (!(await accountsRepo(tx, userId).exists(accountId))) throw badRequest(ACCOUNT_NOT_FOUND, { code: 'account-not-found' });
}

/** A schedule as the trader sent it: rates of 0 to 1000 dollars, roots of 1 to 6 letters or digits. */
export function readSchedule(input: { micro: string | number; mini: string | number; roots?: Record<string, string | number> }): FeeSchedule {
  const check = (field: string, value: string | number) => {
    const text = String(value).trim();
    if (parseRate(text) === null) throw badRequest(`${field}: must be an amount from 0 to 1000 dollars with at most 4 decimals`);
    return text;
  };
  const roots: Record<string, string> = {};
  for (const [root, value] of Object.entries(input.roots ?? {})) {
    const name = root.trim().toUpperCase();
    if (!/^[A-Z0-9]{1,6}$/.test(name)) throw badRequest(`roots: '${root.slice(0, 20)}' is not an instrument root (e.g. MNQ)`);
    roots[name] = check(`roots.${name}`, value);
  }
  return { micro: check('micro', input.micro), mini: check('mini', input.mini), roots };
}

export const feeSchedulesService = {
  get: (db: Database, userId: string, accountId: string) =>
    db.withUser(userId, async (tx) => {
      await assertAccount(tx, userId, accountId);
      const { schedule, stored } = (await feeSchedulesRepo(tx, userId).forAccounts([accountId])).get(accountId)!;
      return toFeeScheduleDto(accountId, schedule, stored);
    }),

  save: (db: Database, userId: string, accountId: string, schedule: FeeSchedule) =>
    db.withUser(userId, async (tx) => {
      await assertAccount(tx, userId, accountId);
      await feeSchedulesRepo(tx, userId).save(accountId, schedule);
      return toFeeScheduleDto(accountId, schedule, true);
    }),

  /**
   * Applies the account's schedule again to its trades whose commission came from a schedule (the file had none), in
   * one transaction: commission, net P&L, result and the result and impact tags. Trades whose file had costs, and
   * manual trades, are not touched. The trades are read locked: a change of one of them at the
   * same moment (its tags, its P&L) waits and then keeps the new commission, or lands first and is read here, instead
   * of being written over with what was read before it. Imports into the account wait too.
   */
  apply: (db: Database, userId: string, accountId: string) =>
    writeTrades(db, userId, async (writer) => {
      const { tx } = writer;
      await assertAccount(tx, userId, accountId);
      await lockFor(tx, 'account_imports', accountId);
      const { schedule } = (await feeSchedulesRepo(tx, userId).forAccounts([accountId])).get(accountId)!;
      const rows = await tx
        .select({
          id: trades.id,
          symbol: trades.symbol,
          contract: trades.contract,
          quantity: trades.quantity,
          grossPnl: trades.grossPnl,
          commission: trades.commission,
          tags: trades.tags,
          period: trades.period,
          side: trades.side,
        })
        .from(trades)
        .where(and(eq(trades.userId, userId), eq(trades.accountId, accountId), eq(trades.commissionSource, 'schedule')))
        .for('update');
      const changes: Array<{ id: string; commission: string; pnl: string; status: string; tags: string[] }> = [];
      for (const row of rows) {
        const commission = scheduledCommission(schedule, row.contract ?? row.symbol, row.quantity);
        if (commission === null || row.grossPnl === null) continue;
        if (commission === toCents(row.commission)) continue;
        const net = toCents(row.grossPnl) - commission;
        changes.push({
          id: row.id,
          commission: centsToDecimalString(commission),
          pnl: centsToDecimalString(net),
          status: resultOf(net),
          tags: retagForNet(row.tags, { netPnl: net, symbol: row.symbol, session: row.period, side: row.side as 'Long' | 'Short' | null }),
        });
      }
      for (let i = 0; i < changes.length; i += writer.batch.trades) {
        if (i > 0) await writer.pause();
        await writer.updateEach(
          changes.slice(i, i + writer.batch.trades),
          'id uuid, commission numeric, pnl numeric, status text, tags text[]',
          sql`commission = r.commission, pnl = r.pnl, status = r.status, tags = r.tags`,
        );
      }
      return { updated: changes.length, trades: rows.length, schedule: toFeeScheduleDto(accountId, schedule, true) } satisfies FeeScheduleApplied;
    }),
};
