import type { Cents } from '../../cents';
import type { Breach, ConsistencyRule, RuleState } from '../types';
import { moneyIn, pct, type RuleInput, type RuleResult } from './common';

/**
 * What the best day is measured against: the total profit, or the target until the profit passes it (then a day
 * over the share of the target is made good by trading on).
 */
export const consistencyBase = (rule: ConsistencyRule, targetCents: Cents | null, profitCents: Cents) =>
  rule.of === 'target' ? Math.max(targetCents ?? 0, profitCents) : profitCents;

/** The share in hundredths of a percent, exact for shares of at most two decimals. */
const shareUnits = (rule: ConsistencyRule) => Math.round(rule.maxBestDayPct * 100);

/** Whether a day of `dayCents` is within the share of `baseCents`: "at most", or "less than" where the firm says so. */
export function withinShare(rule: ConsistencyRule, dayCents: Cents, baseCents: Cents): boolean {
  if (baseCents <= 0) return false;
  const left = dayCents * 10_000;
  const right = shareUnits(rule) * baseCents;
  return rule.strict ? left < right : left <= right;
}

/** Whether the best day so far meets the rule: a pass needs it. */
export const meetsConsistency = (rule: ConsistencyRule, targetCents: Cents | null, bestCents: Cents, profitCents: Cents) =>
  bestCents > 0 && withinShare(rule, bestCents, consistencyBase(rule, targetCents, profitCents));

/**
 * Consistency: the best day's share of the total profit (or of the target). Soft (the default): no pass until it is
 * met, trading on. Hard: a day that closes above the share of the target ends the account.
 */
export function evaluateConsistency(rule: ConsistencyRule, targetCents: Cents | null, { replay, currency }: RuleInput): RuleResult {
  const money = moneyIn(currency);
  const hard = rule.onBreach === 'fail';
  const breaches: Breach[] = [];
  if (hard && targetCents !== null) {
    for (const day of replay.days) {
      if (!day.closed || day.netCents <= 0 || withinShare(rule, day.netCents, targetCents)) continue;
      const last = replay.steps[day.end - 1]!;
      breaches.push({
        rule: 'consistency',
        tradeId: last.trade.id,
        day: day.day,
        at: last.at,
        fatal: true,
        value: pct(day.netCents, targetCents) ?? 0,
        limit: rule.maxBestDayPct,
        message: `Day closed at ${money(day.netCents)}, ${pct(day.netCents, targetCents)}% of the target: ${rule.strict ? 'less than' : 'at most'} ${rule.maxBestDayPct}% allowed`,
      });
      break;
    }
  }
  const last = replay.steps[replay.steps.length - 1];
  const profit = (last?.balanceCents ?? replay.startCents) - replay.startCents;
  const best = replay.days.reduce((max, d) => Math.max(max, d.netCents), 0);
  const base = consistencyBase(rule, targetCents, profit);
  const share = base > 0 ? pct(best, base) : null;
  const met = meetsConsistency(rule, targetCents, best, profit);
  const bound = `${rule.strict ? 'less than' : 'at most'} ${rule.maxBestDayPct}%`;
  const of = rule.of === 'target' && base === targetCents ? 'target' : 'total profit';
  // What must be made in all for the best day to be within the share.
  const needed =
    best > 0 && !met ? Math.floor((best * 10_000) / shareUnits(rule)) + (rule.strict || (best * 10_000) % shareUnits(rule) !== 0 ? 1 : 0) : null;
  const state: RuleState = breaches.length > 0 ? 'broken' : best === 0 ? 'pending' : met ? 'met' : 'pending';
  return {
    breaches,
    status: {
      rule: 'consistency',
      state,
      severity: hard ? 'hard' : 'soft',
      value: share,
      limit: rule.maxBestDayPct,
      distanceCents: null,
      progressPct: share,
      detail:
        breaches.length > 0
          ? breaches[0]!.message
          : share === null
            ? `Best day ${money(best)}; no ${rule.of === 'target' ? 'target' : 'total profit'} to compare it with`
            : `Best day ${money(best)} is ${share}% of the ${of} (${bound})${needed !== null && needed > profit ? `: ${money(needed)} of profit in all meets it` : ''}`,
    },
  };
}
