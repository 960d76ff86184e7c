import { tool } from 'ai';
import { z } from 'zod';
import { DAY_NAMES } from '../../../../domain/dates';
import { calculateWinRate } from '../../../../domain/stats';
import type { BreakdownKey } from '../trade-data';
import { basisOf, filterInput, isRefusal, money, percent, resolveFilter, withData, type ToolContext } from './common';

const BY = ['day', 'weekday', 'hour', 'instrument', 'session', 'setup', 'side', 'month', 'account'] as const satisfies readonly BreakdownKey[];
const WEEK = [...DAY_NAMES.slice(1), DAY_NAMES[0]] as string[];

/** P&L, trade count and win rate by day, weekday, entry hour, instrument, session, setup, side, month or account. */
export const getPnlBreakdownTool = (ctx: ToolContext) =>
  tool({
    description:
      "The trader's net P&L, trade count and win rate grouped by one dimension: day, weekday, hour (entry hour, imported trades), instrument, session, setup, side (Long/Short), month or account. Use it to compare, e.g. mornings against afternoons, or which weekday loses.",
    inputSchema: filterInput.extend({ by: z.enum(BY).describe('The dimension to group by') }),
    execute: ({ by, ...input }) =>
      withData(ctx, async (data) => {
        const filter = await resolveFilter(data, input);
        if (isRefusal(filter)) return filter;
        const rows = await data.breakdown(filter, by, ctx.timeZone);
        if (by === 'weekday') rows.sort((a, b) => WEEK.indexOf(a.key) - WEEK.indexOf(b.key));
        const days = await data.daily(filter);
        return {
          basis: basisOf(days, input),
          by,
          rows: rows.map((r) => ({
            [by]: r.key,
            trades: r.trades,
            win_rate: r.wins + r.losses ? percent(calculateWinRate(r)) : '-',
            net_pnl: money(r.pnlCents),
          })),
          // Drawn as a chart under the answer.
          chart: { kind: 'bar' as const, title: `Net P&L by ${by}`, points: rows.map((r) => ({ label: r.key, cents: r.pnlCents })) },
        };
      }),
  });
