import { tool } from 'ai';
import { z } from 'zod';
import { computeBreakdown, type BreakdownBy } from '../../../../domain/reports';
import { calculateWinRate } from '../../../../domain/stats';
import { withChatTrades } from '../trade-scope';
import { filterInput, money, percent, type ToolContext } from './common';

/** The dimensions the model may group by: a trading day, or one of the Reports' breakdowns. */
const BY = ['day', 'weekday', 'hour', 'instrument', 'session', 'setup', 'side', 'month', 'account'] as const;
type By = (typeof BY)[number];

/** P&L, trade count and win rate by day, weekday, entry hour, instrument, session, setup, side, month or account. */
export const getPnlBreakdownTool = (ctx: ToolContext) =>
  tool({
    description:
      "The trader's net P&L, trade count and win rate grouped by one dimension: day, weekday, hour (entry hour, imported trades), instrument, session, setup, side (Long/Short), month or account. Use it to compare, e.g. mornings against afternoons, or which weekday loses.",
    inputSchema: filterInput.extend({ by: z.enum(BY).describe('The dimension to group by') }),
    execute: ({ by, ...input }) =>
      withChatTrades(ctx, input, ({ set, days, basis, scope }) => {
        // A day's sums, or the Reports' breakdown (its groups, labels and order) of the same trades.
        const groups =
          by === 'day'
            ? { rows: days.map((d) => ({ label: d.date, trades: d.trades, wins: d.wins, losses: d.losses, netCents: d.pnlCents })), excluded: 0 }
            : computeBreakdown(set, by as Exclude<By, 'day'> & BreakdownBy, { timeZone: scope.timeZone, accountName: scope.accountName });
        return {
          basis,
          by,
          rows: groups.rows.map((r) => ({
            [by]: r.label,
            trades: r.trades,
            win_rate: r.wins + r.losses ? percent(calculateWinRate(r)) : '-',
            net_pnl: money(r.netCents),
          })),
          ...(groups.excluded > 0 && { trades_without_this: groups.excluded }),
          // Drawn as a chart under the answer.
          chart: { kind: 'bar' as const, title: `Net P&L by ${by}`, points: groups.rows.map((r) => ({ label: r.label, cents: r.netCents })) },
        };
      }),
  });
