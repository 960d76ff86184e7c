import type { ReflectionStatistics } from './statistics';

/**
 * Trading Insights:
 * - win rate above 60 with adherence above 70 gives best-performance advice;
 * - win rate below 50 with adherence below 60 gives review-plan advice;
 * - a FOMO tag, or trades that did not follow the rules, give their own advice.
 * Adherence is followed / rated trades; with nothing rated the two adherence rules cannot apply.
 */
export type InsightKind = 'best-performance' | 'review-plan' | 'fomo' | 'rules-broken' | 'rate-your-trades';

export interface TradingInsight {
  kind: InsightKind;
  tone: 'positive' | 'warning' | 'neutral';
  text: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Who reads the insights: the trader (spoken to), or a mentor reading the trader's shared accounts (spoken to about the
 * trader, whose rules they are and who alone marks the trades).
 */
export type InsightReader = 'trader' | 'mentor';

export function buildTradingInsights(statistics: ReflectionStatistics, reader: InsightReader = 'trader'): TradingInsight[] {
  const insights = buildInsights(statistics);
  return reader === 'trader' ? insights : insights.map((insight) => ({ ...insight, text: MENTOR_TEXT[insight.kind](statistics) }));
}

/** The insights' words for a mentor, by kind (the figures are the same as the trader's). */
const MENTOR_TEXT: Record<InsightKind, (statistics: ReflectionStatistics) => string> = {
  'best-performance': ({ totals, adherence }) =>
    `The trader's best trading: a ${totals.winRate.toFixed(1)}% win rate with their rules followed on ${adherence.adherenceRate!.toFixed(1)}% of rated trades.`,
  'review-plan': ({ totals, adherence }) =>
    `Win rate ${totals.winRate.toFixed(1)}% with the trader's rules followed on only ${adherence.adherenceRate!.toFixed(1)}% of rated trades: a plan worth reviewing together.`,
  fomo: ({ byTag }) => `FOMO is tagged on ${plural(byTag.find((t) => t.tag.toLowerCase() === 'fomo')!.totalTrades, 'trade')}.`,
  'rules-broken': ({ adherence }) => `The trader marked ${plural(adherence.notFollowed, 'trade')} as not following their rules.`,
  'rate-your-trades': () => 'The trader has not marked whether these trades followed their rules.',
};

function buildInsights(statistics: ReflectionStatistics): TradingInsight[] {
  const { totals, adherence, byTag } = statistics;
  if (totals.totalTrades === 0) return [];
  const insights: TradingInsight[] = [];
  const rate = adherence.adherenceRate;
  // A period of break-evens only has no win rate to praise or worry about.
  const decided = totals.wins + totals.losses > 0;
  if (rate !== null && decided && totals.winRate > 60 && rate > 70) {
    insights.push({
      kind: 'best-performance',
      tone: 'positive',
      text: `This is your best trading: a ${totals.winRate.toFixed(1)}% win rate with your rules followed on ${rate.toFixed(1)}% of rated trades. Keep doing exactly what you did.`,
    });
  }
  if (rate !== null && decided && totals.winRate < 50 && rate < 60) {
    insights.push({
      kind: 'review-plan',
      tone: 'warning',
      text: `Win rate ${totals.winRate.toFixed(1)}% with your rules followed on only ${rate.toFixed(1)}% of rated trades: review your trading plan before the next session.`,
    });
  }
  const fomo = byTag.find((t) => t.tag.toLowerCase() === 'fomo');
  if (fomo) {
    insights.push({
      kind: 'fomo',
      tone: 'warning',
      text: `FOMO is tagged on ${plural(fomo.totalTrades, 'trade')}. Wait for your setup: a missed trade costs nothing.`,
    });
  }
  if (adherence.notFollowed > 0) {
    insights.push({
      kind: 'rules-broken',
      tone: 'warning',
      text: `You broke your rules on ${plural(adherence.notFollowed, 'trade')}. Write down what pulled you off your plan.`,
    });
  }
  if (insights.length === 0 && adherence.rated === 0) {
    insights.push({
      kind: 'rate-your-trades',
      tone: 'neutral',
      text: 'Mark whether each trade followed your rules to see how your discipline shows in your results.',
    });
  }
  return insights;
}
