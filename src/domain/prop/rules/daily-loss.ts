import type { Cents } from '../../cents';
import type { Breach, DailyLossRule, RuleState } from '../types';
import { lastStepOf, moneyIn, NEAR_SHARE, pct, todayOf, type RuleInput, type RuleResult } from './common';

export interface DailyLossResult extends RuleResult {
  /** Each day's room at its worst realized point (the limit plus its lowest running net). */
  roomByDay: Map<string, Cents>;
}

/**
 * The daily loss limit, net of fees, on the trading day each loss was realized. Checked after each closed trade
 * ('intraday': a day that dips through and recovers still breaks it) or on the day's close only ('end-of-day', which
 * today's unclosed day cannot break yet). Hard: the account is over. Soft: the day is over, and every trade realized
 * after the stop that day is flagged; the next day starts fresh.
 */
export function evaluateDailyLoss(rule: DailyLossRule, { replay, currency }: RuleInput): DailyLossResult {
  const money = moneyIn(currency);
  const limit = rule.limitCents;
  const hard = rule.onBreach === 'fail';
  const breaches: Breach[] = [];
  const roomByDay = new Map<string, Cents>();

  for (const day of replay.days) {
    roomByDay.set(day.day, limit + day.lowNetCents);
    let stop: { at: string | null; ms: number | null } | null = null;
    let broken = false;
    for (let i = day.first; i < day.end; i++) {
      const step = replay.steps[i]!;
      if (stop !== null) {
        const entry = step.trade.entryAt ? Date.parse(step.trade.entryAt) : null;
        // A trade entered before the stop was still open at it: the firm would have closed it then.
        const openAtStop = entry !== null && stop.ms !== null && entry < stop.ms;
        breaches.push({
          rule: 'dailyLoss',
          tradeId: step.trade.id,
          day: day.day,
          at: openAtStop ? stop.at : (step.trade.entryAt ?? step.at),
          fatal: false,
          value: step.dayNetCents,
          limit: -limit,
          message: openAtStop ? 'Still open when the daily loss limit stopped the day' : 'Traded after the daily loss limit stopped the day',
        });
      }
      if (rule.check === 'intraday' && !broken && step.dayNetCents <= -limit) {
        broken = true;
        if (!hard) stop = { at: step.at, ms: step.atMs };
        breaches.push({
          rule: 'dailyLoss',
          tradeId: step.trade.id,
          day: day.day,
          at: step.at,
          fatal: hard,
          value: step.dayNetCents,
          limit: -limit,
          message: `Day's net ${money(step.dayNetCents)} reached the daily loss limit of ${money(-limit)}`,
        });
      }
    }
    if (rule.check === 'end-of-day' && day.closed && day.netCents <= -limit) {
      const last = lastStepOf(replay, day);
      breaches.push({
        rule: 'dailyLoss',
        tradeId: last.trade.id,
        day: day.day,
        at: last.at,
        fatal: hard,
        value: day.netCents,
        limit: -limit,
        message: `Day closed at ${money(day.netCents)}, past the daily loss limit of ${money(-limit)}`,
      });
    }
  }

  const today = todayOf(replay);
  const todayNet = today?.netCents ?? 0;
  const room = limit + todayNet;
  const failed = breaches.some((b) => b.fatal);
  const stoppedToday = !failed && breaches.some((b) => b.day === replay.today);
  // Past an end-of-day limit before the close: not broken until the day closes there, but as near as it gets.
  const pastBeforeClose = rule.check === 'end-of-day' && room <= 0;
  const state: RuleState = failed ? 'broken' : stoppedToday ? 'breached' : room <= limit * NEAR_SHARE ? 'near' : 'ok';
  return {
    breaches,
    roomByDay,
    status: {
      rule: 'dailyLoss',
      state,
      severity: hard ? 'hard' : 'soft',
      value: todayNet,
      limit: -limit,
      // A limit that ended the account leaves no room, whatever the balance did after; a stopped day has none either.
      distanceCents: failed || stoppedToday ? 0 : Math.max(0, room),
      progressPct: pct(Math.max(0, -todayNet), limit),
      detail: failed
        ? 'Daily loss limit broken'
        : stoppedToday
          ? 'Daily loss limit reached today: the day is over'
          : pastBeforeClose
            ? `Today's net ${money(todayNet)} is past the daily loss limit of ${money(limit)}: the day's close decides`
            : `${money(Math.max(0, room))} left today before the daily loss limit of ${money(limit)}`,
    },
  };
}
