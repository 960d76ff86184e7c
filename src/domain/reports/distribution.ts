import type { Cents } from '../cents';
import { formatUsd } from '../cents';
import { formatDuration } from './figures';
import { calculateWinRateOrNull } from './formulas';
import type { TradeSet } from './report-trade';

/**
 * Distributions: how many trades ended in each range of net P&L, of hold time, and of R.
 * Each bucket includes its lower bound and not its upper one; the first and last may be open ("under", "and
 * over") so that a few outliers do not squeeze every other trade into one bar.
 */
export const DISTRIBUTIONS = ['pnl', 'hold', 'r'] as const;
export type DistributionOf = (typeof DISTRIBUTIONS)[number];

export interface DistributionBucket {
  /** Cents for P&L, seconds for hold time, R-multiples for R; null is open. */
  from: number | null;
  to: number | null;
  label: string;
  trades: number;
  wins: number;
  losses: number;
  netCents: Cents;
  winRate: number | null;
}

export interface Distribution {
  of: DistributionOf;
  buckets: DistributionBucket[];
  /** Trades in no bucket (hold time: without times; R: without a planned risk). */
  excluded: number;
  total: number;
}

/** 1, 2, 2.5 or 5 times a power of ten, the smallest at least `raw`: widths a trader reads at a glance. */
export function getNiceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 2.5, 5, 10]) if (factor * power >= raw) return factor * power;
  return 10 * power;
}

/** The rank (0-based) of the value at a fraction of `length` sorted values (nearest rank). */
const rankOf = (length: number, fraction: number) => Math.min(length - 1, Math.max(0, Math.ceil(fraction * length) - 1));

/**
 * Reorders `values[from..to]` so that the value of rank k (as a sort would place it) is at k, the smaller before it and
 * the larger after it (Hoare's selection): O(n) where a sort of 100,000 values is several times that, and a report
 * wants only two ranks.
 */
export function selectRank(values: Float64Array, k: number, from = 0, to = values.length - 1): number {
  let low = from;
  let high = to;
  while (high > low) {
    const pivot = values[(low + high) >>> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else break;
  }
  return values[k]!;
}

function fill(buckets: DistributionBucket[], index: number, result: number, pnl: number) {
  const bucket = buckets[index]!;
  bucket.trades++;
  if (result === 1) bucket.wins++;
  else if (result === 2) bucket.losses++;
  bucket.netCents += pnl;
}

const finish = (buckets: DistributionBucket[]) => {
  for (const b of buckets) b.winRate = calculateWinRateOrNull(b);
  return buckets;
};

const empty = (from: number | null, to: number | null, label: string): DistributionBucket => ({
  from,
  to,
  label,
  trades: 0,
  wins: 0,
  losses: 0,
  netCents: 0,
  winRate: null,
});

/**
 * Net P&L per trade in about `target` buckets of a round width (whole dollars), spanning the 1st to the 99th
 * percentile; trades beyond them go to an open bucket at either end.
 */
export function computePnlDistribution(set: TradeSet, target = 24): Distribution {
  const { columns: c, rows } = set;
  if (rows.length === 0) return { of: 'pnl', buckets: [], excluded: 0, total: 0 };
  const values = new Float64Array(rows.length);
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < rows.length; k++) {
    const p = c.pnl[rows[k]!]!;
    values[k] = p;
    if (p < min) min = p;
    if (p > max) max = p;
  }
  // The higher rank first: the lower one is then among the values before it.
  const highRank = rankOf(values.length, 0.99);
  const high = selectRank(values, highRank);
  const low = selectRank(values, rankOf(values.length, 0.01), 0, highRank);
  const step = Math.max(100, getNiceStep((high - low) / target));
  const start = Math.floor(low / step) * step;
  const end = Math.max(start + step, Math.floor(high / step) * step + step);
  const count = Math.round((end - start) / step);
  const buckets: DistributionBucket[] = [];
  const hasBelow = min < start;
  const hasAbove = max >= end;
  if (hasBelow) buckets.push(empty(null, start, `under ${formatUsd(start)}`));
  for (let i = 0; i < count; i++) {
    const from = start + i * step;
    buckets.push(empty(from, from + step, `${formatUsd(from)} to ${formatUsd(from + step)}`));
  }
  if (hasAbove) buckets.push(empty(end, null, `${formatUsd(end)} and over`));
  const offset = hasBelow ? 1 : 0;
  for (const i of rows) {
    const p = c.pnl[i]!;
    const index = p < start ? 0 : p >= end ? buckets.length - 1 : offset + Math.floor((p - start) / step);
    fill(buckets, index, c.result[i]!, p);
  }
  return { of: 'pnl', buckets: finish(buckets), excluded: 0, total: rows.length };
}

/** Hold-time edges in seconds: finer where scalps live, coarser for swings. */
export const HOLD_EDGES = [0, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400] as const;

export function computeHoldDistribution(set: TradeSet): Distribution {
  const { columns: c, rows } = set;
  const buckets = HOLD_EDGES.map((from, i) => {
    const to = HOLD_EDGES[i + 1] ?? null;
    return empty(from, to, to === null ? `${formatDuration(from)} and over` : `${formatDuration(from)} to ${formatDuration(to)}`);
  });
  let excluded = 0;
  for (const i of rows) {
    const seconds = c.hold[i]!;
    if (Number.isNaN(seconds)) {
      excluded++;
      continue;
    }
    let index = HOLD_EDGES.length - 1;
    while (index > 0 && seconds < HOLD_EDGES[index]!) index--;
    fill(buckets, index, c.result[i]!, c.pnl[i]!);
  }
  // Buckets outside the trades' span say nothing: keep the span from the first to the last bucket with trades.
  const first = buckets.findIndex((b) => b.trades > 0);
  const last = buckets.length - 1 - [...buckets].reverse().findIndex((b) => b.trades > 0);
  return { of: 'hold', buckets: first < 0 ? [] : finish(buckets.slice(first, last + 1)), excluded, total: rows.length };
}

/** The R-multiple buckets' inner edges: half an R wide from -3R to +3R, open beyond. */
export const R_EDGES = { from: -3, to: 3, step: 0.5 } as const;

/** '-2.5R', '0R', '3R': an edge as the buckets' labels write it. */
const formatREdge = (r: number) => `${r + 0}R`;

/**
 * The whole number of 1/`stepsPerR` R steps at or below a trade's R: floor(stepsPerR x pnl / risk), settled by
 * whole-cent
 * comparisons (P&L and risk are whole cents) so that a trade of exactly -1R is at -1R however the quotient rounds.
 */
export function floorRSteps(pnlCents: number, riskCents: number, stepsPerR = 1): number {
  const scaled = stepsPerR * pnlCents;
  let k = Math.floor(scaled / riskCents);
  while (k * riskCents > scaled) k--;
  while ((k + 1) * riskCents <= scaled) k++;
  return k;
}

/**
 * Each trade's R-multiple (net P&L over its planned risk, `risk` in cents with NaN for none: r-multiples.ts) in
 * half-R buckets from -3R to +3R, with an open bucket at either end. Trades without a planned risk are in no bucket:
 * `excluded` counts them ("12 trades without a planned risk"), never as 0R. Buckets outside the trades' span are left
 * out, as the hold time's are.
 */
export function computeRDistribution(set: TradeSet, risk: Float64Array): Distribution {
  const { columns: c, rows } = set;
  const { from: low, to: high, step } = R_EDGES;
  const inner = Math.round((high - low) / step);
  const buckets: DistributionBucket[] = [empty(null, low, `under ${formatREdge(low)}`)];
  for (let k = 0; k < inner; k++) {
    const from = low + k * step;
    buckets.push(empty(from, from + step, `${formatREdge(from)} to ${formatREdge(from + step)}`));
  }
  buckets.push(empty(high, null, `${formatREdge(high)} and over`));
  const halves = Math.round(1 / step);
  let excluded = 0;
  for (const i of rows) {
    const cents = risk[i]!;
    if (!(cents > 0)) {
      excluded++;
      continue;
    }
    const pnl = c.pnl[i]!;
    const k = floorRSteps(pnl, cents, halves);
    const index = k < low * halves ? 0 : k >= high * halves ? buckets.length - 1 : 1 + k - low * halves;
    fill(buckets, index, c.result[i]!, pnl);
  }
  const first = buckets.findIndex((b) => b.trades > 0);
  const last = buckets.length - 1 - [...buckets].reverse().findIndex((b) => b.trades > 0);
  return { of: 'r', buckets: first < 0 ? [] : finish(buckets.slice(first, last + 1)), excluded, total: rows.length };
}

/**
 * One distribution of the set. R needs every trade's planned risk (r-multiples.ts's getRiskColumn, with the trader's
 * defaults); without it, only the trades' own plans count.
 */
export function computeDistribution(set: TradeSet, of: DistributionOf, risk: Float64Array = set.columns.ownRisk): Distribution {
  switch (of) {
    case 'pnl':
      return computePnlDistribution(set);
    case 'hold':
      return computeHoldDistribution(set);
    case 'r':
      return computeRDistribution(set, risk);
  }
}
