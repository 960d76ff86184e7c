import { tool } from 'ai';
import { buildEquityPoints } from '../../../../domain/reports/equity';
import { calculateMaxDrawdown } from '../../../../domain/reports/formulas';
import { withChatTrades } from '../trade-scope';
import { filterInput, money, type ToolContext } from './common';

/** Cumulative net P&L by trading day. */
export const getEquityCurveTool = (ctx: ToolContext) =>
  tool({
    description:
      "The trader's cumulative net P&L by trading day (their equity curve) for a range and filters, with the peak and the largest drawdown.",
    inputSchema: filterInput,
    execute: (input) =>
      withChatTrades(ctx, input, ({ days, basis }) => {
        // The Reports' curve and drawdown (src/domain/reports), day by day.
        const pnl = days.map((d) => d.pnlCents);
        const curve = buildEquityPoints(pnl, (k) => days[k]!.date);
        const points = curve.map((p) => ({ label: p.tradeDate, cents: p.equityCents }));
        const drawdown = calculateMaxDrawdown(pnl, (k) => days[k]!.date);
        return {
          basis,
          end_pnl: money(curve[curve.length - 1]?.equityCents ?? 0),
          peak: money(Math.max(0, ...curve.map((p) => p.equityCents))),
          max_drawdown: money(-(drawdown?.amountCents ?? 0)),
          // The model sees a few points; the chart gets them all.
          sample: points
            .filter((_, i) => i % Math.max(1, Math.ceil(points.length / 12)) === 0 || i === points.length - 1)
            .map((p) => `${p.label}: ${money(p.cents)}`),
          chart: { kind: 'line' as const, title: 'Cumulative net P&L', points },
        };
      }),
  });
