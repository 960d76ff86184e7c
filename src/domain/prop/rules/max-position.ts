import { analyzePositions } from '../position';
import { dayClock, type ReplayOptions } from '../replay';
import type { Breach, MaxPositionRule, RuleState } from '../types';
import { dayLabel, pct, plural, type RuleInput, type RuleResult } from './common';

export interface MaxPositionResult extends RuleResult {
  /** Each trading day's largest position, in full-size contracts. */
  peakByDay: Map<string, number>;
}

/**
 * The position limit: the largest concurrent net position from the fills, never the sum of trades' quantities
 * (src/domain/prop/position.ts). Soft (the default): the firm closes the excess and the trade is lost. Hard: the
 * account is over. Never amber: a past peak is no distance to anything; the figure is today's largest.
 */
export function evaluateMaxPosition(rule: MaxPositionRule, { replay, today }: RuleInput, options: ReplayOptions): MaxPositionResult {
  const hard = rule.onBreach === 'fail';
  const trades = replay.steps.map((s) => s.trade);
  const { excesses, peakByDay } = analyzePositions(trades, rule.contracts, dayClock(options));
  const breaches: Breach[] = excesses.map((excess) => ({
    rule: 'maxPosition',
    tradeId: excess.tradeId,
    day: excess.day,
    at: excess.at,
    fatal: hard,
    value: excess.contracts,
    limit: rule.contracts,
    message: `${excess.contracts} ${excess.root} contracts held at once, more than ${rule.contracts}`,
  }));
  const todayPeak = peakByDay.get(today) ?? 0;
  const overToday = breaches.some((b) => b.day === today);
  const state: RuleState = hard && breaches.length > 0 ? 'broken' : overToday ? 'breached' : 'ok';
  const trades_ = new Set(breaches.map((b) => b.tradeId)).size;
  return {
    breaches,
    peakByDay,
    status: {
      rule: 'maxPosition',
      state,
      severity: hard ? 'hard' : 'soft',
      value: todayPeak,
      limit: rule.contracts,
      distanceCents: null,
      progressPct: pct(todayPeak, rule.contracts),
      detail:
        breaches.length === 0
          ? `Largest position today ${todayPeak} of ${rule.contracts} contracts (micros at their ratio)`
          : `${plural(trades_, 'trade')} over ${rule.contracts} contracts, ${overToday ? 'today too' : `last on ${dayLabel(breaches[breaches.length - 1]!.day)}`} (micros at their ratio)`,
    },
  };
}
