import type { Cents } from '../cents';
import type { TradingDayRule } from '../market-time';
import { headlineOf } from './headline';
import { buildReplay, type Replay, type ReplayOptions } from './replay';
import { dayLabel } from './rules/common';
import { evaluateConsistency, meetsConsistency } from './rules/consistency';
import { evaluateDailyLoss, type DailyLossResult } from './rules/daily-loss';
import { evaluateMaxLoss, type MaxLossResult } from './rules/max-loss';
import { evaluateMaxPosition, type MaxPositionResult } from './rules/max-position';
import { payoutStatus } from './rules/payout';
import { findTargetDay, profitTargetStatus } from './rules/profit-target';
import { evaluateTradingHours } from './rules/trading-hours';
import { countProfitDays, minProfitDaysStatus, minTradingDaysStatus } from './rules/trading-days';
import type {
  AccountKind,
  AccountOutcome,
  AccountState,
  Breach,
  DayPoint,
  PropRuleSet,
  PropStatus,
  PropTrade,
  RuleStatus,
  TimelinePoint,
} from './types';

export { NEAR_SHARE } from './rules/common';

export interface EvaluateInput {
  kind: AccountKind;
  startingBalanceCents: Cents;
  rules: PropRuleSet;
  /** The account's closed trades, in any order: the replay puts them in the order their P&L was realized. */
  trades: readonly PropTrade[];
  /** The trader's current trading day (yyyy-MM-dd): the daily loss limit's room is today's. */
  today: string;
  /** How the trader counts trading days (the exchange's by default): a trade is filed on its exit's. */
  tradingDay?: TradingDayRule;
  /** The account's currency (USD unless given): every amount the status writes out is in it. */
  currency?: string;
}

/**
 * The trading day whose close first met every condition of a pass: the target, the trading days, the profit days,
 * consistency. Today, not closed yet, is judged as it stands.
 */
function findPassDay(rules: PropRuleSet, replay: Replay): string | null {
  const target = rules.profitTargetCents;
  if (target === null) return null;
  let best = 0;
  for (let i = 0; i < replay.days.length; i++) {
    const day = replay.days[i]!;
    best = Math.max(best, day.netCents);
    const profit = day.closeCents - replay.startCents;
    if (profit < target) continue;
    if (rules.minTradingDays !== null && i + 1 < rules.minTradingDays) continue;
    if (rules.minProfitDays && countProfitDays(replay, rules.minProfitDays.minCents, i + 1) < rules.minProfitDays.days) continue;
    if (rules.consistency && !meetsConsistency(rules.consistency, target, best, profit)) continue;
    return day.day;
  }
  return null;
}

/** Breaches in the order they happened: by day, then by moment where both have one, then by the replay's order. */
function sortBreaches(breaches: Breach[], replay: Replay) {
  const place = new Map(replay.steps.map((s) => [s.trade.id, s.index]));
  const ms = (b: Breach) => (b.at ? Date.parse(b.at) : Number.NaN);
  return breaches
    .map((b, i) => ({ b, i, ms: ms(b), place: place.get(b.tradeId) ?? 0 }))
    .sort((x, y) => {
      if (x.b.day !== y.b.day) return x.b.day < y.b.day ? -1 : 1;
      if (Number.isFinite(x.ms) && Number.isFinite(y.ms) && x.ms !== y.ms) return x.ms - y.ms;
      return x.place - y.place || x.i - y.i;
    })
    .map((x) => x.b);
}

/**
 * Replays an account's trades against its rule set (src/domain/prop/replay.ts: realized order, each trade on its
 * exit's trading day) and says where it stands: the balance, each rule's distance and state, every breach with the
 * trade and moment that caused it, the day the target was reached and the day it passed, and the balance and threshold
 * over time with each day's closest approach to each limit. Each rule is its own function over the one replay.
 */
export function evaluatePropAccount(input: EvaluateInput): PropStatus {
  const { rules, today, kind } = input;
  const options: ReplayOptions = { tradingDay: input.tradingDay ?? 'exchange' };
  const replay = buildReplay({ trades: input.trades, startingBalanceCents: input.startingBalanceCents, today, options });
  const start = replay.startCents;
  const balance = replay.steps[replay.steps.length - 1]?.balanceCents ?? start;
  const profit = balance - start;
  const currency = input.currency ?? 'USD';
  const ruleInput = { replay, today, currency };

  const daily: DailyLossResult | null = rules.dailyLoss ? evaluateDailyLoss(rules.dailyLoss, ruleInput) : null;
  const maxLoss: MaxLossResult | null = rules.maxLoss ? evaluateMaxLoss(rules.maxLoss, ruleInput) : null;
  const consistency = rules.consistency ? evaluateConsistency(rules.consistency, rules.profitTargetCents, ruleInput) : null;
  const position: MaxPositionResult | null = rules.maxPosition ? evaluateMaxPosition(rules.maxPosition, ruleInput, options) : null;
  const hours = rules.tradingHours ? evaluateTradingHours(rules.tradingHours, ruleInput) : null;

  // At one moment the maximum loss comes first: a trade that takes both limits ends the account by its drawdown.
  const breaches = sortBreaches(
    [maxLoss, daily, consistency, position, hours].flatMap((r) => r?.breaches ?? []),
    replay,
  );
  const brokenBy = breaches.find((b) => b.fatal) ?? null;
  const targetReachedOn = rules.profitTargetCents === null ? null : findTargetDay(replay, rules.profitTargetCents);
  const passedOn = kind === 'evaluation' ? findPassDay(rules, replay) : null;

  // Each rule's status, in the order the screens list them.
  const statuses: RuleStatus[] = [];
  if (rules.profitTargetCents !== null)
    statuses.push(profitTargetStatus(rules.profitTargetCents, profit, targetReachedOn, passedOn !== null, currency));
  if (daily) statuses.push(daily.status);
  if (maxLoss) statuses.push(maxLoss.status);
  if (consistency) statuses.push(consistency.status);
  if (rules.minTradingDays !== null) statuses.push(minTradingDaysStatus(rules.minTradingDays, replay.days.length));
  if (rules.minProfitDays) statuses.push(minProfitDaysStatus(rules.minProfitDays, replay, currency));
  if (position) statuses.push(position.status);
  if (hours) statuses.push(hours.status);
  const conditionsMet = !statuses.some(
    (s) => (s.rule === 'minTradingDays' || s.rule === 'minProfitDays' || s.rule === 'consistency') && s.state !== 'met',
  );
  if (kind === 'funded') statuses.push(payoutStatus(rules.payout, profit, conditionsMet, currency));

  // A hard breach ends the account: what it had not met by then, it missed.
  if (brokenBy) {
    for (const status of statuses) {
      // A failed account pays nothing out, however far above its buffer it stood.
      if (status.state !== 'pending' && status.rule !== 'payout') continue;
      status.state = 'missed';
      status.distanceCents = null;
      status.detail = `Not met before the account failed on ${dayLabel(brokenBy.day)}`;
    }
  }

  let outcome: AccountOutcome = 'active';
  if (brokenBy) outcome = 'broken';
  else if (passedOn) outcome = 'passed';
  else if (kind === 'funded' && statuses.some((s) => s.rule === 'payout' && s.state === 'met')) outcome = 'payout-eligible';

  const state: AccountState = brokenBy
    ? 'broken'
    : statuses.some((s) => s.state === 'breached')
      ? 'breached'
      : statuses.some((s) => s.state === 'near')
        ? 'near'
        : 'ok';

  const timeline: TimelinePoint[] = replay.steps.map((step) => ({
    tradeId: step.trade.id,
    day: step.day,
    at: step.at,
    balanceCents: step.balanceCents,
    thresholdCents: maxLoss ? maxLoss.thresholdAfterStep[step.index]! : null,
    dayNetCents: step.dayNetCents,
  }));
  const days: DayPoint[] = replay.days.map((day) => ({
    day: day.day,
    netCents: day.netCents,
    trades: day.end - day.first,
    balanceCents: day.closeCents,
    thresholdCents: maxLoss ? maxLoss.thresholdByDay.get(day.day)! : null,
    lowNetCents: day.lowNetCents,
    lowBalanceCents: day.lowBalanceCents,
    dailyLossRoomCents: daily ? daily.roomByDay.get(day.day)! : null,
    maxLossRoomCents: maxLoss ? maxLoss.roomByDay.get(day.day)! : null,
    peakContracts: position ? (position.peakByDay.get(day.day) ?? 0) : null,
  }));

  const status: PropStatus = {
    startingBalanceCents: start,
    balanceCents: balance,
    profitCents: profit,
    state,
    outcome,
    headline: '',
    rules: statuses,
    breaches,
    brokenBy,
    targetReachedOn,
    passedOn,
    thresholdLock: maxLoss?.lock ?? null,
    timeline,
    days,
    tradingDays: replay.days.length,
    tradesWithoutTimes: input.trades.filter((t) => !t.entryAt && !t.exitAt).length,
    basis: 'realized',
  };
  status.headline = headlineOf(status, input.trades.length, currency);
  return status;
}
