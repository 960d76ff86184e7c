import type { Cents } from '../../cents';
import type { Breach, MaxLossRule, RuleState } from '../types';
import { dayLabel, moneyIn, NEAR_SHARE, pct, type RuleInput, type RuleResult } from './common';

export interface MaxLossResult extends RuleResult {
  /** The threshold after each step of the replay (a trailing one moves after a new high). */
  thresholdAfterStep: Cents[];
  /** The threshold at each day's close (an end-of-day one moves only then). */
  thresholdByDay: Map<string, Cents>;
  /** The least room above the threshold each day, at its open or after any of its trades. */
  roomByDay: Map<string, Cents>;
  /** Where and when a trailing threshold stopped trailing. */
  lock: { day: string; thresholdCents: Cents } | null;
  /** The threshold now. */
  thresholdCents: Cents;
}

/** The threshold for a high-water mark, stopped where the rule locks it. */
export function thresholdFor(rule: MaxLossRule, start: Cents, high: Cents): Cents {
  if (rule.trailing === 'static') return start - rule.amountCents;
  const trailed = high - rule.amountCents;
  return rule.lockAboveStartCents === null ? trailed : Math.min(trailed, start + rule.lockAboveStartCents);
}

/**
 * The maximum loss limit: the balance after a realized trade may not reach the threshold. Static: the starting
 * balance minus the amount. Trailing: the highest balance minus the amount, after each realized trade ('intraday') or
 * at each day's close ('end-of-day': today's balance moves it only once today has closed), until it stops at the
 * lock. Hard (the default): the account is over. Soft: the day is over, each day the balance touches it.
 */
export function evaluateMaxLoss(rule: MaxLossRule, { replay, currency }: RuleInput): MaxLossResult {
  const money = moneyIn(currency);
  const start = replay.startCents;
  const hard = rule.onBreach !== 'stop-day';
  const cap = rule.trailing === 'static' || rule.lockAboveStartCents === null ? null : start + rule.lockAboveStartCents;
  const breaches: Breach[] = [];
  const thresholdAfterStep: Cents[] = [];
  const thresholdByDay = new Map<string, Cents>();
  const roomByDay = new Map<string, Cents>();
  let lock: MaxLossResult['lock'] = null;
  let intradayHigh = start;
  let closeHigh = start;
  let threshold = thresholdFor(rule, start, start);
  let broken = false;
  const noteLock = (day: string) => {
    if (lock === null && cap !== null && threshold === cap) lock = { day, thresholdCents: cap };
  };

  for (const day of replay.days) {
    let room = day.openCents - threshold;
    let touchedToday = false;
    for (let i = day.first; i < day.end; i++) {
      const step = replay.steps[i]!;
      const balance = step.balanceCents;
      if (balance <= threshold && (hard ? !broken : !touchedToday)) {
        if (hard) broken = true;
        touchedToday = true;
        breaches.push({
          rule: 'maxLoss',
          tradeId: step.trade.id,
          day: day.day,
          at: step.at,
          fatal: hard,
          value: balance,
          limit: threshold,
          message: `Balance ${money(balance)} reached the maximum loss threshold ${money(threshold)}`,
        });
      }
      room = Math.min(room, balance - threshold);
      if (balance > intradayHigh) intradayHigh = balance;
      if (rule.trailing === 'intraday') {
        threshold = thresholdFor(rule, start, intradayHigh);
        noteLock(day.day);
      }
      thresholdAfterStep.push(threshold);
    }
    // Today has not closed: an end-of-day threshold moves only after its close.
    if (day.closed && day.closeCents > closeHigh) closeHigh = day.closeCents;
    if (rule.trailing === 'end-of-day') {
      threshold = thresholdFor(rule, start, closeHigh);
      noteLock(day.day);
    }
    thresholdByDay.set(day.day, threshold);
    roomByDay.set(day.day, room);
  }

  const last = replay.steps[replay.steps.length - 1];
  const balance = last?.balanceCents ?? start;
  const room = balance - threshold;
  const touchedToday = !hard && breaches.some((b) => b.day === replay.today);
  const state: RuleState = broken ? 'broken' : touchedToday ? 'breached' : room <= rule.amountCents * NEAR_SHARE ? 'near' : 'ok';
  const locked = lock as MaxLossResult['lock'];
  const trailing =
    rule.trailing === 'static' ? '' : locked ? `, which stopped trailing at ${money(locked.thresholdCents)} on ${dayLabel(locked.day)}` : '';
  return {
    breaches,
    thresholdAfterStep,
    thresholdByDay,
    roomByDay,
    lock: locked,
    thresholdCents: threshold,
    status: {
      rule: 'maxLoss',
      state,
      severity: hard ? 'hard' : 'soft',
      value: balance,
      limit: threshold,
      distanceCents: broken || touchedToday ? 0 : Math.max(0, room),
      progressPct: pct(Math.max(0, rule.amountCents - room), rule.amountCents),
      detail: broken
        ? 'Maximum loss limit broken'
        : touchedToday
          ? `Balance reached the maximum loss threshold of ${money(threshold)} today: the day is over`
          : `${money(room)} above the maximum loss threshold of ${money(threshold)}${trailing}`,
    },
  };
}
