import type { RiskDefaultDto, RiskDefaultInput } from '../../../contract/risk';
import { getFuturesRoot } from '../../../domain/instruments';
import { readRiskAmount } from '../../../domain/risk';
import { readDecimalField } from '../../../domain/trades/trade-execution';
import { centsToDecimalString } from '../../../domain/money';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import { accountsRepo } from '../../core/accounts/repo';
import { riskRepo, type RiskDefaultRow } from '../../core/risk/repo';

export function toRiskDefaultDto(row: RiskDefaultRow): RiskDefaultDto {
  return {
    id: row.id,
    account_id: row.accountId,
    root: row.root,
    stop_points: row.stopPoints,
    risk_amount: row.riskAmount,
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** One of points or dollars, as the domain reads them; the 400 names the field. */
function readDefault(input: RiskDefaultInput): { stopPoints: string | null; riskAmount: string | null } {
  const points = readDecimalField(input, 'stop_points', { positive: true });
  if (!points.ok) throw badRequest(`${points.field}: ${points.message}`);
  const amount = readRiskAmount(input, 'risk_amount');
  if (!amount.ok) throw badRequest(`${amount.field}: ${amount.message}`);
  if ((points.value === null) === (amount.value === null)) {
    throw badRequest('stop_points: give either stop_points or risk_amount', {
      fields: [
        { field: 'stop_points', message: 'give either stop_points or risk_amount' },
        { field: 'risk_amount', message: 'give either stop_points or risk_amount' },
      ],
    });
  }
  return { stopPoints: points.value, riskAmount: amount.value === null ? null : centsToDecimalString(amount.value) };
}

export const riskService = {
  list: (db: Database, userId: string) => db.withUser(userId, async (tx) => (await riskRepo(tx, userId).list()).map(toRiskDefaultDto)),

  /** Sets the default of one account (or every account) and root (or any): made, or replaced with the new amount. */
  put: (db: Database, userId: string, input: RiskDefaultInput) =>
    db.withUser(userId, async (tx) => {
      const amounts = readDefault(input);
      if (input.account_id !== null && !(await accountsRepo(tx, userId).exists(input.account_id))) {
        throw badRequest('account_id: Trading account not found');
      }
      const root = input.root === null ? null : getFuturesRoot(input.root).toUpperCase();
      if (root === '') throw badRequest('root: must be an instrument root such as NQ, or empty for any instrument');
      return toRiskDefaultDto(await riskRepo(tx, userId).put({ accountId: input.account_id, root, ...amounts }));
    }),

  async remove(db: Database, userId: string, id: string) {
    if (!(await db.withUser(userId, (tx) => riskRepo(tx, userId).remove(id)))) throw notFound('Risk default not found');
  },
};
