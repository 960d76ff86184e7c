import { tool } from 'ai';
import { z } from 'zod';
import { reportFilter } from '../../../../contract/reports';
import {
  BREAKDOWN_LABELS,
  BREAKDOWN_MISSING,
  BREAKDOWNS,
  computeBreakdown,
  computeMistakes,
  computeOverview,
  computeROverview,
} from '../../../../domain/reports';
import { formatR } from '../../../../domain/risk/format-r';
import type { PlaybookFigures } from '../../../../domain/playbooks';
import { loadMistakeTags } from '../../../core/risk/repo';
import { formatFigure, listOverviewFigures } from '../../../../domain/reports/figures';
import { DATE_PRESETS, HOLD_BUCKET_IDS, TAG_MODES, TRADE_RESULTS, UNASSIGNED, WITH_WITHOUT } from '../../../../domain/reports/filter';
import { getOpeningBalance, withReportScope } from '../../../core/engine/scope';
import { playbookReportsInScope } from '../../../core/engine/playbook-reports';
import { playbooksRepo } from '../../../core/playbooks/repo';
import { accountsRepo } from '../../../core/accounts/repo';
import { money, percent, type ToolBasis, type ToolContext } from './common';

/**
 * The Reports page for the analyst: the overview or any breakdown of any filter of the filter model, computed
 * by the same domain code as the page, so an answer cites the page's figures. The trader is the context's, never the
 * model's; accounts are named as the trader names them.
 */
const list = <T extends z.ZodType>(item: T, about: string) => z.array(item).max(50).optional().describe(about);

const filterInput = z.object({
  range: z.enum(DATE_PRESETS).optional().describe('A date range preset ending today in the trader zone; custom with from and to'),
  from: z.string().optional().describe('First trading day, yyyy-MM-dd (inclusive); with range custom or left out'),
  to: z.string().optional().describe('Last trading day, yyyy-MM-dd (inclusive)'),
  account: list(z.string().max(200), "Trading accounts by name (or 'unassigned'); all when left out"),
  symbol: list(z.string().max(50), 'Instrument roots such as NQ, ES, MNQ'),
  contract: list(z.string().max(100), 'Contracts such as NQZ5'),
  side: list(z.string().max(20), 'Long or Short'),
  setup: list(z.string().max(100), 'Setups (trade types) such as Breakout'),
  playbook: list(z.string().max(100), "The trader's playbooks by name"),
  session: list(z.string().max(50), 'Sessions such as Overnight, AM, Lunch, PM, After Hours'),
  tag: list(z.string().max(100), 'Tags'),
  tagMode: z.enum(TAG_MODES).optional().describe('How tags match: any of them (default), all of them, none of them'),
  result: list(z.enum(TRADE_RESULTS), 'Win, Loss or BE'),
  weekday: list(z.number().int().min(1).max(7), 'Days of the week of the trading day, 1 = Monday ... 7 = Sunday'),
  hour: list(z.number().int().min(0).max(23), "Hours of entry on the trader's clock, 0-23 (14 = 14:00-15:00)"),
  hold: list(z.enum(HOLD_BUCKET_IDS), 'Hold-time buckets'),
  sizeMin: z.number().min(0).optional().describe('Smallest position size (contracts or shares)'),
  sizeMax: z.number().min(0).optional().describe('Largest position size'),
  rMin: z.number().optional().describe('Smallest R-multiple (net P&L over planned risk), e.g. -1; leaves out trades without a planned risk'),
  rMax: z.number().optional().describe('Largest R-multiple, e.g. 2'),
  risk: z.enum(WITH_WITHOUT).optional().describe('Only trades with, or without, a planned risk'),
  mistakes: z.enum(WITH_WITHOUT).optional().describe('Only trades with, or without, a tag the trader marked as a mistake'),
  mistake: list(z.string().max(100), 'Trades carrying any of these mistake tags (FOMO, moved stop)'),
});

export const getReportTool = (ctx: ToolContext) =>
  tool({
    description:
      "The trader's Reports page for any filter: the overview (net and gross P&L, fees, win rate, profit factor, expectancy, average win and loss, payoff, largest win and loss, consecutive wins and losses, hold times, trading days, best and worst day, daily deviation and Sharpe, max drawdown with its dates) with the same trades in R-multiples (net P&L over planned risk), or a breakdown by instrument, contract, side, setup, session, tag, account, weekday, hour of entry, hold time, position size, month or year. Filters combine: e.g. NQ shorts entered 14:00-16:00 in the last 90 days. Or the mistakes report: each tag the trader marked as a mistake with its trades, net P&L and R, and the net P&L without those trades. Or the playbooks report: each of the trader's playbooks (named setups with a checklist of rules) with its trades, win rate, net P&L, expectancy in $ and R, how often its rules were followed, and its results when every rule was followed against when one was broken.",
    inputSchema: z.object({
      report: z
        .enum(['overview', 'breakdown', 'mistakes', 'playbooks'])
        .describe(
          "The overview (in dollars and in R), a breakdown by one dimension, what each of the trader's mistake tags cost, or each playbook's results and rule-following",
        ),
      by: z.enum(BREAKDOWNS).optional().describe('The breakdown dimension (with report breakdown)'),
      filter: filterInput.optional(),
    }),
    execute: async ({ report, by, filter: input = {} }) => {
      if (report === 'breakdown' && !by) return { error: `by is required for a breakdown: one of ${BREAKDOWNS.join(', ')}` };
      // Accounts by the trader's own names (the model never sees ids); a name the trader does not have is refused.
      const accounts = await ctx.database.withUser(ctx.userId, (tx) => accountsRepo(tx, ctx.userId).list());
      const account: string[] = [];
      for (const wanted of input.account ?? []) {
        const name = wanted.trim().toLowerCase();
        if (name === 'all') continue;
        if (name === UNASSIGNED) account.push(UNASSIGNED);
        else {
          const match = accounts.find((a) => a.id === wanted || a.name.toLowerCase() === name);
          if (!match) return { error: `No trading account named "${wanted}"` };
          account.push(match.id);
        }
      }
      // Playbooks by name too; a name the trader does not have is refused.
      const playbook: string[] = [];
      if (input.playbook?.length) {
        const own = await ctx.database.withUser(ctx.userId, (tx) => playbooksRepo(tx, ctx.userId).names());
        for (const wanted of input.playbook) {
          const match = own.find((p) => p.name.toLowerCase() === wanted.trim().toLowerCase());
          if (!match) return { error: `No playbook named "${wanted}"` };
          playbook.push(match.id);
        }
      }
      const parsed = reportFilter.safeParse({ ...input, account, playbook });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return { error: `${issue.path.join('.')}: ${issue.message}` };
      }
      // The copy is held until the figures are computed, then released (withReportScope, core/engine/scope.ts).
      return withReportScope(ctx.database, ctx.userId, parsed.data, ctx.now, async (scope) => {
        const basis: ToolBasis = {
          trades: scope.basis.trades,
          from: scope.basis.firstDay,
          to: scope.basis.lastDay,
          filters: [scope.basis.description],
          // The chat writes its sources from a lower-case start ("computed from ...").
          text: scope.basis.computedFrom.charAt(0).toLowerCase() + scope.basis.computedFrom.slice(1),
        };
        if (report === 'overview') {
          const overview = computeOverview(scope.set, { openingBalanceCents: getOpeningBalance(scope) });
          return {
            basis,
            filter: scope.basis.description,
            figures: Object.fromEntries(
              listOverviewFigures(overview).map((f) => [f.label, `${formatFigure(f.kind, f.value, f.infinite)}${f.note ? ` (${f.note})` : ''}`]),
            ),
            in_r: describeR(computeROverview(scope.set, scope.risk())),
          };
        }
        if (report === 'mistakes') {
          const tags = await ctx.database.withUser(ctx.userId, (tx) => loadMistakeTags(tx, ctx.userId));
          if (tags.length === 0) return { basis, filter: scope.basis.description, mistakes: [], note: 'The trader has marked no tag as a mistake' };
          const m = computeMistakes(scope.set, tags, scope.risk());
          return {
            basis,
            filter: scope.basis.description,
            mistakes: m.mistakes.map((row) => ({
              mistake: row.tag,
              trades: row.trades,
              net_pnl: money(row.netCents),
              total_r: row.totalR === null ? '-' : formatR(row.totalR),
            })),
            net_pnl: money(m.netCents),
            net_pnl_without_mistakes: money(m.netWithoutMistakesCents),
            trades_with_mistakes: m.tradesWithMistakes,
          };
        }
        if (report === 'playbooks') {
          const playbooks = await playbookReportsInScope(ctx.database, ctx.userId, scope);
          if (playbooks.length === 0) return { basis, filter: scope.basis.description, playbooks: [], note: 'The trader has no playbooks' };
          const figures = (f: PlaybookFigures) => ({
            trades: f.trades,
            win_rate: f.winRate === null ? '-' : percent(f.winRate),
            net_pnl: money(f.netCents),
            expectancy: f.expectancyCents === null ? '-' : money(f.expectancyCents),
            expectancy_r: f.expectancyR === null ? '-' : formatR(f.expectancyR),
            ...(f.tradesWithoutRisk > 0 && {
              r_left_out: `${f.tradesWithoutRisk} trade${f.tradesWithoutRisk === 1 ? '' : 's'} without a planned risk`,
            }),
          });
          return {
            basis,
            filter: scope.basis.description,
            playbooks: playbooks.map(({ name, report: r }) => ({
              playbook: name,
              rules: r.rules,
              ...figures(r),
              rules_followed: r.adherence === null ? '-' : percent(r.adherence),
              ...(r.rules > 0 && { all_rules_followed: figures(r.followed), one_or_more_rules_broken: figures(r.broken) }),
            })),
            chart: {
              kind: 'bar' as const,
              title: 'Net P&L by playbook',
              points: playbooks.map((p) => ({ label: p.name, cents: p.report.netCents })),
            },
          };
        }
        const dimension = by!;
        const breakdown = computeBreakdown(scope.set, dimension, {
          timeZone: scope.timeZone,
          accountName: scope.accountName,
          risk: scope.risk(),
          markets: scope.filter.markets,
        });
        const missing = BREAKDOWN_MISSING[dimension];
        return {
          basis,
          filter: scope.basis.description,
          by: BREAKDOWN_LABELS[dimension],
          rows: breakdown.rows.map((r) => ({
            [BREAKDOWN_LABELS[dimension].toLowerCase()]: r.label,
            trades: r.trades,
            win_rate: r.winRate === null ? '-' : percent(r.winRate),
            net_pnl: money(r.netCents),
            average: r.averageCents === null ? '-' : money(r.averageCents),
            profit_factor: formatFigure('ratio', r.profitFactor, r.profitFactor === null && r.grossProfitCents > 0),
            expectancy: r.expectancyCents === null ? '-' : money(r.expectancyCents),
            share_of_trades: r.sharePercent === null ? '-' : percent(r.sharePercent),
          })),
          ...(missing && breakdown.excluded > 0 && { left_out: `${breakdown.excluded} trades ${missing}` }),
          // Drawn as a chart under the answer.
          chart: {
            kind: 'bar' as const,
            title: `Net P&L by ${BREAKDOWN_LABELS[dimension].toLowerCase()}`,
            points: breakdown.rows.map((r) => ({ label: r.label, cents: r.netCents })),
          },
        };
      });
    },
  });

/** The overview's trades in R, with the trades without a planned risk said apart (never averaged in as 0R). */
function describeR(r: ReturnType<typeof computeROverview>) {
  if (r.tradesWithRisk === 0) return { note: 'No trade of this filter has a planned risk (a stop, a dollar risk or a default)' };
  const text = (value: number | null) => (value === null ? '-' : formatR(value));
  return {
    'Total R': text(r.totalR),
    'Expectancy (average R)': text(r.expectancyR),
    'Average win': text(r.averageWinR),
    'Average loss': text(r.averageLossR),
    'Profit factor in R (R won over R lost)':
      r.profitFactorR === null ? (r.averageWinR === null ? '-' : 'no losing trade') : r.profitFactorR.toFixed(2),
    'Trades with a planned risk': r.tradesWithRisk,
    ...(r.tradesWithoutRisk > 0 && { left_out: `${r.tradesWithoutRisk} trade${r.tradesWithoutRisk === 1 ? '' : 's'} without a planned risk` }),
  };
}
