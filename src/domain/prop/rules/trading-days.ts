import type { Cents } from '../../cents';
import type { Replay } from '../replay';
import type { MinProfitDaysRule, RuleStatus } from '../types';
import { moneyIn, pct } from './common';

/** Days with a realized trade: a trade held overnight counts on the day it closed. */
export function minTradingDaysStatus(needed: number, tradingDays: number): RuleStatus {
  return {
    rule: 'minTradingDays',
    state: tradingDays >= needed ? 'met' : 'pending',
    severity: null,
    value: tradingDays,
    limit: needed,
    distanceCents: null,
    progressPct: pct(Math.min(tradingDays, needed), needed),
    detail: `${tradingDays} of ${needed} trading days`,
  };
}

export const countProfitDays = (replay: Replay, minCents: Cents, upTo = replay.days.length) => {
  let counted = 0;
  for (let i = 0; i < upTo; i++) if (replay.days[i]!.netCents >= minCents) counted++;
  return counted;
};

/** Days whose realized net is at least the rule's amount. */
export function minProfitDaysStatus(rule: MinProfitDaysRule, replay: Replay, currency = 'USD'): RuleStatus {
  const money = moneyIn(currency);
  const counted = countProfitDays(replay, rule.minCents);
  return {
    rule: 'minProfitDays',
    state: counted >= rule.days ? 'met' : 'pending',
    severity: null,
    value: counted,
    limit: rule.days,
    distanceCents: null,
    progressPct: pct(Math.min(counted, rule.days), rule.days),
    detail: `${counted} of ${rule.days} days of at least ${money(rule.minCents)}`,
  };
}
