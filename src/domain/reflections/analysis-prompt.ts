import { formatUsd } from '../money';
import type { PeriodComparison } from './comparison';
import type { Reflection } from './reflection';
import type { GroupFigures, ReflectionStatistics } from './statistics';
import { tableCell as cell, fenceTraderData, TRADER_DATA_RULE } from '../text';
import { describeWithoutRisk, formatR } from '../risk/format-r';
import type { RSummary } from '../risk/r-summary';
import type { PlaybookFigures, PlaybookReport } from '../playbooks/report';
import type { ReflectionRStatistics } from './r-statistics';

/** A group's win rate as the model reads it: a group of break-evens only has none, not 0%. */
const promptWinRate = (g: { winRate: number; wins: number; losses: number }) =>
  g.wins + g.losses > 0 ? `${g.winRate.toFixed(1)}% win rate` : 'no win or loss';

/**
 * What the AI analyst is told about a period. The model receives our
 * figures and the trades and writes only prose; it is told never to compute a number itself, and the statistics
 * the trader sees are ours whatever it writes.
 */

export const ANALYSIS_SYSTEM_PROMPT = [
  "You are Edgebook's trading performance analyst. You review one trader's trades for one period and tell them what to keep doing, what to stop and what to do in their next session.",
  'Every figure you need has been computed by Edgebook and is given to you. Never calculate a new number (no sums, averages, ratios or percentages of your own); when you cite a figure, copy it exactly as written.',
  'Respond with one JSON object and nothing else (no markdown), with exactly these keys:',
  '{"summary": {"patterns": [string]}, "strengths": [string], "weaknesses": [string], "suggestions": [string], "actionPlan": [string]}',
  'Write 2 to 5 short, specific items in each list. The actionPlan lists concrete steps for the next trading session.',
  TRADER_DATA_RULE,
].join('\n');

/** The most trades listed in the prompt; the figures always cover every trade of the period. */
export const ANALYSIS_PROMPT_MAX_TRADES = 150;

const line = (name: string, g: GroupFigures) =>
  `- ${name}: ${g.totalTrades} trade${g.totalTrades === 1 ? '' : 's'}, ${promptWinRate(g)}, net ${formatUsd(g.pnlCents)}`;

const rOrNone = (r: number | null) => (r === null ? 'none' : formatR(r));
const apart = (g: { tradesWithoutRisk: number }) => (g.tradesWithoutRisk > 0 ? ` (${describeWithoutRisk(g.tradesWithoutRisk)}, left out)` : '');
const rLine = (name: string, g: RSummary) =>
  `- ${name}: ${g.tradesWithRisk === 0 ? 'no trade with a planned risk' : `total ${rOrNone(g.totalR)}, expectancy ${rOrNone(g.expectancyR)} a trade`}${apart(g)}`;

const playbookSide = (name: string, f: PlaybookFigures) =>
  f.trades === 0
    ? `${name}: no trades`
    : `${name}: ${f.trades} trade${f.trades === 1 ? '' : 's'}, ${f.winRate === null ? 'no win or loss' : `${f.winRate.toFixed(1)}% win rate`}, net ${formatUsd(f.netCents)}${f.expectancyR === null ? '' : `, expectancy ${formatR(f.expectancyR)}`}`;

/** A playbook's row as the By Playbook table shows it (src/domain/playbooks), rule-following beside the results. */
function playbookLines(name: string, p: PlaybookReport): string[] {
  return [
    `- ${cell(name, 60)}: ${p.trades} trade${p.trades === 1 ? '' : 's'}, ${p.winRate === null ? 'no win or loss' : `${p.winRate.toFixed(1)}% win rate`}, net ${formatUsd(p.netCents)}, expectancy ${p.expectancyCents === null ? 'none' : formatUsd(p.expectancyCents)} and ${rOrNone(p.expectancyR)} a trade${apart(p)}`,
    p.rules === 0
      ? '  - no rules in this playbook'
      : `  - rules followed ${p.adherence === null ? 'none' : `${p.adherence.toFixed(1)}%`} (${p.rules} rule${p.rules === 1 ? '' : 's'}); ${playbookSide('every rule followed', p.followed)}; ${playbookSide('one or more broken', p.broken)}`,
  ];
}

/** The user message of the analysis: the period's figures and trades, fenced as the trader's data (text.ts). */
export function buildAnalysisPrompt(input: {
  label: string;
  from: string;
  to: string;
  accountName: string;
  statistics: ReflectionStatistics;
  comparison: PeriodComparison | null;
  reflections: readonly Reflection[];
  /** The same trades in R (r-statistics.ts): its totals, adherence and comparison join the figures. */
  r?: ReflectionRStatistics;
  /** The By Playbook rows of the period (src/domain/playbooks), the trader's own playbooks only. */
  playbooks?: ReadonlyArray<{ name: string; report: PlaybookReport }>;
  maxTrades?: number;
}): string {
  const { statistics: s, reflections } = input;
  const t = s.totals;
  const a = s.adherence;
  const maxTrades = input.maxTrades ?? ANALYSIS_PROMPT_MAX_TRADES;
  const listed = reflections.slice(0, maxTrades);
  const parts = [
    `Period: ${input.label} (${input.from} to ${input.to}). Account: ${input.accountName}.`,
    '',
    'FIGURES (computed by Edgebook from every trade of the period):',
    `- Trades: ${t.totalTrades} on ${t.tradingDays} trading day${t.tradingDays === 1 ? '' : 's'} (${t.wins} wins, ${t.losses} losses, ${t.breakEvens} break-even)`,
    `- Win rate (break-evens excluded): ${t.wins + t.losses > 0 ? `${t.winRate.toFixed(1)}%` : 'none (no win or loss)'}`,
    `- Net P&L: ${formatUsd(t.pnlCents)}; gross profit ${formatUsd(t.grossProfitCents)}; gross loss ${formatUsd(t.grossLossCents)}`,
    `- Profit factor: ${t.profitFactor === null ? 'not defined (no losing trade)' : t.profitFactor.toFixed(2)}`,
    `- Average win: ${t.averageWinCents === null ? 'none' : formatUsd(t.averageWinCents)}; average loss: ${t.averageLossCents === null ? 'none' : formatUsd(t.averageLossCents)}`,
    `- Largest win: ${t.largestWinCents === null ? 'none' : formatUsd(t.largestWinCents)}; largest loss: ${t.largestLossCents === null ? 'none' : formatUsd(t.largestLossCents)}`,
    '',
    'BY SESSION (time of day):',
    ...s.byTimeOfDay.map((g) => line(g.session, g)),
    '',
    'BY SETUP (trade type):',
    ...s.bySetupType.map((g) => line(g.setup, g)),
    '',
    'BY WEEKDAY:',
    ...s.byMarketCondition.map((g) => line(g.day, g)),
    '',
    'BY TAG:',
    ...(s.byTag.length ? s.byTag.slice(0, 12).map((g) => line(g.tag, g)) : ['- no tags']),
    '',
    'RULE ADHERENCE (rated by the trader):',
    a.adherenceRate === null
      ? `- No trade rated (${a.unrated} unrated).`
      : `- Rules followed on ${a.adherenceRate.toFixed(1)}% of rated trades (${a.followed} followed, ${a.notFollowed} not followed, ${a.unrated} unrated).`,
    ...(a.followed ? [line('When rules were followed', a.whenFollowed)] : []),
    ...(a.notFollowed ? [line('When rules were not followed', a.whenNotFollowed)] : []),
    ...(input.playbooks
      ? [
          '',
          "BY PLAYBOOK (the trader's playbooks with trades this period; rules followed = ticked rules over rules x trades):",
          ...(input.playbooks.length
            ? input.playbooks.flatMap((p) => playbookLines(p.name, p.report))
            : ['- no trade of this period has a playbook']),
        ]
      : []),
    ...(input.r
      ? [
          '',
          `IN R (net P&L over the planned risk, of the ${input.r.totals.tradesWithRisk} trade${input.r.totals.tradesWithRisk === 1 ? '' : 's'} with one${input.r.totals.tradesWithoutRisk > 0 ? `; ${describeWithoutRisk(input.r.totals.tradesWithoutRisk)}, left out` : ''}):`,
          ...(input.r.totals.tradesWithRisk === 0
            ? ['- no trade of this period has a planned risk']
            : [
                `- Total ${rOrNone(input.r.totals.totalR)}; expectancy ${rOrNone(input.r.totals.expectancyR)} a trade; average win ${rOrNone(input.r.totals.averageWinR)}; average loss ${rOrNone(input.r.totals.averageLossR)}`,
                ...(a.followed ? [rLine('When rules were followed', input.r.adherence.whenFollowed)] : []),
                ...(a.notFollowed ? [rLine('When rules were not followed', input.r.adherence.whenNotFollowed)] : []),
                ...(input.r.comparison ? [`- ${input.r.comparison.text}`] : []),
              ]),
        ]
      : []),
    ...(input.comparison ? ['', 'COMPARED WITH THE PREVIOUS PERIODS:', `- ${input.comparison.text}`] : []),
    '',
    `TRADES (newest first${listed.length < reflections.length ? `, the ${listed.length} most recent of ${reflections.length}` : ''}):`,
    'date | symbol | session | setup | result | net P&L | followed rules | tags | notes',
    ...listed.map((r) =>
      [
        r.date,
        cell(r.symbol, 20),
        cell(r.session, 20),
        cell(r.type, 30),
        r.result,
        formatUsd(r.pnlCents),
        r.followedRules === null ? 'not rated' : r.followedRules ? 'yes' : 'no',
        cell(r.tags.join(', '), 60),
        cell(r.description, 200),
      ].join(' | '),
    ),
  ];
  // All of it is the period's data: the names of sessions, setups, tags and the account, and the notes, are the trader's.
  return fenceTraderData(parts.join('\n'));
}
