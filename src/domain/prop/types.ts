import type { Cents } from '../cents';

/**
 * Prop-firm accounts. Everything here is realized P&L net of fees, taken in the order it was realized and filed on
 * the trading day of each trade's exit, the way the firms count it (src/domain/prop/replay.ts). Prices inside a trade
 * are not known (until price bars arrive), so "intraday" means "after each closed trade", and every status says so
 * rather than estimating an unrealized drawdown.
 *
 * Every rule that can be broken says what breaking it costs: 'fail' (a hard breach: the account is over) or its soft
 * cost (the day, the trade, or the wait for a pass). Targets and minimums are conditions of a pass, never breached.
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
  /** 'fail' (the default): reaching the threshold ends the account; 'stop-day': a personal guard that ends the day. */
  onBreach?: 'fail' | 'stop-day';
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
  /**
   * 'profit': of the total profit. 'target': of the profit target, or of the total profit once it is more (a day over
   * the share raises what must be made: the best day divided by the share).
   */
  of: 'profit' | 'target';
  /** True where the firm says "less than": a best day of exactly the share does not meet it. */
  strict?: boolean;
  /**
   * 'wait' (the default): no pass until the share is met, trading on. 'fail': a day closing above the share of the
   * target ends the account (only of the target: a share of the total profit changes with every day).
   */
  onBreach?: 'fail' | 'wait';
}

export interface MinProfitDaysRule {
  days: number;
  /** A day counts when its net P&L is at least this. */
  minCents: Cents;
}

export interface MaxPositionRule {
  /**
   * Full-size contracts held at once per instrument: the largest concurrent net position from the fills, each
   * contract's net summed over its family with micros at their ratio (10 MNQ = 1 NQ).
   */
  contracts: number;
  /** 'close-trade' (the default): the firm closes the excess, the trade is lost; 'fail': the account is over. */
  onBreach?: 'fail' | 'close-trade';
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
  /** 'close-trade' (the default): the firm flattens the trade; 'fail': the account is over. */
  onBreach?: 'fail' | 'close-trade';
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

/** One execution of a trade: a fill that FIFO split between two trades is in each with its share. */
export interface PropFill {
  /** ISO instant. */
  at: string;
  side: 'Buy' | 'Sell';
  quantity: number;
}

/** One closed trade as the rules read it. */
export interface PropTrade {
  id: string;
  /** The trading day (yyyy-MM-dd) the trade is filed under: its entry's. The rules file it by its exit's. */
  day: string;
  /** ISO instants with an offset, when known. */
  entryAt: string | null;
  exitAt: string | null;
  /** When it was written (ISO): orders trades without times, as the trading order does. */
  createdAt?: string | null;
  /** Net of fees. */
  netCents: Cents;
  /** The symbol or contract as stored ('MNQZ5', 'NQ'); null when unknown. */
  symbol: string | null;
  /** Contracts; null when unknown. */
  quantity: number | null;
  /** Long or Short, when known: the sign of a position held without fills. */
  side?: 'Long' | 'Short' | null;
  /** Its fills in time order; null or empty: it held `quantity` from its entry to its exit. */
  fills?: readonly PropFill[] | null;
}

export type RuleKey =
  'profitTarget' | 'dailyLoss' | 'maxLoss' | 'consistency' | 'minTradingDays' | 'minProfitDays' | 'maxPosition' | 'tradingHours' | 'payout';

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

/** Whether breaking a rule ends the account ('hard') or costs the day, the trade or the wait ('soft'). */
export type Severity = 'hard' | 'soft';

/**
 * A rule's state now. Limits: 'ok', 'near' (within 25%), 'breached' (a soft breach today: the day or the trade is
 * lost, the account lives), 'broken' (a hard breach ended the account). Conditions of a pass: 'met', 'pending', and
 * 'missed' when the account ended before it was met.
 */
export type RuleState = 'ok' | 'near' | 'broken' | 'breached' | 'met' | 'pending' | 'missed';

export interface RuleStatus {
  rule: RuleKey;
  state: RuleState;
  /** What breaking it costs; null for a condition (target, days, payout). */
  severity: Severity | null;
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

/** One trading day of the replay: its trades realized that day, and how close it came to each limit. */
export interface DayPoint {
  day: string;
  netCents: Cents;
  trades: number;
  balanceCents: Cents;
  thresholdCents: Cents | null;
  /** The day's worst realized point: its lowest running net (0 when it never went below its open). */
  lowNetCents: Cents;
  /** The day's lowest balance after a realized trade (its open when none went lower). */
  lowBalanceCents: Cents;
  /** The daily loss limit's room at the day's worst point; null without that rule. */
  dailyLossRoomCents: Cents | null;
  /** The least room above the maximum loss threshold that day; null without that rule. */
  maxLossRoomCents: Cents | null;
  /** The largest position held at once that day (full-size contracts); null without a position rule. */
  peakContracts: number | null;
}

export type AccountOutcome = 'active' | 'broken' | 'passed' | 'payout-eligible';

/** The whole account: 'broken' (a hard breach ended it), 'breached' (a soft breach today), 'near' a limit, or 'ok'. */
export type AccountState = 'ok' | 'near' | 'breached' | 'broken';
export const ACCOUNT_STATES: readonly AccountState[] = ['ok', 'near', 'breached', 'broken'];

export interface PropStatus {
  startingBalanceCents: Cents;
  balanceCents: Cents;
  profitCents: Cents;
  state: AccountState;
  outcome: AccountOutcome;
  /** The one line every screen says of the account (the widget, its page, an import's warning, ReflectAI). */
  headline: string;
  rules: RuleStatus[];
  breaches: Breach[];
  /** The breach that ended the account (the first hard one, unless it came after a pass), or null while it stands. */
  brokenBy: Breach | null;
  /** The trading day the balance first reached the profit target; null before (or without a target). */
  targetReachedOn: string | null;
  /** The trading day whose close met the target and every condition of a pass; null before. */
  passedOn: string | null;
  /** Where and when a trailing maximum loss threshold stopped trailing; null while it trails (or without one). */
  thresholdLock: { day: string; thresholdCents: Cents } | null;
  timeline: TimelinePoint[];
  days: DayPoint[];
  tradingDays: number;
  /** Trades the evaluation could not place in time: counted, never guessed. */
  tradesWithoutTimes: number;
  /** Always 'realized': open positions' prices are not known here. */
  basis: 'realized';
}
