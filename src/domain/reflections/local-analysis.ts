import { formatUsd } from '../money';
import { formatWinRate } from '../stats/win-rate';
import { count } from '../text';
import type { GroupFigures, ReflectionStatistics } from './statistics';

/**
 * The analysis result: a summary with patterns, strengths, weaknesses,
 * suggestions, an action plan, and statistics by time of day, setup and weekday ("market condition").
 */
export interface AnalysisResult {
  summary: { totalTrades: number; winRate: number; patterns: string[] };
  strengths: string[];
  weaknesses: string[];
  suggestions: string[];
  actionPlan: string[];
  /** Each group's wins and losses too: a group of break-evens has no win rate ('—', not 0.0%). */
  statistics: {
    byTimeOfDay: Array<{ session: string } & AnalysisGroupFigures>;
    bySetupType: Array<{ setup: string } & AnalysisGroupFigures>;
    byMarketCondition: Array<{ day: string } & AnalysisGroupFigures>;
  };
}

export type AnalysisGroupFigures = Pick<GroupFigures, 'totalTrades' | 'wins' | 'losses' | 'winRate' | 'pnlCents'>;

/** The prose an AI provider may write; every figure around it is ours. */
export type AnalysisProse = Pick<AnalysisResult, 'strengths' | 'weaknesses' | 'suggestions' | 'actionPlan'> & {
  patterns: string[];
};

/** Groups with fewer trades than this say little: they are not called strong or weak. */
const MIN_GROUP_TRADES = 2;

const pct = (n: number) => `${n.toFixed(1)}%`;
const trades = (n: number) => `${n} trade${n === 1 ? '' : 's'}`;
/** A group in a sentence; one where nothing was won or lost has no win rate ('—', not 0.0%). */
const describe = (g: GroupFigures) => `${trades(g.totalTrades)}, ${formatWinRate(g.winRate, g.wins + g.losses)} win rate, ${formatUsd(g.pnlCents)}`;

/** The statistics block of an analysis, always from our own figures (never from a model). */
export function analysisStatistics(statistics: ReflectionStatistics): AnalysisResult['statistics'] {
  const pick = <T extends GroupFigures>(g: T): AnalysisGroupFigures => ({
    totalTrades: g.totalTrades,
    wins: g.wins,
    losses: g.losses,
    winRate: g.winRate,
    pnlCents: g.pnlCents,
  });
  return {
    byTimeOfDay: statistics.byTimeOfDay.map((s) => ({ session: s.session, ...pick(s) })),
    bySetupType: statistics.bySetupType.map((s) => ({ setup: s.setup, ...pick(s) })),
    byMarketCondition: statistics.byMarketCondition.map((d) => ({ day: d.day, ...pick(d) })),
  };
}

/** An analysis made of the prose given and our figures. */
export function assembleAnalysis(statistics: ReflectionStatistics, prose: AnalysisProse): AnalysisResult {
  return {
    summary: { totalTrades: statistics.totals.totalTrades, winRate: statistics.totals.winRate, patterns: prose.patterns },
    strengths: prose.strengths,
    weaknesses: prose.weaknesses,
    suggestions: prose.suggestions,
    actionPlan: prose.actionPlan,
    statistics: analysisStatistics(statistics),
  };
}

function best<T extends GroupFigures>(groups: readonly T[]): T | undefined {
  return [...groups].filter((g) => g.totalTrades >= MIN_GROUP_TRADES).sort((a, b) => b.pnlCents - a.pnlCents || b.winRate - a.winRate)[0];
}

function worst<T extends GroupFigures>(groups: readonly T[]): T | undefined {
  return [...groups].filter((g) => g.totalTrades >= MIN_GROUP_TRADES).sort((a, b) => a.pnlCents - b.pnlCents || a.winRate - b.winRate)[0];
}

/**
 * The local analysis: the same shape as the AI's, written from the
 * figures by fixed rules. It is what a trader gets without a provider, or when the provider fails. No random numbers
 *: the same trades always give the same analysis.
 */
export function buildLocalAnalysis(statistics: ReflectionStatistics): AnalysisResult {
  const { totals, adherence } = statistics;
  if (totals.totalTrades === 0) {
    return assembleAnalysis(statistics, { patterns: ['No trades in this period.'], strengths: [], weaknesses: [], suggestions: [], actionPlan: [] });
  }
  const bestSession = best(statistics.byTimeOfDay);
  const worstSession = worst(statistics.byTimeOfDay);
  const bestSetup = best(statistics.bySetupType);
  const worstSetup = worst(statistics.bySetupType);
  const bestDay = best(statistics.byMarketCondition);
  const worstDay = worst(statistics.byMarketCondition);
  const avgWin = totals.averageWinCents;
  const avgLoss = totals.averageLossCents === null ? null : Math.abs(totals.averageLossCents);
  const fomo = statistics.byTag.find((t) => t.tag.toLowerCase() === 'fomo');

  const patterns: string[] = [
    `Net P&L ${formatUsd(totals.pnlCents)} over ${trades(totals.totalTrades)} on ${totals.tradingDays} trading day${totals.tradingDays === 1 ? '' : 's'}: ${count(totals.wins, 'win', 'wins')}, ${count(totals.losses, 'loss', 'losses')}, ${totals.breakEvens} break-even.`,
  ];
  if (bestSession) patterns.push(`Best session: ${bestSession.session} (${describe(bestSession)}).`);
  if (worstSession && worstSession !== bestSession) patterns.push(`Weakest session: ${worstSession.session} (${describe(worstSession)}).`);
  const mostTraded = statistics.bySetupType[0];
  if (mostTraded) patterns.push(`Most traded setup: ${mostTraded.setup} (${describe(mostTraded)}).`);
  if (bestDay && worstDay && bestDay !== worstDay)
    patterns.push(`Best weekday: ${bestDay.day} (${formatUsd(bestDay.pnlCents)}); weakest: ${worstDay.day} (${formatUsd(worstDay.pnlCents)}).`);

  const strengths: string[] = [];
  if (totals.winRate >= 50 && totals.wins + totals.losses > 0)
    strengths.push(`Win rate of ${pct(totals.winRate)} (${count(totals.wins, 'win', 'wins')} against ${count(totals.losses, 'loss', 'losses')}).`);
  if (totals.profitFactor !== null && totals.profitFactor >= 1.5)
    strengths.push(`Profit factor of ${totals.profitFactor.toFixed(2)}: your winners pay for your losers.`);
  if (totals.pnlCents > 0 && totals.profitFactor === null) strengths.push(`No losing trade, net ${formatUsd(totals.pnlCents)}.`);
  for (const s of statistics.byTimeOfDay)
    if (s.totalTrades >= MIN_GROUP_TRADES && s.winRate >= 60 && s.pnlCents > 0)
      strengths.push(`Strong in the ${s.session} session (${describe(s)}).`);
  for (const s of statistics.bySetupType)
    if (s.totalTrades >= MIN_GROUP_TRADES && s.winRate >= 60 && s.pnlCents > 0) strengths.push(`${s.setup} works for you (${describe(s)}).`);
  if (avgWin !== null && avgLoss !== null && avgWin > avgLoss)
    strengths.push(`Your average win (${formatUsd(avgWin)}) is larger than your average loss (${formatUsd(avgLoss)}).`);
  if (adherence.adherenceRate !== null && adherence.adherenceRate >= 80)
    strengths.push(`Rules followed on ${pct(adherence.adherenceRate)} of rated trades.`);
  const followedPays =
    adherence.whenFollowed.totalTrades > 0 &&
    adherence.whenNotFollowed.totalTrades > 0 &&
    adherence.whenFollowed.pnlCents > adherence.whenNotFollowed.pnlCents;
  if (followedPays) {
    strengths.push(
      `Following your rules pays: ${describe(adherence.whenFollowed)} when followed, against ${describe(adherence.whenNotFollowed)} when not.`,
    );
  }

  const weaknesses: string[] = [];
  if (totals.winRate < 50 && totals.wins + totals.losses > 0)
    weaknesses.push(`Win rate of ${pct(totals.winRate)} (${count(totals.wins, 'win', 'wins')} against ${count(totals.losses, 'loss', 'losses')}).`);
  for (const s of statistics.byTimeOfDay)
    if (s.totalTrades >= MIN_GROUP_TRADES && s.pnlCents < 0 && s.winRate < 50)
      weaknesses.push(`The ${s.session} session costs you (${describe(s)}).`);
  for (const s of statistics.bySetupType)
    if (s.totalTrades >= MIN_GROUP_TRADES && s.pnlCents < 0 && s.winRate < 50) weaknesses.push(`${s.setup} is not working (${describe(s)}).`);
  if (avgWin !== null && avgLoss !== null && avgLoss > avgWin)
    weaknesses.push(`Your average loss (${formatUsd(avgLoss)}) is larger than your average win (${formatUsd(avgWin)}).`);
  if (adherence.notFollowed > 0) weaknesses.push(`Rules broken on ${trades(adherence.notFollowed)} (${describe(adherence.whenNotFollowed)}).`);
  if (fomo) weaknesses.push(`FOMO tagged on ${trades(fomo.totalTrades)} (${formatUsd(fomo.pnlCents)}).`);
  if (totals.largestLossCents !== null && avgWin !== null && Math.abs(totals.largestLossCents) > 2 * avgWin) {
    weaknesses.push(`Your largest loss (${formatUsd(Math.abs(totals.largestLossCents))}) is more than twice your average win.`);
  }

  const suggestions: string[] = [];
  if (bestSetup && bestSetup.pnlCents > 0) suggestions.push(`Focus on ${bestSetup.setup}, your best setup this period.`);
  if (worstSetup && worstSetup.pnlCents < 0 && worstSetup !== bestSetup)
    suggestions.push(`Pause ${worstSetup.setup} until you have reviewed why it loses.`);
  if (worstSession && worstSession.pnlCents < 0) suggestions.push(`Trade smaller, or not at all, in the ${worstSession.session} session.`);
  if (avgLoss !== null && avgWin !== null && avgLoss > avgWin)
    suggestions.push(`Cut losers sooner: keep every loss under your average win of ${formatUsd(avgWin)}.`);
  if (adherence.notFollowed > 0 || fomo)
    suggestions.push('Check each entry against your rules before you take it; skip any trade that fails the checklist.');
  if (adherence.unrated > 0) suggestions.push(`Mark rule adherence on the remaining ${trades(adherence.unrated)} so the analysis can compare them.`);
  if (suggestions.length === 0) suggestions.push('Keep writing a note on each trade: the analysis gets sharper with every detail.');

  const actionPlan: string[] = [];
  if (bestSetup && bestSetup.pnlCents > 0) {
    actionPlan.push(
      `Take only ${bestSetup.setup} setups${bestSession && bestSession.pnlCents > 0 ? `, in the ${bestSession.session} session` : ''}.`,
    );
  }
  if (worstSession && worstSession.pnlCents < 0 && worstSession !== bestSession) actionPlan.push(`Stay flat in the ${worstSession.session} session.`);
  if (avgLoss !== null) actionPlan.push(`Stop for the day after a loss of ${formatUsd(avgLoss * 2)} (twice your average loss).`);
  actionPlan.push('Read your rules before the open, and rate every trade for rule adherence after the close.');

  return assembleAnalysis(statistics, { patterns, strengths, weaknesses, suggestions, actionPlan });
}
