import type { Cents } from '../cents';
import { formatMoney, formatUsd } from '../cents';
import { formatShortDay, type CalendarDay } from '../dates/calendar-day';
import type { ReportOverview } from './overview';
import type { ROverview } from './r-multiples';

/**
 * The Overview as a list of named figures: what the Overview's cards, Compare's table, the CSV export and the AI tool
 * all read, so a figure has one name and one way of being written everywhere.
 */
export type FigureKind = 'money' | 'percent' | 'ratio' | 'count' | 'duration';

/** The Overview's sections, in order. */
export const FIGURE_GROUPS = [
  { id: 'pnl', label: 'Profit and loss' },
  { id: 'trades', label: 'Trades' },
  { id: 'days', label: 'Trading days' },
  { id: 'drawdown', label: 'Drawdown' },
] as const;
export type FigureGroup = (typeof FIGURE_GROUPS)[number]['id'];

export interface OverviewFigure {
  key: string;
  label: string;
  group: FigureGroup;
  kind: FigureKind;
  /** Cents for money, a percentage for percent, seconds for duration; null when there is nothing to compute it from. */
  value: number | null;
  /** Whether more is better (for Compare's colours); null when neither is. */
  better: 'higher' | 'lower' | null;
  /** The day a figure belongs to (best day, largest win), or the dates of a drawdown. */
  note?: string;
  /** Profit factor with no loss: shown as ∞ (value null). */
  infinite?: boolean;
}

const dayWithYear = (day: CalendarDay) => `${formatShortDay(day)}, ${day.slice(0, 4)}`;

function describeDrawdownDates(overview: ReportOverview): string | undefined {
  const dd = overview.maxDrawdown;
  if (!dd) return undefined;
  const from = dd.peakDay ? dayWithYear(dd.peakDay) : 'the start';
  const recovery = dd.recoveryDay ? `recovered ${dayWithYear(dd.recoveryDay)}` : 'not recovered';
  return `${from} to ${dayWithYear(dd.troughDay)}, ${recovery}`;
}

export function listOverviewFigures(o: ReportOverview): OverviewFigure[] {
  type Spec = Omit<OverviewFigure, 'group'>;
  const money = (key: string, label: string, value: Cents | null, better: OverviewFigure['better'] = 'higher', note?: string): Spec => ({
    key,
    label,
    kind: 'money',
    value,
    better,
    ...(note && { note }),
  });
  const groups: Record<FigureGroup, Spec[]> = {
    pnl: [
      money('netCents', 'Net P&L', o.netCents),
      money('grossCents', 'Gross P&L', o.grossCents),
      money('feesCents', 'Fees', o.feesCents, 'lower'),
      money(
        'largestWinCents',
        'Largest win',
        o.largestWin?.pnlCents ?? null,
        'higher',
        o.largestWin ? dayWithYear(o.largestWin.tradeDate) : undefined,
      ),
      money(
        'largestLossCents',
        'Largest loss',
        o.largestLoss?.pnlCents ?? null,
        'higher',
        o.largestLoss ? dayWithYear(o.largestLoss.tradeDate) : undefined,
      ),
    ],
    trades: [
      { key: 'trades', label: 'Trades', kind: 'count', value: o.trades, better: null },
      { key: 'winRate', label: 'Win rate', kind: 'percent', value: o.winRate, better: 'higher' },
      {
        key: 'profitFactor',
        label: 'Profit factor',
        kind: 'ratio',
        value: o.profitFactor,
        better: 'higher',
        ...(o.profitFactor === null && o.grossProfitCents > 0 && { infinite: true }),
      },
      money('expectancyCents', 'Expectancy per trade', o.expectancyCents),
      money('averageTradeCents', 'Average trade', o.averageTradeCents),
      money('averageWinCents', 'Average win', o.averageWinCents),
      money('averageLossCents', 'Average loss', o.averageLossCents),
      { key: 'payoffRatio', label: 'Payoff ratio', kind: 'ratio', value: o.payoffRatio, better: 'higher' },
      { key: 'maxConsecutiveWins', label: 'Max consecutive wins', kind: 'count', value: o.maxConsecutiveWins, better: 'higher' },
      { key: 'maxConsecutiveLosses', label: 'Max consecutive losses', kind: 'count', value: o.maxConsecutiveLosses, better: 'lower' },
      { key: 'averageHoldWinnersSeconds', label: 'Average hold, winners', kind: 'duration', value: o.averageHoldWinnersSeconds, better: null },
      { key: 'averageHoldLosersSeconds', label: 'Average hold, losers', kind: 'duration', value: o.averageHoldLosersSeconds, better: null },
    ],
    days: [
      { key: 'tradingDays', label: 'Trading days', kind: 'count', value: o.tradingDays, better: null },
      { key: 'winningDaysPercent', label: 'Winning days', kind: 'percent', value: o.winningDaysPercent, better: 'higher' },
      money('bestDayCents', 'Best day', o.bestDay?.pnlCents ?? null, 'higher', o.bestDay ? dayWithYear(o.bestDay.tradeDate) : undefined),
      money('worstDayCents', 'Worst day', o.worstDay?.pnlCents ?? null, 'higher', o.worstDay ? dayWithYear(o.worstDay.tradeDate) : undefined),
      money('averageDayCents', 'Average day', o.averageDayCents),
      money('dailyStdDevCents', 'Std. deviation of daily P&L', o.dailyStdDevCents, null),
      { key: 'dailySharpe', label: 'Daily Sharpe ratio', kind: 'ratio', value: o.dailySharpe, better: 'higher' },
    ],
    drawdown: [
      money(
        'maxDrawdownCents',
        'Max drawdown',
        o.maxDrawdown ? o.maxDrawdown.amountCents : o.trades > 0 ? 0 : null,
        'lower',
        describeDrawdownDates(o),
      ),
      {
        key: 'maxDrawdownPercent',
        label: 'Max drawdown, % of peak balance',
        kind: 'percent',
        value: o.maxDrawdown?.percentOfPeak ?? null,
        better: 'lower',
      },
    ],
  };
  return FIGURE_GROUPS.flatMap(({ id }) => groups[id].map((figure) => ({ ...figure, group: id })));
}

export interface FigureComparison extends OverviewFigure {
  /** The first filter set's value, the second's, and second minus first (null when either is null). */
  a: number | null;
  b: number | null;
  difference: number | null;
  /** Which side the difference favours, by the figure's `better`; null for a tie or a figure with no better side. */
  favours: 'a' | 'b' | null;
  aInfinite?: boolean;
  bInfinite?: boolean;
}

/** Compare: every Overview figure of two filter sets, with B minus A. */
export function compareOverviews(a: ReportOverview, b: ReportOverview): FigureComparison[] {
  const left = listOverviewFigures(a);
  const right = listOverviewFigures(b);
  return left.map((figure, index) => {
    const other = right[index]!;
    const difference = figure.value === null || other.value === null ? null : roundForKind(other.value - figure.value, figure.kind);
    const favours =
      difference === null || difference === 0 || figure.better === null ? null : difference > 0 === (figure.better === 'higher') ? 'b' : 'a';
    return {
      ...figure,
      a: figure.value,
      b: other.value,
      difference,
      favours,
      ...(figure.infinite && { aInfinite: true }),
      ...(other.infinite && { bInfinite: true }),
    };
  });
}

/** One row of Compare in R: an R figure, a ratio (the profit factor in R) or a count of trades. */
export interface RComparison {
  key: string;
  label: string;
  kind: 'r' | 'ratio' | 'count';
  a: number | null;
  b: number | null;
  /** B minus A, two decimals (the figures' own); null when either is null or infinite. */
  difference: number | null;
  favours: 'a' | 'b' | null;
  aInfinite?: boolean;
  bInfinite?: boolean;
}

/**
 * Compare in R: every figure the Overview shows in R, of two filter sets, with B minus A. Each side
 * is of its trades with a planned risk; the trades without one are rows of their own, so a difference is never read
 * as of all the trades.
 */
export function compareROverviews(a: ROverview, b: ROverview): RComparison[] {
  type Spec = {
    key: string;
    label: string;
    kind: RComparison['kind'];
    better: 'higher' | null;
    of: (r: ROverview) => number | null;
    infinite?: (r: ROverview) => boolean;
  };
  const specs: Spec[] = [
    { key: 'tradesWithRisk', label: 'Trades with a planned risk', kind: 'count', better: null, of: (r) => r.tradesWithRisk },
    { key: 'tradesWithoutRisk', label: 'Trades without a planned risk', kind: 'count', better: null, of: (r) => r.tradesWithoutRisk },
    { key: 'totalR', label: 'Total R', kind: 'r', better: 'higher', of: (r) => r.totalR },
    { key: 'expectancyR', label: 'Expectancy', kind: 'r', better: 'higher', of: (r) => r.expectancyR },
    { key: 'averageWinR', label: 'Average win', kind: 'r', better: 'higher', of: (r) => r.averageWinR },
    { key: 'averageLossR', label: 'Average loss', kind: 'r', better: 'higher', of: (r) => r.averageLossR },
    {
      key: 'profitFactorR',
      label: 'Profit factor in R',
      kind: 'ratio',
      better: 'higher',
      of: (r) => r.profitFactorR,
      // R won and none lost: ∞, as the Overview shows it.
      infinite: (r) => r.profitFactorR === null && r.averageWinR !== null,
    },
    ...a.bins.map((bin, k): Spec => ({
      key: `bin:${bin.id}`,
      label: `Trades ${bin.label}`,
      kind: 'count',
      better: null,
      of: (r) => r.bins[k]?.trades ?? 0,
    })),
  ];
  return specs.map((spec) => {
    const [left, right] = [spec.of(a), spec.of(b)];
    const [aInfinite, bInfinite] = [spec.infinite?.(a) ?? false, spec.infinite?.(b) ?? false];
    // Both sides carry two decimals at most: the difference in hundredths is a whole number.
    const difference = left === null || right === null ? null : Math.round(right * 100 - left * 100) / 100 + 0;
    const favours = difference === null || difference === 0 || spec.better === null ? null : difference > 0 ? 'b' : 'a';
    return {
      key: spec.key,
      label: spec.label,
      kind: spec.kind,
      a: left,
      b: right,
      difference,
      favours,
      ...(aInfinite && { aInfinite: true }),
      ...(bInfinite && { bInfinite: true }),
    };
  });
}

/** Percentages and ratios subtract without float noise (60.1 - 50.3 is 9.8, not 9.800000000000004). */
function roundForKind(value: number, kind: FigureKind): number {
  if (kind === 'percent') return Math.round(value * 10) / 10;
  if (kind === 'ratio') return Math.round(value * 100) / 100;
  return value;
}

/** "2m 05s", "1h 20m", "45s": a hold time as a trader reads it. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return s % 60 === 0 ? `${s / 60}m` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (hours < 48) return s % 3600 === 0 ? `${hours}h` : `${hours}h ${String(minutes).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** A figure's value as text ('—' when there is none). */
export function formatFigure(kind: FigureKind, value: number | null, infinite = false, currency = 'USD'): string {
  if (infinite) return '∞';
  if (value === null) return '—';
  switch (kind) {
    case 'money':
      return formatMoney(value, currency);
    case 'percent':
      return `${value.toFixed(1)}%`;
    case 'ratio':
      return value.toFixed(2);
    case 'count':
      return String(value);
    case 'duration':
      return formatDuration(value);
  }
}

/** A difference as text with its sign ('+$120.00', '-3.5 pts' for percentages, '+0.25'). */
export function formatDifference(kind: FigureKind, value: number | null): string {
  if (value === null) return '—';
  const sign = value > 0 ? '+' : value < 0 ? '-' : '';
  const abs = Math.abs(value);
  switch (kind) {
    case 'money':
      return `${sign}${formatUsd(abs)}`;
    case 'percent':
      return `${sign}${abs.toFixed(1)} pts`;
    case 'ratio':
      return `${sign}${abs.toFixed(2)}`;
    case 'count':
      return `${sign}${abs}`;
    case 'duration':
      return `${sign}${formatDuration(abs)}`;
  }
}
