import type { Cents } from '../../cents';
import type { PayoutRule, RuleStatus } from '../types';
import { moneyIn, pct } from './common';

/** A funded account's payout: enough profit above the buffer, and every condition (days, consistency) met. */
export function payoutStatus(rule: PayoutRule | null, profitCents: Cents, conditionsMet: boolean, currency = 'USD'): RuleStatus {
  const money = moneyIn(currency);
  const buffer = rule?.minBalanceAboveStartCents ?? null;
  const aboveBuffer = buffer === null ? profitCents > 0 : profitCents >= buffer;
  const eligible = aboveBuffer && conditionsMet;
  return {
    rule: 'payout',
    state: eligible ? 'met' : 'pending',
    severity: null,
    value: profitCents,
    limit: buffer,
    distanceCents: buffer === null ? null : Math.max(0, buffer - profitCents),
    progressPct: buffer ? pct(Math.max(0, Math.min(profitCents, buffer)), buffer) : null,
    detail: eligible
      ? 'Eligible for a payout by these rules'
      : buffer !== null && !aboveBuffer
        ? `${money(buffer - profitCents)} more profit before a payout`
        : 'Not yet eligible for a payout',
  };
}
