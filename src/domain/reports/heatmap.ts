import type { Cents } from '../cents';
import { GroupSums } from './aggregate-rows';
import { calculateWinRateOrNull } from './formulas';
import { getEntryHours, type TradeSet } from './report-trade';

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

export function computeHeatmap(set: TradeSet, timeZone: string): Heatmap {
  const c = set.columns;
  const hours = getEntryHours(c, timeZone);
  const sums = new GroupSums(8 * 24);
  let withoutTime = 0;
  for (const i of set.rows) {
    const hour = hours[i]!;
    if (hour < 0) {
      withoutTime++;
      continue;
    }
    sums.add(c.dayWeekday[c.day[i]!]! * 24 + hour, c.result[i]!, c.pnl[i]!);
  }
  const cells: HeatmapCell[] = [];
  for (let g = 0; g < sums.groups; g++) {
    if (sums.trades[g] === 0) continue;
    const { trades, wins, losses, pnlCents } = sums.aggregate(g);
    cells.push({ weekday: Math.floor(g / 24), hour: g % 24, trades, wins, losses, netCents: pnlCents, winRate: calculateWinRateOrNull({ wins, losses }) });
  }
  const weekdays = [1, 2, 3, 4, 5, ...[6, 7].filter((d) => cells.some((cell) => cell.weekday === d))];
  const present = cells.map((cell) => cell.hour);
  const first = Math.min(...present);
  const hourRange = present.length === 0 ? [] : Array.from({ length: Math.max(...present) - first + 1 }, (_, k) => first + k);
  return { cells, weekdays, hours: hourRange, withoutTime };
}
