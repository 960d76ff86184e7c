import type { Cents } from '../cents';

/**
 * Prop-firm accounts (issue 28). Everything here is realized P&L net of fees on the exchange's trading day, the way
 * the firms count it. Prices inside a trade are not known (until price bars arrive), so "intraday" means "after each
 * closed trade", and every status says so rather than estimating an unrealized drawdown.
 */

export type AccountKind = 'personal' | 'evaluation' | 'funded';
export const ACCOUNT_KINDS: readonly AccountKind[] = ['personal', 'evaluation', 'funded'];

/** How the maximum loss limit's threshold moves. */
export type MaxLossTrailing =
  /** A fixed floor: starting balance minus the amount. */
  | 'static'
  /** Trails the highest end-of-day balance (Topstep's Maximum Loss Limit). */
  | 'end-of-day'
  /** Trails the highest balance after each closed trade (intraday, realized). */
  | 'intraday';
export const MAX_LOSS_TRAILING: readonly MaxLossTrailing[] = ['static', 'end-of-day', 'intraday'];

export interface MaxLossRule {
  amountCents: Cents;
  trailing: MaxLossTrailing;
  /**
   * Where a trailing threshold stops: this far above the starting balance (0 = at the starting balance). null: it
   * trails for ever. Ignored when static.
   */
  lockAboveStartCents: Cents | null;
}

export interface DailyLossRule {
  limitCents: Cents;
  /** 'fail': breaking it ends the account; 'stop-day': the day is over (a soft breach), the account lives on. */
  onBreach: 'fail' | 'stop-day';
  /** 'intraday': after each closed trade (a day that dips through and recovers still breaks it); 'end-of-day': the day's close only. */
  check: 'intraday' | 'end-of-day';
}

export interface ConsistencyRule {
  /** The best day may be at most this share, in percent, of the total profit (or of the target). */
  maxBestDayPct: number;
  of: 'profit' | 'target';
}

export interface MinProfitDaysRule {
  days: number;
  /** A day counts when its net P&L is at least this. */
  minCents: Cents;
}

export interface MaxPositionRule {
  /** Full-size contracts open at once per instrument; micros count at their ratio (10 MNQ = 1 NQ). */
  contracts: number;
}

export interface TradingHoursRule {
  /** Flat by this wall-clock time (HH:mm) in `timeZone`, until the session reopens at `reopenAt`. null: no cut-off. */
  flatBy: string | null;
  /** When trading may start again (HH:mm), CME's 18:00 New York by default. */
  reopenAt: string;
  timeZone: string;
  /** Trading days (0 = Sunday ... 6 = Saturday) on which no trade may be made. */
  noTradingWeekdays: number[];
  /** Trading days (yyyy-MM-dd) on which no trade may be made (holidays, news days). */
  noTradingDates: string[];
}

export interface PayoutRule {
  /** The balance must be at least this far above the starting balance to ask for a payout. */
  minBalanceAboveStartCents: Cents | null;
}

/** A rule set: any rule may be absent (null). */
export interface PropRuleSet {
  profitTargetCents: Cents | null;
  dailyLoss: DailyLossRule | null;
  maxLoss: MaxLossRule | null;
  consistency: ConsistencyRule | null;
  minTradingDays: number | null;
  minProfitDays: MinProfitDaysRule | null;
  maxPosition: MaxPositionRule | null;
  tradingHours: TradingHoursRule | null;
  payout: PayoutRule | null;
}

export const EMPTY_RULE_SET: PropRuleSet = {
  profitTargetCents: null,
  dailyLoss: null,
  maxLoss: null,
  consistency: null,
  minTradingDays: null,
  minProfitDays: null,
  maxPosition: null,
  tradingHours: null,
  payout: null,
};

/** One closed trade as the rules read it. */
export interface PropTrade {
  id: string;
  /** The trading day (yyyy-MM-dd) the trade is filed under. */
  day: string;
  /** ISO instants with an offset, when known. */
  entryAt: string | null;
  exitAt: string | null;
  /** Net of fees. */
  netCents: Cents;
  /** The symbol or contract as stored ('MNQZ5', 'NQ'); null when unknown. */
  symbol: string | null;
  /** Contracts; null when unknown. */
  quantity: number | null;
}

export type RuleKey =
  | 'profitTarget'
  | 'dailyLoss'
  | 'maxLoss'
  | 'consistency'
  | 'minTradingDays'
  | 'minProfitDays'
  | 'maxPosition'
  | 'tradingHours'
  | 'payout';

/** A rule broken by a trade: which, where, when, and the figures at that moment. */
export interface Breach {
  rule: RuleKey;
  tradeId: string;
  day: string;
  /** The moment it broke (the trade's exit, or its entry for position and hours rules); null when the trade has no times. */
  at: string | null;
  /** Whether it ends the account (a hard breach) or only the day or the trade (a soft one). */
  fatal: boolean;
  /** The figure that broke the limit and the limit itself, in cents or contracts. */
  value: number;
  limit: number;
  message: string;
}

/** How the screens and ReflectAI name each rule (one list, so they cannot drift apart). */
export const RULE_LABELS: Readonly<Record<RuleKey, string>> = {
  profitTarget: 'Profit target',
  dailyLoss: 'Daily loss limit',
  maxLoss: 'Maximum loss limit',
  consistency: 'Consistency',
  minTradingDays: 'Trading days',
  minProfitDays: 'Profit days',
  maxPosition: 'Position size',
  tradingHours: 'Trading hours',
  payout: 'Payout',
};

/**
 * The most trades whose balance and threshold an account's page gets one by one: beyond it the timeline is left out
 * and the chart draws each day's close (a chart of thousands of points is unreadable, and their JSON is the page's cost).
 */
export const TIMELINE_LIMIT = 1500;

/** Green, amber (within 25% of a limit) or red. */
export type RuleState = 'ok' | 'near' | 'broken' | 'met' | 'pending';

export interface RuleStatus {
  rule: RuleKey;
  state: RuleState;
  /** In cents, contracts or days, as the rule counts. */
  value: number | null;
  limit: number | null;
  /** Dollars (cents) left before the limit, where a distance means something. */
  distanceCents: Cents | null;
  /** Share of the way to a target or a limit, 0..100+ (null when not a share). */
  progressPct: number | null;
  detail: string;
}

export interface TimelinePoint {
  tradeId: string;
  day: string;
  at: string | null;
  balanceCents: Cents;
  /** The maximum loss threshold after this trade; null without that rule. */
  thresholdCents: Cents | null;
  dayNetCents: Cents;
}

export interface DayPoint {
  day: string;
  netCents: Cents;
  trades: number;
  balanceCents: Cents;
  thresholdCents: Cents | null;
}

export type AccountOutcome = 'active' | 'broken' | 'passed' | 'payout-eligible';

export interface PropStatus {
  startingBalanceCents: Cents;
  balanceCents: Cents;
  profitCents: Cents;
  /** Where the whole account stands: the worst of its rules' states. */
  state: 'ok' | 'near' | 'broken';
  outcome: AccountOutcome;
  rules: RuleStatus[];
  breaches: Breach[];
  /** The breach that ended the account (the first fatal one), or null while it stands. */
  brokenBy: Breach | null;
  timeline: TimelinePoint[];
  days: DayPoint[];
  tradingDays: number;
  /** Trades the evaluation could not place in time: counted, never guessed. */
  tradesWithoutTimes: number;
  /** Always 'realized': open positions' prices are not known here. */
  basis: 'realized';
}
