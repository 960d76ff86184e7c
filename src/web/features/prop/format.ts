import { formatUsd, type Cents } from '../../../domain/cents';
import { formatDay, formatInZone } from '../../../domain/dates';
import { RULE_LABELS, type AccountOutcome, type Breach, type RuleState, type RuleStatus } from '../../../domain/prop/types';
import { TONE_COLOR } from '../../lib/tone';

export { formatUsd, RULE_LABELS };

/** Where an account stands, in words and colour: green, amber within 25% of a limit, red broken (issue 28). */
export const ACCOUNT_STATE: Record<'ok' | 'near' | 'broken', { label: string; color: string; text: string }> = {
  ok: { label: 'On track', color: 'teal.9', text: TONE_COLOR.positive },
  near: { label: 'Near a limit', color: 'yellow.4', text: TONE_COLOR.warning },
  broken: { label: 'Broken', color: 'red.9', text: TONE_COLOR.negative },
};

export const OUTCOME_LABEL: Record<AccountOutcome, string> = {
  active: 'Active',
  broken: 'Broken',
  passed: 'Passed',
  'payout-eligible': 'Payout eligible',
};

/** A rule's state: its word in an AA-contrast colour of both themes, and its bar's fill (graphics need 3:1 only). */
export const RULE_STATE: Record<RuleState, { label: string; text: string; bar: string }> = {
  ok: { label: 'OK', text: TONE_COLOR.positive, bar: 'teal.6' },
  near: { label: 'Near', text: TONE_COLOR.warning, bar: 'yellow.6' },
  broken: { label: 'Broken', text: TONE_COLOR.negative, bar: 'red.6' },
  met: { label: 'Met', text: TONE_COLOR.positive, bar: 'teal.6' },
  pending: { label: 'Not yet', text: TONE_COLOR.neutral, bar: 'blue.6' },
};

/** '+$1,250.00' / '-$80.50'. */
export const formatSignedUsd = (cents: Cents) => (cents > 0 ? `+${formatUsd(cents)}` : formatUsd(cents));

/** 'Mon, Mar 16, 2026'. */
export const formatLongDay = (day: string) => formatDay(day, 'EEE, MMM d, yyyy');

/** '10:20' in the trader's zone, or null without a time. */
export function formatClock(iso: string | null, timeZone: string): string | null {
  if (!iso) return null;
  return formatInZone(Date.parse(iso), timeZone, 'HH:mm');
}

/** 'Daily loss limit broken on Mon, Mar 16, 2026 at 10:20' (the trader's clock). */
export function describeBreachMoment(breach: Breach, timeZone: string): string {
  const clock = formatClock(breach.at, timeZone);
  return `${RULE_LABELS[breach.rule]} broken on ${formatLongDay(breach.day)}${clock ? ` at ${clock}` : ''}`;
}

/** The figure a rule is read by, as a trader reads it. */
export function formatRuleFigure(rule: RuleStatus): string | null {
  // Its word says it; a distance or a count would read as room left.
  if (rule.state === 'broken' && (rule.rule === 'dailyLoss' || rule.rule === 'maxLoss')) return null;
  if (rule.distanceCents !== null) {
    if (rule.rule === 'profitTarget' || rule.rule === 'payout') return `${formatUsd(rule.distanceCents)} to go`;
    return `${formatUsd(rule.distanceCents)} left`;
  }
  if (rule.rule === 'consistency') return rule.value === null ? null : `${rule.value}% of ${rule.limit}%`;
  if (rule.rule === 'minTradingDays' || rule.rule === 'minProfitDays') return `${rule.value} of ${rule.limit} days`;
  if (rule.rule === 'maxPosition') return `${rule.value ?? 0} of ${rule.limit} contracts`;
  return null;
}
