import { DAY_NAMES } from '../dates/calendar-day';
import type { Cents } from '../money';
import { calculateAverageLoss, calculateAverageWin, calculateProfitFactorOrNull, findLargestWinAndLoss } from '../reports/formulas';
import { calculateWinRate } from '../stats/win-rate';
import type { Reflection } from './reflection';

/**
 * The figures of a period's reflections (the analysis result's statistics, the Summary card, Period
 * Stats and Tags Analysis). Every number the page or an AI analysis shows comes from here: the model is given these
 * figures and writes prose around them; it never computes one.
 *
 * Win rate is wins / (wins + losses) x 100 with one decimal, break-evens excluded.
 */

export interface GroupFigures {
  totalTrades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  winRate: number;
  pnlCents: Cents;
}

export interface SessionFigures extends GroupFigures {
  session: string;
}
export interface SetupFigures extends GroupFigures {
  setup: string;
}
export interface WeekdayFigures extends GroupFigures {
  day: string;
}
export interface TagFigures extends GroupFigures {
  tag: string;
}

export interface AdherenceFigures {
  /** Trades rated followed or not followed. */
  rated: number;
  followed: number;
  notFollowed: number;
  unrated: number;
  /** followed / rated x 100, one decimal; null when nothing is rated. */
  adherenceRate: number | null;
  /** The trades that followed the rules against those that did not: the number that makes a trader keep them. */
  whenFollowed: GroupFigures;
  whenNotFollowed: GroupFigures;
}

export interface ReflectionStatistics {
  totals: GroupFigures & {
    grossProfitCents: Cents;
    grossLossCents: Cents;
    /** null when there is no loss (an infinite ratio) or no trade. */
    profitFactor: number | null;
    averageWinCents: Cents | null;
    averageLossCents: Cents | null;
    largestWinCents: Cents | null;
    largestLossCents: Cents | null;
    tradingDays: number;
  };
  byTimeOfDay: SessionFigures[];
  bySetupType: SetupFigures[];
  byMarketCondition: WeekdayFigures[];
  byTag: TagFigures[];
  adherence: AdherenceFigures;
}

interface Accumulator {
  totalTrades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  pnlCents: Cents;
}

const empty = (): Accumulator => ({ totalTrades: 0, wins: 0, losses: 0, breakEvens: 0, pnlCents: 0 });

function add(acc: Accumulator, reflection: Pick<Reflection, 'result' | 'pnlCents'>) {
  acc.totalTrades++;
  if (reflection.result === 'Win') acc.wins++;
  else if (reflection.result === 'Loss') acc.losses++;
  else acc.breakEvens++;
  acc.pnlCents += reflection.pnlCents;
}

function figures(acc: Accumulator): GroupFigures {
  return { ...acc, winRate: calculateWinRate(acc) };
}

function groupBy<K extends string>(reflections: readonly Reflection[], keys: (r: Reflection) => readonly string[], name: K) {
  const groups = new Map<string, Accumulator>();
  for (const reflection of reflections) {
    for (const key of keys(reflection)) {
      let acc = groups.get(key);
      if (!acc) groups.set(key, (acc = empty()));
      add(acc, reflection);
    }
  }
  return [...groups].map(([key, acc]) => ({ [name]: key, ...figures(acc) }) as GroupFigures & Record<K, string>);
}

/**
 * Sessions in the order of a futures trading day, which opens at 18:00 New York time the evening before (the overnight
 * session, then the cash session's); others after them, alphabetically.
 */
const SESSION_ORDER = ['Overnight', 'Pre-Market', 'AM', 'Lunch', 'PM', 'Power Hour', 'After Hours'];

function bySessionOrder(a: { session: string }, b: { session: string }) {
  const ia = SESSION_ORDER.indexOf(a.session);
  const ib = SESSION_ORDER.indexOf(b.session);
  if (ia !== ib) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
  return a.session.localeCompare(b.session);
}

/** Most traded first; ties by name, so the order never depends on the input order. */
function byCountThenName<T extends GroupFigures>(name: (t: T) => string) {
  return (a: T, b: T) => b.totalTrades - a.totalTrades || name(a).localeCompare(name(b));
}

const WEEK_FROM_MONDAY = [...DAY_NAMES.slice(1), DAY_NAMES[0]] as string[];

export function computeReflectionStatistics(reflections: readonly Reflection[]): ReflectionStatistics {
  const total = empty();
  let grossProfitCents = 0;
  let grossLossCents = 0;
  const days = new Set<string>();
  const followed = empty();
  const notFollowed = empty();
  for (const r of reflections) {
    add(total, r);
    days.add(r.date);
    if (r.pnlCents > 0) grossProfitCents += r.pnlCents;
    else if (r.pnlCents < 0) grossLossCents += r.pnlCents;
    if (r.followedRules === true) add(followed, r);
    else if (r.followedRules === false) add(notFollowed, r);
  }
  // The Reports' formulas (src/domain/reports/formulas.ts), over the trades counted by the sign of their net P&L.
  const winners = reflections.filter((r) => r.pnlCents > 0).length;
  const losers = reflections.filter((r) => r.pnlCents < 0).length;
  const pnl = reflections.map((r) => r.pnlCents);
  const largest = findLargestWinAndLoss(pnl);
  const rated = followed.totalTrades + notFollowed.totalTrades;

  return {
    totals: {
      ...figures(total),
      grossProfitCents,
      grossLossCents,
      profitFactor: calculateProfitFactorOrNull({ grossProfitCents, grossLossCents }),
      averageWinCents: calculateAverageWin({ wins: winners, grossProfitCents }),
      averageLossCents: calculateAverageLoss({ losses: losers, grossLossCents }),
      largestWinCents: largest.win === null ? null : pnl[largest.win]!,
      largestLossCents: largest.loss === null ? null : pnl[largest.loss]!,
      tradingDays: days.size,
    },
    byTimeOfDay: groupBy(reflections, (r) => [r.session || 'Unknown'], 'session').sort(bySessionOrder),
    bySetupType: groupBy(reflections, (r) => [r.type || 'Unspecified'], 'setup').sort(byCountThenName((s) => s.setup)),
    byMarketCondition: groupBy(reflections, (r) => [r.day], 'day').sort((a, b) => WEEK_FROM_MONDAY.indexOf(a.day) - WEEK_FROM_MONDAY.indexOf(b.day)),
    byTag: groupBy(reflections, (r) => r.tags, 'tag').sort(byCountThenName((t) => t.tag)),
    adherence: {
      rated,
      followed: followed.totalTrades,
      notFollowed: notFollowed.totalTrades,
      unrated: total.totalTrades - rated,
      adherenceRate: rated ? Math.round((followed.totalTrades * 1000) / rated) / 10 : null,
      whenFollowed: figures(followed),
      whenNotFollowed: figures(notFollowed),
    },
  };
}

/** Period Stats shows the top 5 tags. */
export function getTopTags(statistics: Pick<ReflectionStatistics, 'byTag'>, count = 5): TagFigures[] {
  return statistics.byTag.slice(0, count);
}

/** Win rate is green at 50 or more on the Reflect page. */
export function isReflectionWinRateGood(winRate: number): boolean {
  return winRate >= 50;
}
