import type { Cents } from '../cents';
import { RAccumulator } from '../risk/r-summary';
import { getTradeR } from './r-multiples';
import { toMistakeKey as key, type TradeSet } from './report-trade';

/**
 * What mistakes cost. A trader marks some of their tags as mistakes (FOMO, moved stop,
 * oversized); each mistake's trades and their net P&L, and the net P&L of the set without any trade tagged with a
 * mistake: what the trading would have made had those trades not been taken.
 */
export interface MistakeRow {
  tag: string;
  trades: number;
  netCents: Cents;
  /** Sum of the R of its trades with a planned risk; null when none has one. */
  totalR: number | null;
  /** Its trades without a planned risk. */
  tradesWithoutRisk: number;
}

export interface MistakesReport {
  /** Each mistake tag the trader marked, in their order, with the trades of the set that carry it. */
  mistakes: MistakeRow[];
  /** Trades of the set with at least one mistake (a trade with two mistakes counts once). */
  tradesWithMistakes: number;
  netCents: Cents;
  /** Net P&L of the set's trades with no mistake. */
  netWithoutMistakesCents: Cents;
  tradesWithoutMistakes: number;
}

export function computeMistakes(set: TradeSet, mistakeTags: readonly string[], risk?: Float64Array): MistakesReport {
  const { columns: c, rows } = set;
  const mistakeIndex = new Map<string, number>();
  mistakeTags.forEach((tag, k) => {
    if (!mistakeIndex.has(key(tag))) mistakeIndex.set(key(tag), k);
  });
  // Tag code -> mistake index (or -1): one lookup per tag value, not per trade.
  const byCode = c.tagValues.map((tag) => mistakeIndex.get(key(tag)) ?? -1);
  const rowsOut: MistakeRow[] = mistakeTags.map((tag) => ({ tag, trades: 0, netCents: 0, totalR: null, tradesWithoutRisk: 0 }));
  // Exact R sums, as every R figure is summed (src/domain/risk/r-summary.ts).
  const rSums = mistakeTags.map(() => new RAccumulator());
  let tradesWithMistakes = 0;
  let netCents = 0;
  let netWithout = 0;
  const seen = new Set<number>();
  for (const i of rows) {
    const pnl = c.pnl[i]!;
    netCents += pnl;
    seen.clear();
    for (let t = c.tagStart[i]!; t < c.tagStart[i + 1]!; t++) {
      const m = byCode[c.tagCodes[t]!]!;
      if (m >= 0) seen.add(m);
    }
    if (seen.size === 0) {
      netWithout += pnl;
      continue;
    }
    tradesWithMistakes++;
    const r = risk ? getTradeR(c, risk, i) : Number.NaN;
    for (const m of seen) {
      const row = rowsOut[m]!;
      row.trades++;
      row.netCents += pnl;
      if (Number.isNaN(r)) row.tradesWithoutRisk++;
      else rSums[m]!.add({ tradeDate: '', pnlCents: pnl, riskCents: risk![i]!, result: 'BE' });
    }
  }
  rowsOut.forEach((row, m) => {
    row.totalR = rSums[m]!.totals().totalR;
  });
  return {
    mistakes: rowsOut.filter((row, m) => mistakeIndex.get(key(row.tag)) === m),
    tradesWithMistakes,
    netCents,
    netWithoutMistakesCents: netWithout,
    tradesWithoutMistakes: rows.length - tradesWithMistakes,
  };
}
