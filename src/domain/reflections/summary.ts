import { formatShortDay } from '../dates/calendar-day';
import { formatUsd } from '../money';
import { formatWinRate } from '../stats/win-rate';
import { count } from '../text';
import type { PlaybookReport } from '../playbooks/report';
import type { PeriodComparison } from './comparison';
import { buildTradingInsights } from './insights';
import type { AnalysisGroupFigures, AnalysisResult } from './local-analysis';
import type { Reflection } from './reflection';
import { getTopTags, type GroupFigures, type ReflectionStatistics } from './statistics';

/** The Summary dialog: the period in a few lines, every figure from the statistics. */
export interface PeriodSummary {
  headline: string;
  lines: string[];
}

export function buildPeriodSummary(
  label: string,
  reflections: readonly Reflection[],
  statistics: ReflectionStatistics,
  comparison: PeriodComparison | null = null,
): PeriodSummary {
  const { totals, adherence } = statistics;
  const headline = `${label}: ${totals.totalTrades} trade${totals.totalTrades === 1 ? '' : 's'}, net ${formatUsd(totals.pnlCents)}`;
  const lines: string[] = [];
  if (totals.totalTrades === 0) return { headline, lines: ['No trades found for this period.'] };
  lines.push(
    `${count(totals.wins, 'win', 'wins')}, ${count(totals.losses, 'loss', 'losses')}, ${totals.breakEvens} break-even: ${formatWinRate(totals.winRate, totals.wins + totals.losses)} win rate (break-evens excluded).`,
  );
  if (totals.profitFactor !== null) lines.push(`Profit factor ${totals.profitFactor.toFixed(2)}.`);
  const ordered = [...reflections].sort((a, b) => b.pnlCents - a.pnlCents);
  const top = ordered[0]!;
  const bottom = ordered[ordered.length - 1]!;
  if (top.pnlCents > 0)
    lines.push(`Best trade: ${top.symbol} ${top.type || ''} on ${formatShortDay(top.date)}, ${formatUsd(top.pnlCents)}.`.replace(/ {2,}/g, ' '));
  if (bottom.pnlCents < 0)
    lines.push(
      `Worst trade: ${bottom.symbol} ${bottom.type || ''} on ${formatShortDay(bottom.date)}, ${formatUsd(bottom.pnlCents)}.`.replace(/ {2,}/g, ' '),
    );
  lines.push(
    adherence.adherenceRate === null
      ? 'Rule adherence: no trade rated yet.'
      : `Rule adherence: ${adherence.adherenceRate.toFixed(1)}% (${adherence.followed} of ${adherence.rated} rated trades followed your rules).`,
  );
  const tags = getTopTags(statistics);
  if (tags.length) lines.push(`Top tags: ${tags.map((t) => `${t.tag} (${t.totalTrades})`).join(', ')}.`);
  if (comparison) lines.push(comparison.text);
  for (const insight of buildTradingInsights(statistics)) lines.push(insight.text);
  return { headline, lines };
}

/** The analysis as plain text, for the .txt export. */
export function formatAnalysisAsText(input: {
  title: string;
  label: string;
  from: string;
  to: string;
  source: 'ai' | 'local';
  analysis: AnalysisResult;
  /** The period's wins and losses: the summary's win rate is '—' when there are none. */
  totals: Pick<GroupFigures, 'wins' | 'losses'>;
  comparison?: PeriodComparison | null;
  /** By Playbook: each playbook's report over the period's trades. */
  playbooks?: ReadonlyArray<{ name: string; report: PlaybookReport }>;
}): string {
  const { analysis } = input;
  const section = (heading: string, items: readonly string[]) =>
    items.length ? [heading, ...items.map((item) => `- ${item}`), ''] : [heading, '- (none)', ''];
  // A group where nothing was won or lost has no win rate ('—'), not a 0.0% one.
  const table = (heading: string, rows: ReadonlyArray<{ name: string } & AnalysisGroupFigures>) => [
    heading,
    ...rows.map(
      (r) =>
        `- ${r.name}: ${r.totalTrades} trade${r.totalTrades === 1 ? '' : 's'}, ${formatWinRate(r.winRate, r.wins + r.losses)} win rate, ${formatUsd(r.pnlCents)}`,
    ),
    '',
  ];
  return [
    input.title,
    `${input.label} (${input.from} to ${input.to})`,
    input.source === 'ai' ? 'Written by the AI analyst from Edgebook’s own figures.' : 'Local analysis (computed by Edgebook).',
    '',
    'SUMMARY',
    `- Total trades: ${analysis.summary.totalTrades}`,
    `- Win rate: ${formatWinRate(analysis.summary.winRate, input.totals.wins + input.totals.losses)}`,
    ...analysis.summary.patterns.map((p) => `- ${p}`),
    ...(input.comparison ? [`- ${input.comparison.text}`] : []),
    '',
    ...section('STRENGTHS', analysis.strengths),
    ...section('WEAKNESSES', analysis.weaknesses),
    ...section('SUGGESTIONS', analysis.suggestions),
    ...section('ACTION PLAN', analysis.actionPlan),
    ...table(
      'BY TIME OF DAY',
      analysis.statistics.byTimeOfDay.map((r) => ({ name: r.session, ...r })),
    ),
    ...table(
      'BY SETUP',
      analysis.statistics.bySetupType.map((r) => ({ name: r.setup, ...r })),
    ),
    ...table(
      'BY DAY OF WEEK',
      analysis.statistics.byMarketCondition.map((r) => ({ name: r.day, ...r })),
    ),
    ...(input.playbooks?.length ? ['BY PLAYBOOK', ...input.playbooks.map(({ name, report }) => `- ${name}: ${describePlaybook(report)}`), ''] : []),
  ].join('\n');
}

/** One playbook's line of the text export: its results, then its rules followed and what following them made. */
function describePlaybook(r: PlaybookReport): string {
  const parts = [`${r.trades} trade${r.trades === 1 ? '' : 's'}`, `${formatWinRate(r.winRate, r.wins + r.losses)} win rate`, formatUsd(r.netCents)];
  if (r.adherence !== null) parts.push(`rules followed ${r.adherence.toFixed(1)}%`);
  if (r.followed.trades > 0 || r.broken.trades > 0) {
    const net = (f: PlaybookReport['followed']) => (f.trades === 0 ? '—' : formatUsd(f.netCents));
    parts.push(`followed ${net(r.followed)} / broken ${net(r.broken)}`);
  }
  return parts.join(', ');
}

/** {product}-analysis-{period}-{yyyy-MM-dd}, named after the first day of the analysed period. */
export function analysisExportFileName(period: string, from: string, extension: 'json' | 'txt'): string {
  return `edgebook-analysis-${period}-${from}.${extension}`;
}
