import { formatDay } from '../../dates';
import { formatMoney, type Cents } from '../../cents';
import type { Replay, ReplayDay } from '../replay';
import type { Breach, RuleStatus, Severity } from '../types';

/** Within this share of a limit's room, a rule is amber. */
export const NEAR_SHARE = 0.25;

/** What every rule reads: the shared replay (realized order, exit's trading day) and the account's terms. */
export interface RuleInput {
  replay: Replay;
  /** The trader's current trading day: a limit's room is today's. */
  today: string;
  /** The account's currency, which every amount a rule writes is in: USD unless given. */
  currency?: string;
}

/** How a rule writes an amount of the account: '$1,000.00' in USD, '1,000.00 USDT' in an exchange's currency. */
export const moneyIn =
  (currency = 'USD') =>
  (cents: Cents): string =>
    formatMoney(cents, currency);

/** What a rule says: where it stands now, and every time it was broken. */
export interface RuleResult {
  status: RuleStatus;
  breaches: Breach[];
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A share in percent with two decimals; null when there is nothing to share. */
export const pct = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10000) / 100);

/** 'Mar 16, 2026': a day as every prop screen names it, with its year. */
export const dayLabel = (day: string) => formatDay(day, 'MMM d, yyyy');

export const severityOf = (onBreach: string | undefined, fallback: Severity): Severity =>
  onBreach === undefined ? fallback : onBreach === 'fail' ? 'hard' : 'soft';

export function todayOf(replay: Replay): ReplayDay | null {
  const index = replay.dayIndex.get(replay.today);
  return index === undefined ? null : replay.days[index]!;
}

/** The moment a step of the replay realized, for a breach. */
export const stepMoment = (replay: Replay, index: number) => replay.steps[index]!.at;

export const lastStepOf = (replay: Replay, day: ReplayDay) => replay.steps[day.end - 1]!;

export type { Cents };
