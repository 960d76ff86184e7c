import type { ToolSet } from 'ai';
import { findTradesTool } from './find-trades';
import { getBestWorstTradesTool } from './get-best-worst-trades';
import { getEquityCurveTool } from './get-equity-curve';
import { getNotesAndReflectionsTool } from './get-notes-and-reflections';
import { getPnlBreakdownTool } from './get-pnl-breakdown';
import { getPropStatusTool } from './get-prop-status';
import { getReportTool } from './get-report';
import { getStatisticsTool } from './get-statistics';
import { getStreaksTool } from './get-streaks';
import type { ToolContext } from './common';
import { guardTools } from './guard';

export type { ToolContext, ToolBasis } from './common';

/**
 * The chat's tools for one trader: thin wrappers over domain functions, each scoped to the signed-in
 * trader by the context it is built with. The model chooses filters; it never chooses whose trades.
 */
export function chatTools(ctx: ToolContext): ToolSet {
  // Checked arguments, and failures in the trader's terms: the model never reads SQL, ids or stacks (guard.ts).
  return guardTools(tools(ctx), ctx.logger);
}

function tools(ctx: ToolContext): ToolSet {
  return {
    get_statistics: getStatisticsTool(ctx),
    get_pnl_breakdown: getPnlBreakdownTool(ctx),
    get_report: getReportTool(ctx),
    get_equity_curve: getEquityCurveTool(ctx),
    get_best_worst_trades: getBestWorstTradesTool(ctx),
    get_streaks: getStreaksTool(ctx),
    find_trades: findTradesTool(ctx),
    get_notes_and_reflections: getNotesAndReflectionsTool(ctx),
    get_prop_status: getPropStatusTool(ctx),
  };
}

/** What a tool call is shown as while it runs. */
export const TOOL_LABELS: Record<string, string> = {
  get_statistics: 'Computing your statistics',
  get_pnl_breakdown: 'Breaking down your P&L',
  get_report: 'Reading your reports',
  get_equity_curve: 'Drawing your equity curve',
  get_best_worst_trades: 'Finding your best and worst trades',
  get_streaks: 'Counting your streaks',
  find_trades: 'Finding trades',
  get_notes_and_reflections: 'Reading your notes',
  get_prop_status: 'Checking your prop accounts against their rules',
};
