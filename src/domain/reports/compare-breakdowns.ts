import { sortBreakdownRows, type Breakdown, type BreakdownBy, type BreakdownRow } from './breakdown';

/** One group of Compare's breakdowns side by side: each set's row of that group, null where the set has no trade in it. */
export interface SideBySideRow {
  key: string;
  label: string;
  /** Trades of the group in all the sets: what orders groups by size. */
  trades: number;
  sets: Array<BreakdownRow | null>;
}

/**
 * Each set's breakdown by one dimension (the engine's rows of that set, unchanged) put side by side: one row per group
 * any set has, in the breakdown's own order (hours by the clock, instruments by their trades in all the sets).
 */
export function alignBreakdowns(by: BreakdownBy, breakdowns: ReadonlyArray<Pick<Breakdown, 'rows'>>): SideBySideRow[] {
  const groups = new Map<string, SideBySideRow>();
  breakdowns.forEach((breakdown, s) => {
    for (const row of breakdown.rows) {
      let group = groups.get(row.key);
      if (!group) {
        group = { key: row.key, label: row.label, trades: 0, sets: breakdowns.map(() => null) };
        groups.set(row.key, group);
      }
      group.trades += row.trades;
      group.sets[s] = row;
    }
  });
  return sortBreakdownRows(by, [...groups.values()]);
}
