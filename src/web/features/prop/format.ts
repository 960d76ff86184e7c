import { formatMoney, formatUsd, type Cents } from '../../../domain/cents';
import { formatDay, formatInZone } from '../../../domain/dates';
import {
  RULE_LABELS,
  type AccountOutcome,
  type AccountState,
  type Breach,
  type RuleState,
  type RuleStatus,
  type Severity,
} from '../../../domain/prop/types';
import { TONE_COLOR } from '../../lib/tone';

export { formatMoney, formatUsd, RULE_LABELS };

/**
 * Where an account stands, in words and colour: green, amber within 25% of a limit or after a soft breach today (the
 * day or the trade lost, the account standing), red when a hard breach ended it.
 */
export const ACCOUNT_STATE: Record<AccountState, { label: string; color: string; text: string }> = {
  ok: { label: 'On track', color: 'teal.9', text: TONE_COLOR.positive },
  near: { label: 'Near a limit', color: 'yellow.4', text: TONE_COLOR.warning },
  breached: { label: 'Soft breach today', color: 'orange.4', text: TONE_COLOR.warning },
  broken: { label: 'Broken', color: 'red.9', text: TONE_COLOR.negative },
};

export const OUTCOME_LABEL: Record<AccountOutcome, string> = {
  active: 'Active',
  broken: 'Failed',
  passed: 'Passed',
  'payout-eligible': 'Payout eligible',
};

/** A rule's state: its word in an AA-contrast colour of both themes, and its bar's fill (graphics need 3:1 only). */
export const RULE_STATE: Record<RuleState, { label: string; text: string; bar: string }> = {
  ok: { label: 'OK', text: TONE_COLOR.positive, bar: 'teal.6' },
  near: { label: 'Near', text: TONE_COLOR.warning, bar: 'yellow.6' },
  broken: { label: 'Broken', text: TONE_COLOR.negative, bar: 'red.6' },
  breached: { label: 'Soft breach', text: TONE_COLOR.warning, bar: 'orange.6' },
  met: { label: 'Met', text: TONE_COLOR.positive, bar: 'teal.6' },
  pending: { label: 'Not yet', text: TONE_COLOR.neutral, bar: 'blue.6' },
  missed: { label: 'Not met', text: TONE_COLOR.neutral, bar: 'gray.6' },
};

/** '+$1,250.00' / '-$80.50'. */
export const formatSignedUsd = (cents: Cents) => (cents > 0 ? `+${formatUsd(cents)}` : formatUsd(cents));

/** '+$1,250.00' in USD, '+1,250.00 USDT' in an exchange account's currency: a prop account's amount with its sign. */
export const formatSignedMoney = (cents: Cents, currency = 'USD') => (cents > 0 ? `+${formatMoney(cents, currency)}` : formatMoney(cents, currency));

/** 'Mon, Mar 16, 2026'. */
export const formatLongDay = (day: string) => formatDay(day, 'EEE, MMM d, yyyy');

/** '10:20' in the trader's zone, or null without a time. */
export function formatClock(iso: string | null, timeZone: string): string | null {
  if (!iso) return null;
  return formatInZone(Date.parse(iso), timeZone, 'HH:mm');
}

/** 'Daily loss limit broken on Mon, Mar 16, 2026 at 10:20' (the trader's clock), or 'reached' for a soft breach. */
export function describeBreachMoment(breach: Breach, timeZone: string): string {
  const clock = formatClock(breach.at, timeZone);
  return `${RULE_LABELS[breach.rule]} ${breach.fatal ? 'broken' : 'breached (soft)'} on ${formatLongDay(breach.day)}${clock ? ` at ${clock}` : ''}`;
}

/** 'Mar 16, 2026': a day with its year, as the status's headline writes it. */
export const formatDayWithYear = (day: string) => formatDay(day, 'MMM d, yyyy');

/** What breaking a rule costs, in a trader's words. */
export function severityLabel(rule: RuleStatus): string | null {
  const severity: Severity | null = rule.severity;
  if (severity === null) return null;
  if (severity === 'hard') return 'Hard: fails the account';
  if (rule.rule === 'dailyLoss' || rule.rule === 'maxLoss') return 'Soft: ends the day';
  if (rule.rule === 'consistency') return 'Soft: delays the pass';
  return 'Soft: costs the trade';
}

/** The figure a rule is read by, as a trader reads it, its amounts in the account's currency. */
export function formatRuleFigure(rule: RuleStatus, currency = 'USD'): string | null {
  // Its word says it; a distance or a count would read as room left, and a missed goal has no distance to go.
  if ((rule.state === 'broken' || rule.state === 'breached') && (rule.rule === 'dailyLoss' || rule.rule === 'maxLoss')) return null;
  if (rule.state === 'missed') return null;
  // A goal met needs no distance: its word says it.
  if (rule.state === 'met' && (rule.rule === 'profitTarget' || rule.rule === 'payout')) return null;
  if (rule.distanceCents !== null) {
    if (rule.rule === 'profitTarget' || rule.rule === 'payout') return `${formatMoney(rule.distanceCents, currency)} to go`;
    return `${formatMoney(rule.distanceCents, currency)} left`;
  }
  if (rule.rule === 'consistency') return rule.value === null ? null : `${rule.value}% of ${rule.limit}%`;
  if (rule.rule === 'minTradingDays' || rule.rule === 'minProfitDays') return `${rule.value} of ${rule.limit} days`;
  if (rule.rule === 'maxPosition') return `${rule.value ?? 0} of ${rule.limit} contracts today`;
  return null;
}
