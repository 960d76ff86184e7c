import { formatUsd, type Cents } from '../cents';
import { findHoursViolations } from './hours';
import { findPositionExcesses } from './position';
import type {
  AccountKind,
  AccountOutcome,
  Breach,
  DayPoint,
  PropRuleSet,
  PropStatus,
  PropTrade,
  RuleState,
  RuleStatus,
  TimelinePoint,
} from './types';

/** Within this share of a limit's room, a rule is amber (issue 28: "amber within 25% of a limit"). */
export const NEAR_SHARE = 0.25;

export interface EvaluateInput {
  kind: AccountKind;
  startingBalanceCents: Cents;
  rules: PropRuleSet;
  /** The account's closed trades in trading order (trading day, entry, exit, creation, id). */
  trades: readonly PropTrade[];
  /** The trader's current trading day (yyyy-MM-dd): the daily loss limit's room is today's. */
  today: string;
}

/** The maximum loss threshold for a high-water mark, stopped where the rule locks it. */
function thresholdFor(rules: PropRuleSet, start: Cents, high: Cents): Cents | null {
  const rule = rules.maxLoss;
  if (!rule) return null;
  if (rule.trailing === 'static') return start - rule.amountCents;
  const trailed = high - rule.amountCents;
  return rule.lockAboveStartCents === null ? trailed : Math.min(trailed, start + rule.lockAboveStartCents);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const pct = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10000) / 100);

/**
 * Replays an account's trades against its rule set, trade by trade on the trading day, and says where it stands:
 * the balance, each rule's distance and state, every breach with the trade and moment that caused it, and the
 * balance and threshold over time (issue 28). Realized P&L only: the moment a rule broke is the closed trade that
 * broke it.
 */
export function evaluatePropAccount(input: EvaluateInput): PropStatus {
  const { rules, trades, startingBalanceCents: start } = input;
  const breaches: Breach[] = [];
  const timeline: TimelinePoint[] = [];
  const days: DayPoint[] = [];

  let balance = start;
  // The high-water marks the trailing thresholds follow: after each closed trade, and at each day's close.
  let intradayHigh = start;
  let endOfDayHigh = start;
  let threshold = thresholdFor(rules, start, start);
  let maxLossBroken = false;
  let dailyFatal = false;

  for (let i = 0; i < trades.length; ) {
    const day = trades[i]!.day;
    let dayNet = 0;
    let dayTrades = 0;
    // A soft limit stops the day: trades after it are flagged. A hard one ends the account, so nothing after it is news.
    let dayStoppedBy: string | null = null;
    let dayBroken = false;
    for (; i < trades.length && trades[i]!.day === day; i++) {
      const trade = trades[i]!;
      const at = trade.exitAt ?? trade.entryAt;
      balance += trade.netCents;
      dayNet += trade.netCents;
      dayTrades++;

      if (dayStoppedBy !== null) {
        breaches.push({
          rule: 'dailyLoss',
          tradeId: trade.id,
          day,
          at: trade.entryAt ?? at,
          fatal: false,
          value: dayNet,
          limit: -(rules.dailyLoss?.limitCents ?? 0),
          message: 'Traded after the daily loss limit stopped the day',
        });
      }

      if (threshold !== null && !maxLossBroken && balance <= threshold) {
        maxLossBroken = true;
        breaches.push({
          rule: 'maxLoss',
          tradeId: trade.id,
          day,
          at,
          fatal: true,
          value: balance,
          limit: threshold,
          message: `Balance ${formatUsd(balance)} reached the maximum loss threshold ${formatUsd(threshold)}`,
        });
      }

      const daily = rules.dailyLoss;
      if (daily && daily.check === 'intraday' && !dayBroken && dayNet <= -daily.limitCents) {
        dayBroken = true;
        if (daily.onBreach === 'fail') dailyFatal = true;
        else dayStoppedBy = trade.id;
        breaches.push({
          rule: 'dailyLoss',
          tradeId: trade.id,
          day,
          at,
          fatal: daily.onBreach === 'fail',
          value: dayNet,
          limit: -daily.limitCents,
          message: `Day's net ${formatUsd(dayNet)} reached the daily loss limit of ${formatUsd(-daily.limitCents)}`,
        });
      }

      if (balance > intradayHigh) intradayHigh = balance;
      if (rules.maxLoss?.trailing === 'intraday') threshold = thresholdFor(rules, start, intradayHigh);
      timeline.push({ tradeId: trade.id, day, at, balanceCents: balance, thresholdCents: threshold, dayNetCents: dayNet });
    }

    // Today has not closed yet: its close is what an end-of-day rule reads, and an end-of-day threshold moves only
    // after it. Until then the threshold is the last close's.
    const closed = day !== input.today;
    const daily = rules.dailyLoss;
    if (daily && daily.check === 'end-of-day' && closed && dayNet <= -daily.limitCents) {
      const last = trades[i - 1]!;
      if (daily.onBreach === 'fail') dailyFatal = true;
      breaches.push({
        rule: 'dailyLoss',
        tradeId: last.id,
        day,
        at: last.exitAt ?? last.entryAt,
        fatal: daily.onBreach === 'fail',
        value: dayNet,
        limit: -daily.limitCents,
        message: `Day closed at ${formatUsd(dayNet)}, past the daily loss limit of ${formatUsd(-daily.limitCents)}`,
      });
    }
    if (closed && balance > endOfDayHigh) endOfDayHigh = balance;
    if (rules.maxLoss?.trailing === 'end-of-day') threshold = thresholdFor(rules, start, endOfDayHigh);
    days.push({ day, netCents: dayNet, trades: dayTrades, balanceCents: balance, thresholdCents: threshold });
  }

  // Position and hours rules read the trades' times, not the running balance.
  let peakContracts: number | null = null;
  if (rules.maxPosition) {
    const { peaks, excesses } = findPositionExcesses(trades, rules.maxPosition.contracts);
    peakContracts = peaks.reduce((max, p) => Math.max(max, p.contracts), 0);
    for (const excess of excesses) {
      breaches.push({
        rule: 'maxPosition',
        tradeId: excess.tradeId,
        day: excess.day,
        at: excess.at,
        fatal: false,
        value: excess.contracts,
        limit: rules.maxPosition.contracts,
        message: `${excess.contracts} ${excess.root} contracts open at once, more than ${rules.maxPosition.contracts}`,
      });
    }
  }
  let hoursViolations = 0;
  if (rules.tradingHours) {
    for (const violation of findHoursViolations(trades, rules.tradingHours)) {
      hoursViolations++;
      breaches.push({
        rule: 'tradingHours',
        tradeId: violation.trade.id,
        day: violation.trade.day,
        at: violation.at,
        fatal: false,
        value: 0,
        limit: 0,
        message: violation.message,
      });
    }
  }
  // Breaches in the order they happened: by their trade's place in trading order.
  const place = new Map(trades.map((t, index) => [t.id, index]));
  breaches.sort((a, b) => (place.get(a.tradeId) ?? 0) - (place.get(b.tradeId) ?? 0));

  const profit = balance - start;
  const statuses: RuleStatus[] = [];
  const tradingDays = days.length;
  const todayPoint = days.find((d) => d.day === input.today);

  if (rules.profitTargetCents !== null) {
    const target = rules.profitTargetCents;
    statuses.push({
      rule: 'profitTarget',
      state: profit >= target ? 'met' : 'pending',
      value: profit,
      limit: target,
      distanceCents: Math.max(0, target - profit),
      progressPct: pct(Math.max(0, profit), target),
      detail: profit >= target ? `Target of ${formatUsd(target)} reached` : `${formatUsd(target - profit)} to the target of ${formatUsd(target)}`,
    });
  }

  if (rules.dailyLoss) {
    const limit = rules.dailyLoss.limitCents;
    const todayNet = todayPoint?.netCents ?? 0;
    const room = limit + todayNet;
    const brokeToday = breaches.some((b) => b.rule === 'dailyLoss' && b.day === input.today);
    // Past an end-of-day limit before the close: not broken until the day closes there, but as near as it gets.
    const pastBeforeClose = rules.dailyLoss.check === 'end-of-day' && room <= 0;
    const state: RuleState = dailyFatal || brokeToday ? 'broken' : room <= limit * NEAR_SHARE ? 'near' : 'ok';
    statuses.push({
      rule: 'dailyLoss',
      state,
      value: todayNet,
      limit: -limit,
      // A rule that ended the account leaves no room, whatever the balance did after.
      distanceCents: dailyFatal ? 0 : Math.max(0, room),
      progressPct: pct(Math.max(0, -todayNet), limit),
      detail: dailyFatal
        ? 'Daily loss limit broken'
        : brokeToday
          ? 'Daily loss limit reached today: the day is over'
          : pastBeforeClose
            ? `Today's net ${formatUsd(todayNet)} is past the daily loss limit of ${formatUsd(limit)}: the day's close decides`
            : `${formatUsd(Math.max(0, room))} left today before the daily loss limit of ${formatUsd(limit)}`,
    });
  }

  if (rules.maxLoss && threshold !== null) {
    const amount = rules.maxLoss.amountCents;
    const room = balance - threshold;
    statuses.push({
      rule: 'maxLoss',
      state: maxLossBroken ? 'broken' : room <= amount * NEAR_SHARE ? 'near' : 'ok',
      value: balance,
      limit: threshold,
      distanceCents: maxLossBroken ? 0 : Math.max(0, room),
      progressPct: pct(Math.max(0, amount - room), amount),
      detail: maxLossBroken
        ? 'Maximum loss limit broken'
        : `${formatUsd(room)} above the maximum loss threshold of ${formatUsd(threshold)}`,
    });
  }

  if (rules.consistency) {
    const best = days.reduce((max, d) => Math.max(max, d.netCents), 0);
    const base = rules.consistency.of === 'target' ? (rules.profitTargetCents ?? 0) : profit;
    const share = base > 0 ? pct(best, base) : null;
    const ok = share !== null && share <= rules.consistency.maxBestDayPct;
    statuses.push({
      rule: 'consistency',
      state: best === 0 ? 'pending' : ok ? 'met' : 'pending',
      value: share,
      limit: rules.consistency.maxBestDayPct,
      distanceCents: null,
      progressPct: share,
      detail:
        share === null
          ? `Best day ${formatUsd(best)}; no ${rules.consistency.of === 'target' ? 'target' : 'total profit'} to compare it with`
          : `Best day ${formatUsd(best)} is ${share}% of the ${rules.consistency.of === 'target' ? 'target' : 'total profit'} (at most ${rules.consistency.maxBestDayPct}%)`,
    });
  }

  if (rules.minTradingDays !== null) {
    const needed = rules.minTradingDays;
    statuses.push({
      rule: 'minTradingDays',
      state: tradingDays >= needed ? 'met' : 'pending',
      value: tradingDays,
      limit: needed,
      distanceCents: null,
      progressPct: pct(Math.min(tradingDays, needed), needed),
      detail: `${tradingDays} of ${needed} trading days`,
    });
  }

  if (rules.minProfitDays) {
    const { days: needed, minCents } = rules.minProfitDays;
    const counted = days.filter((d) => d.netCents >= minCents).length;
    statuses.push({
      rule: 'minProfitDays',
      state: counted >= needed ? 'met' : 'pending',
      value: counted,
      limit: needed,
      distanceCents: null,
      progressPct: pct(Math.min(counted, needed), needed),
      detail: `${counted} of ${needed} days of at least ${formatUsd(minCents)}`,
    });
  }

  // A position or hours breach costs the trade (the firm closes it), not the account: red on the day it happened,
  // counted after that. A peak of the past is no distance to anything, so these rules are never amber.
  if (rules.maxPosition) {
    const limit = rules.maxPosition.contracts;
    const over = breaches.filter((b) => b.rule === 'maxPosition');
    const overToday = over.some((b) => b.day === input.today);
    statuses.push({
      rule: 'maxPosition',
      state: overToday ? 'broken' : 'ok',
      value: peakContracts,
      limit,
      distanceCents: null,
      progressPct: peakContracts === null ? null : pct(peakContracts, limit),
      detail:
        over.length === 0
          ? `Largest position ${peakContracts ?? 0} of ${limit} contracts (micros at their ratio)`
          : `${plural(new Set(over.map((b) => b.tradeId)).size, 'trade')} over ${limit} contracts${overToday ? ', today too' : ''} (micros at their ratio)`,
    });
  }

  if (rules.tradingHours) {
    const outsideToday = breaches.some((b) => b.rule === 'tradingHours' && b.day === input.today);
    statuses.push({
      rule: 'tradingHours',
      state: outsideToday ? 'broken' : 'ok',
      value: hoursViolations,
      limit: 0,
      distanceCents: null,
      progressPct: null,
      detail:
        hoursViolations === 0
          ? 'Every trade inside the trading hours'
          : `${plural(hoursViolations, 'trade')} outside the trading hours${outsideToday ? ', today too' : ''}`,
    });
  }

  const brokenBy = breaches.find((b) => b.fatal) ?? null;
  const broken = brokenBy !== null;
  const unmet = (key: RuleStatus['rule']) => statuses.some((s) => s.rule === key && s.state !== 'met');
  const rulesMet = !unmet('minTradingDays') && !unmet('minProfitDays') && !unmet('consistency');
  let outcome: AccountOutcome = broken ? 'broken' : 'active';
  if (!broken && input.kind === 'evaluation' && rules.profitTargetCents !== null && !unmet('profitTarget') && rulesMet) outcome = 'passed';
  if (!broken && input.kind === 'funded') {
    const buffer = rules.payout?.minBalanceAboveStartCents ?? null;
    const aboveBuffer = buffer === null ? profit > 0 : profit >= buffer;
    const payoutStatus: RuleStatus = {
      rule: 'payout',
      state: aboveBuffer && rulesMet ? 'met' : 'pending',
      value: profit,
      limit: buffer,
      distanceCents: buffer === null ? null : Math.max(0, buffer - profit),
      progressPct: buffer ? pct(Math.max(0, Math.min(profit, buffer)), buffer) : null,
      detail:
        aboveBuffer && rulesMet
          ? 'Eligible for a payout by these rules'
          : buffer !== null && !aboveBuffer
            ? `${formatUsd(buffer - profit)} more profit before a payout`
            : 'Not yet eligible for a payout',
    };
    statuses.push(payoutStatus);
    if (payoutStatus.state === 'met') outcome = 'payout-eligible';
  }

  const state = broken || statuses.some((s) => s.state === 'broken') ? 'broken' : statuses.some((s) => s.state === 'near') ? 'near' : 'ok';
  return {
    startingBalanceCents: start,
    balanceCents: balance,
    profitCents: profit,
    state,
    outcome,
    rules: statuses,
    breaches,
    brokenBy,
    timeline,
    days,
    tradingDays,
    tradesWithoutTimes: trades.filter((t) => !t.entryAt && !t.exitAt).length,
    basis: 'realized',
  };
}
