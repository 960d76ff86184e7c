import { toCents } from '../../../domain/money';
import type { RiskDefault } from '../../../domain/risk';
import type { RiskDefaultDto } from '../../shared/api';

/** A default as the API gives it, in the domain's shape (what the dialog's preview prices a trade with). */
export function toRiskDefault(dto: RiskDefaultDto): RiskDefault {
  return {
    id: dto.id,
    accountId: dto.account_id,
    root: dto.root,
    stopPoints: dto.stop_points,
    amountCents: dto.risk_amount === null ? null : toCents(dto.risk_amount),
  };
}
