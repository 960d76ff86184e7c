import type { Cents } from '../cents';
import { calculateWinRateOrNull } from './formulas';
import { getEntryHour, type ReportTrade } from './report-trade';

/**
 * The heatmap (issue 26 point 5): day of week (the trading day's) by hour of entry (the trader's clock), each cell's
 * trades, net P&L and win rate. Trades without an entry time are in no cell and counted apart.
 */
export interface HeatmapCell {
  weekday: number;
  hour: number;
  trades: number;
  wins: number;
  losses: number;
  netCents: Cents;
  winRate: number | null;
}

export interface Heatmap {
  /** Only the cells that have trades, by weekday then hour. */
  cells: HeatmapCell[];
  /** The weekdays to draw: Monday to Friday always, Saturday and Sunday when they have trades. */
  weekdays: number[];
  /** The hours to draw: from the first to the last hour with trades (none without trades). */
  hours: number[];
  withoutTime: number;
}

export function computeHeatmap(trades: readonly ReportTrade[], timeZone: string): Heatmap {
  const cells = new Map<number, HeatmapCell>();
  let withoutTime = 0;
  for (const trade of trades) {
    const hour = getEntryHour(trade, timeZone);
    if (hour === null) {
      withoutTime++;
      continue;
    }
    const key = trade.weekday * 24 + hour;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { weekday: trade.weekday, hour, trades: 0, wins: 0, losses: 0, netCents: 0, winRate: null }));
    cell.trades++;
    if (trade.status === 'Win') cell.wins++;
    else if (trade.status === 'Loss') cell.losses++;
    cell.netCents += trade.pnlCents;
  }
  const list = [...cells.values()].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
  for (const cell of list) cell.winRate = calculateWinRateOrNull(cell);
  const weekdays = [1, 2, 3, 4, 5, ...[6, 7].filter((d) => list.some((c) => c.weekday === d))];
  const present = list.map((c) => c.hour);
  const hours = present.length === 0 ? [] : Array.from({ length: Math.max(...present) - Math.min(...present) + 1 }, (_, i) => Math.min(...present) + i);
  return { cells: list, weekdays, hours, withoutTime };
}
