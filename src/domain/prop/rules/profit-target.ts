import type { Cents } from '../../cents';
import type { Replay } from '../replay';
import type { RuleStatus } from '../types';
import { dayLabel, moneyIn, pct } from './common';

/** The trading day whose realized balance first reached the target, or null. */
export function findTargetDay(replay: Replay, targetCents: Cents): string | null {
  const goal = replay.startCents + targetCents;
  for (const step of replay.steps) if (step.balanceCents >= goal) return step.day;
  return null;
}

/**
 * The profit target: met while the profit is at it, or for good once the account passed with it. `reachedOn` is the
 * day the balance first reached it, which the detail names.
 */
export function profitTargetStatus(targetCents: Cents, profitCents: Cents, reachedOn: string | null, passed: boolean, currency = 'USD'): RuleStatus {
  const money = moneyIn(currency);
  const met = passed || profitCents >= targetCents;
  return {
    rule: 'profitTarget',
    state: met ? 'met' : 'pending',
    severity: null,
    value: profitCents,
    limit: targetCents,
    distanceCents: met ? 0 : Math.max(0, targetCents - profitCents),
    progressPct: pct(Math.max(0, profitCents), targetCents),
    detail: met
      ? `Target of ${money(targetCents)} reached${reachedOn ? ` on ${dayLabel(reachedOn)}` : ''}`
      : `${money(targetCents - profitCents)} to the target of ${money(targetCents)}`,
  };
}
