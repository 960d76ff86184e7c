import { formatMoney } from '../cents';
import { dayLabel, plural } from './rules/common';
import { RULE_LABELS, type Breach, type PropStatus, type RuleKey } from './types';

/** Shorter names where a line is short (the dashboard's widget). */
export const SHORT_RULE_LABELS: Readonly<Partial<Record<RuleKey, string>>> = { dailyLoss: 'Daily loss', maxLoss: 'Max loss' };
const shortName = (rule: RuleKey) => SHORT_RULE_LABELS[rule] ?? RULE_LABELS[rule];

const softCount = (breaches: readonly Breach[]) => {
  const n = breaches.filter((b) => !b.fatal).length;
  return n === 0 ? '' : `, ${n} soft ${n === 1 ? 'breach' : 'breaches'}`;
};

/**
 * The one line every screen says of an account, so that its page, the dashboard's widget, an import's warning and
 * ReflectAI cannot disagree: a failure first (which rule, which day), then a pass (and the day), a payout, a soft
 * breach today, else the limit with the least room left.
 */
export function headlineOf(
  status: Pick<PropStatus, 'outcome' | 'brokenBy' | 'passedOn' | 'rules' | 'breaches'>,
  trades: number,
  /** The account's currency: amounts read '$1,000.00 left' in USD and '1,000.00 USDT left' in USDT. */
  currency = 'USD',
): string {
  const { brokenBy, passedOn, rules, breaches } = status;
  if (brokenBy) {
    const after = passedOn !== null && passedOn < brokenBy.day ? ` after passing on ${dayLabel(passedOn)}` : '';
    return `${RULE_LABELS[brokenBy.rule]} broken on ${dayLabel(brokenBy.day)}${after}`;
  }
  if (status.outcome === 'passed' && passedOn) return `Passed on ${dayLabel(passedOn)}: target and rules met${softCount(breaches)}`;
  if (status.outcome === 'payout-eligible') return `Eligible for a payout by these rules${softCount(breaches)}`;
  const soft = rules.find((r) => r.state === 'breached');
  if (soft) return soft.detail;
  const limits = rules.filter((r) => (r.rule === 'dailyLoss' || r.rule === 'maxLoss') && r.distanceCents !== null);
  const near = rules.find((r) => r.state === 'near');
  const closest =
    near ?? limits.reduce<(typeof limits)[number] | null>((min, r) => (min === null || r.distanceCents! < min.distanceCents! ? r : min), null);
  if (closest) {
    if (closest.distanceCents !== null && (closest.rule === 'dailyLoss' || closest.rule === 'maxLoss'))
      return `${shortName(closest.rule)}: ${formatMoney(closest.distanceCents, currency)} left`;
    return `${shortName(closest.rule)}: ${closest.detail}`;
  }
  const target = rules.find((r) => r.rule === 'profitTarget' && r.state === 'pending');
  if (target?.distanceCents) return `${formatMoney(target.distanceCents, currency)} to the target`;
  return plural(trades, 'trade');
}
