import { findHoursViolations } from '../hours';
import type { Breach, RuleState, TradingHoursRule } from '../types';
import { dayLabel, plural, type RuleInput, type RuleResult } from './common';

/**
 * The trading hours: flat by the cut-off until the session reopens, no trade on a closed day. Soft (the default):
 * the firm flattens the trade. Hard: the account is over.
 */
export function evaluateTradingHours(rule: TradingHoursRule, { replay, today }: RuleInput): RuleResult {
  const hard = rule.onBreach === 'fail';
  const breaches: Breach[] = findHoursViolations(
    replay.steps.map((s) => s.trade),
    rule,
  ).map((violation) => ({
    rule: 'tradingHours',
    tradeId: violation.trade.id,
    day: violation.trade.day,
    at: violation.at,
    fatal: hard,
    value: 0,
    limit: 0,
    message: violation.message,
  }));
  const outsideToday = breaches.some((b) => b.day === today);
  const state: RuleState = hard && breaches.length > 0 ? 'broken' : outsideToday ? 'breached' : 'ok';
  return {
    breaches,
    status: {
      rule: 'tradingHours',
      state,
      severity: hard ? 'hard' : 'soft',
      value: breaches.length,
      limit: 0,
      distanceCents: null,
      progressPct: null,
      detail:
        breaches.length === 0
          ? 'Every trade inside the trading hours'
          : `${plural(breaches.length, 'trade')} outside the trading hours, ${outsideToday ? 'today too' : `last on ${dayLabel(breaches.reduce((last, b) => (b.day > last ? b.day : last), breaches[0]!.day))}`}`,
    },
  };
}
