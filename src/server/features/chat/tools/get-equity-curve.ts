import { tool } from 'ai';
import { basisOf, filterInput, isRefusal, money, resolveFilter, withData, type ToolContext } from './common';

/** Cumulative net P&L by trading day. */
export const getEquityCurveTool = (ctx: ToolContext) =>
  tool({
    description: "The trader's cumulative net P&L by trading day (their equity curve) for a range and filters, with the peak and the largest drawdown.",
    inputSchema: filterInput,
    execute: (input) =>
      withData(ctx, async (data) => {
        const filter = await resolveFilter(data, input);
        if (isRefusal(filter)) return filter;
        const days = await data.daily(filter);
        let running = 0;
        let peak = 0;
        let drawdown = 0;
        const points = days.map((d) => {
          running += d.pnlCents;
          peak = Math.max(peak, running);
          drawdown = Math.min(drawdown, running - peak);
          return { label: d.date, cents: running };
        });
        return {
          basis: basisOf(days, input),
          end_pnl: money(running),
          peak: money(peak),
          max_drawdown: money(drawdown),
          // The model sees a few points; the chart gets them all.
          sample: points.filter((_, i) => i % Math.max(1, Math.ceil(points.length / 12)) === 0 || i === points.length - 1).map((p) => `${p.label}: ${money(p.cents)}`),
          chart: { kind: 'line' as const, title: 'Cumulative net P&L', points },
        };
      }),
  });
