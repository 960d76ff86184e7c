import { addDays, addMonths } from '../dates/calendar-day';
import { formatUsd, type Cents } from '../money';
import type { DailyAggregate } from '../stats/trade-aggregate';
import { calculateWinRate, formatWinRate } from '../stats/win-rate';
import { getReflectionPeriodRange, type PeriodRange, type ReflectionPeriod } from './period';
import type { GroupFigures } from './statistics';
import { describeWithoutRisk, formatR } from '../risk/format-r';
import { RAccumulator, toR, type RSummary, type RTrade } from '../risk/r-summary';

/**
 * How a week (or a month) compares with the trader's previous four (beyond the spec). The previous
 * periods come from per-day sums, so a long history costs four small sums, not every trade.
 */
export const COMPARISON_PERIODS = 4;

export interface ComparedPeriod extends PeriodRange {
  totalTrades: number;
  wins: number;
  losses: number;
  winRate: number;
  pnlCents: Cents;
}

export interface PeriodComparison {
  unit: 'week' | 'month';
  /** The previous periods, oldest first. */
  previous: ComparedPeriod[];
  /** Average trades and P&L per previous period; win rate pooled over all of their wins and losses. */
  previousAverage: { totalTrades: number; winRate: number; pnlCents: Cents };
  /** Percentage points, one decimal; null when either side has no win and no loss. */
  winRateChange: number | null;
  pnlChangeCents: Cents;
  text: string;
}

/** The day range covering the `COMPARISON_PERIODS` periods before the one at `range`. */
export function getComparisonRange(period: ReflectionPeriod, range: PeriodRange): PeriodRange | null {
  if (period === 'day') return null;
  if (period === 'week') return { from: addDays(range.from, -7 * COMPARISON_PERIODS), to: addDays(range.from, -1) };
  return { from: addMonths(range.from, -COMPARISON_PERIODS), to: addDays(range.from, -1) };
}

function previousRanges(period: 'week' | 'month', range: PeriodRange): PeriodRange[] {
  const out: PeriodRange[] = [];
  for (let i = COMPARISON_PERIODS; i >= 1; i--) {
    // The current period's start is a Monday (week) or the 1st (month): walking back from it is exact.
    out.push(getReflectionPeriodRange(period, i, range.from));
  }
  return out;
}

export function comparePeriods(
  period: ReflectionPeriod,
  range: PeriodRange,
  current: Pick<GroupFigures, 'totalTrades' | 'wins' | 'losses' | 'winRate' | 'pnlCents'>,
  previousDays: readonly DailyAggregate[],
): PeriodComparison | null {
  if (period === 'day') return null;
  const previous = previousRanges(period, range).map((r) => {
    let trades = 0;
    let wins = 0;
    let losses = 0;
    let pnlCents = 0;
    for (const d of previousDays) {
      if (d.date < r.from || d.date > r.to) continue;
      trades += d.trades;
      wins += d.wins;
      losses += d.losses;
      pnlCents += d.pnlCents;
    }
    return { ...r, totalTrades: trades, winRate: calculateWinRate({ wins, losses }), pnlCents, wins, losses };
  });
  const totalTrades = previous.reduce((n, p) => n + p.totalTrades, 0);
  const wins = previous.reduce((n, p) => n + p.wins, 0);
  const losses = previous.reduce((n, p) => n + p.losses, 0);
  const pnl = previous.reduce((n, p) => n + p.pnlCents, 0);
  const previousAverage = {
    totalTrades: Math.round((totalTrades * 10) / COMPARISON_PERIODS) / 10,
    winRate: calculateWinRate({ wins, losses }),
    pnlCents: Math.round(pnl / COMPARISON_PERIODS),
  };
  const comparable = wins + losses > 0 && current.wins + current.losses > 0;
  const winRateChange = comparable ? Math.round((current.winRate - previousAverage.winRate) * 10) / 10 : null;
  const pnlChangeCents = current.pnlCents - previousAverage.pnlCents;
  const unit = period;
  const units = `${unit}s`;
  const text =
    totalTrades === 0
      ? `No trades in the previous ${COMPARISON_PERIODS} ${units} to compare with.`
      : [
          `Net P&L ${formatUsd(current.pnlCents)} against an average of ${formatUsd(previousAverage.pnlCents)} per ${unit} over the previous ${COMPARISON_PERIODS} ${units} (${pnlChangeCents >= 0 ? '+' : '-'}${formatUsd(Math.abs(pnlChangeCents))}).`,
          `${current.totalTrades} trades against an average of ${previousAverage.totalTrades}.`,
          winRateChange === null
            ? ''
            : // Only when both sides won or lost something: a side of break-evens has no win rate to compare.
              `Win rate ${formatWinRate(current.winRate, current.wins + current.losses)} against ${formatWinRate(previousAverage.winRate, wins + losses)} (${winRateChange >= 0 ? '+' : ''}${winRateChange.toFixed(1)} points).`,
        ]
          .filter(Boolean)
          .join(' ');
  return {
    unit,
    previous,
    previousAverage,
    winRateChange,
    pnlChangeCents,
    text,
  };
}

export interface RComparison {
  unit: 'week' | 'month';
  /** The previous periods in R, oldest first: each one's trades with a planned risk, the others counted apart. */
  previous: Array<PeriodRange & RSummary>;
  /** The previous periods' R per period (their exact sum over the periods); null when none of their trades has a planned risk. */
  previousAverageR: number | null;
  /** This period's total R less that average; null when either side has no R. */
  changeR: number | null;
  text: string;
}

/**
 * The comparison with the previous four periods in R: what Reflect's previous-periods table and its text say
 * under the R switch. Sums are the domain's exact ones (r-summary.ts); the average is taken of the exact sum and
 * rounded once. `current` and `previous` are the trades of this period and of the four before it.
 */
export function comparePeriodsInR(
  period: ReflectionPeriod,
  range: PeriodRange,
  current: Iterable<RTrade>,
  previous: Iterable<RTrade>,
): RComparison | null {
  if (period === 'day') return null;
  const ranges = previousRanges(period, range);
  const each = ranges.map(() => new RAccumulator());
  const all = new RAccumulator();
  for (const trade of previous) {
    const k = ranges.findIndex((r) => trade.tradeDate >= r.from && trade.tradeDate <= r.to);
    if (k < 0) continue;
    each[k]!.add(trade);
    all.add(trade);
  }
  const now = new RAccumulator();
  for (const trade of current) now.add(trade);
  const previousAverage = all.withRisk === 0 ? null : all.exactTotalR().dividedBy(COMPARISON_PERIODS);
  const currentR = now.withRisk === 0 ? null : now.exactTotalR();
  const changeR = previousAverage === null || currentR === null ? null : toR(currentR.minus(previousAverage));
  const unit = period;
  const units = `${unit}s`;
  const apart = all.trades - all.withRisk;
  const text =
    all.trades === 0
      ? `No trades in the previous ${COMPARISON_PERIODS} ${units} to compare with.`
      : previousAverage === null
        ? `No trade of the previous ${COMPARISON_PERIODS} ${units} has a planned risk: nothing to compare in R.`
        : currentR === null
          ? `No trade of this ${unit} has a planned risk: nothing to compare in R.`
          : [
              `Net ${formatR(toR(currentR))} against an average of ${formatR(toR(previousAverage))} per ${unit} over the previous ${COMPARISON_PERIODS} ${units} (${formatR(changeR!)}).`,
              now.trades > now.withRisk ? `This ${unit}: ${describeWithoutRisk(now.trades - now.withRisk)}, left out.` : '',
              apart > 0 ? `The previous ${units}: ${describeWithoutRisk(apart)}, left out.` : '',
            ]
              .filter(Boolean)
              .join(' ');
  return {
    unit,
    previous: ranges.map((r, k) => ({ ...r, ...each[k]!.summary() })),
    previousAverageR: previousAverage === null ? null : toR(previousAverage),
    changeR,
    text,
  };
}
