import type { Cents } from '../cents';
import { RAccumulator } from '../risk/r-summary';
import { GroupSums } from './aggregate-rows';
import { calculateWinRateOrNull } from './formulas';
import { getEntryHours, type TradeSet } from './report-trade';

/**
 * The heatmap: day of week (the trading day's) by hour of entry (the trader's clock), each cell's
 * trades, net P&L and win rate, and its R. Trades without an entry time are in no cell and counted apart.
 */
export interface HeatmapCell {
  weekday: number;
  hour: number;
  trades: number;
  wins: number;
  losses: number;
  netCents: Cents;
  winRate: number | null;
  /** The cell in R: of its trades with a planned risk, the others counted apart. */
  r: HeatmapCellR;
}

export interface HeatmapCellR {
  tradesWithRisk: number;
  tradesWithoutRisk: number;
  /** Sum of the cell's trades' R; null when none has a planned risk. */
  totalR: number | null;
  /** The average R of a trade of the cell with a planned risk. */
  expectancyR: number | null;
}

export interface Heatmap {
  /** Only the cells that have trades, by weekday then hour. */
  cells: HeatmapCell[];
  /** The weekdays to draw: Monday to Friday always, Saturday and Sunday when they have trades. */
  weekdays: number[];
  /** The hours to draw: from the first to the last hour with trades (none without trades). */
  hours: number[];
  withoutTime: number;
  /** Trades in the cells without a planned risk: in the cells' counts, never in their R. */
  tradesWithoutRisk: number;
}

/** `risk`: every trade's planned risk in cents, NaN without (r-multiples.ts's getRiskColumn); the trades' own plans when left out. */
export function computeHeatmap(set: TradeSet, timeZone: string, risk: Float64Array = set.columns.ownRisk): Heatmap {
  const c = set.columns;
  const hours = getEntryHours(c, timeZone);
  const sums = new GroupSums(8 * 24);
  // R is summed exactly per cell (src/domain/risk/r-summary.ts), as the Overview's and the Breakdowns'.
  const inR: RAccumulator[] = [];
  let withoutTime = 0;
  let tradesWithoutRisk = 0;
  for (const i of set.rows) {
    const hour = hours[i]!;
    if (hour < 0) {
      withoutTime++;
      continue;
    }
    const g = c.dayWeekday[c.day[i]!]! * 24 + hour;
    sums.add(g, c.result[i]!, c.pnl[i]!);
    const cents = risk[i]!;
    if (!(cents > 0)) tradesWithoutRisk++;
    (inR[g] ??= new RAccumulator()).addCents(c.pnl[i]!, cents > 0 ? cents : null, c.result[i]!);
  }
  const cells: HeatmapCell[] = [];
  for (let g = 0; g < sums.groups; g++) {
    if (sums.trades[g] === 0) continue;
    const { trades, wins, losses, pnlCents } = sums.aggregate(g);
    const r = inR[g]!.summary();
    cells.push({
      weekday: Math.floor(g / 24),
      hour: g % 24,
      trades,
      wins,
      losses,
      netCents: pnlCents,
      winRate: calculateWinRateOrNull({ wins, losses }),
      r: { tradesWithRisk: r.tradesWithRisk, tradesWithoutRisk: r.tradesWithoutRisk, totalR: r.totalR, expectancyR: r.expectancyR },
    });
  }
  const weekdays = [1, 2, 3, 4, 5, ...[6, 7].filter((d) => cells.some((cell) => cell.weekday === d))];
  const present = cells.map((cell) => cell.hour);
  const first = Math.min(...present);
  const hourRange = present.length === 0 ? [] : Array.from({ length: Math.max(...present) - first + 1 }, (_, k) => first + k);
  return { cells, weekdays, hours: hourRange, withoutTime, tradesWithoutRisk };
}
