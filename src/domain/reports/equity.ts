import type { Cents } from '../cents';
import type { CalendarDay } from '../dates/calendar-day';
import { Decimal } from '../money';
import { roundWithin, sumError, toR } from '../risk/r-summary';
import { aggregateRowsByDay } from './aggregate-rows';
import { dayOf, type TradeSet } from './report-trade';

/**
 * Equity: cumulative net P&L trade by trade and day by day, each point with its drawdown, the
 * distance below the running peak ("underwater"; 0 at a new high, negative below it). The curve starts at 0, the
 * range's opening, which counts as a peak.
 */
export interface EquityPoint {
  /** Trade number (1 = the first trade) or the day's position. */
  index: number;
  tradeDate: CalendarDay;
  equityCents: Cents;
  drawdownCents: Cents;
}

export interface EquitySeries {
  /** Points by trade: every trade up to `maxPoints`, beyond it a shape-keeping sample (see `sampleEquity`). */
  byTrade: EquityPoint[];
  byDay: EquityPoint[];
  trades: number;
  days: number;
  /** Whether byTrade holds fewer points than there were trades. */
  sampled: boolean;
}

/** Cumulative sums and their drawdown, in order: point k is after step k (`pnl[k]` on day `dayOf(k)`). */
export function buildEquityPoints(pnl: ArrayLike<number>, dayOf: (k: number) => CalendarDay, keep?: ArrayLike<number>): EquityPoint[] {
  const points: EquityPoint[] = [];
  let equity = 0;
  let peak = 0;
  let next = 0;
  for (let k = 0; k < pnl.length; k++) {
    equity += pnl[k]!;
    if (equity > peak) peak = equity;
    if (keep === undefined || keep[next] === k) {
      points.push({ index: k + 1, tradeDate: dayOf(k), equityCents: equity, drawdownCents: equity - peak });
      next++;
    }
  }
  return points;
}

/**
 * The steps of a long curve to draw, at most about `maxPoints`, that keep its shape: the steps are cut into buckets,
 * and
 * of each bucket the first, the highest, the lowest, the deepest under water and the last are kept, in order. No peak,
 * no trough and no drawdown low is lost, so the chart's extremes are the real ones. Returns the kept steps' indexes.
 */
export function sampleEquitySteps(pnl: ArrayLike<number>, maxPoints: number): Uint32Array {
  const n = pnl.length;
  if (n <= maxPoints) return Uint32Array.from({ length: n }, (_, k) => k);
  const buckets = Math.max(1, Math.floor(maxPoints / 5));
  const size = Math.ceil(n / buckets);
  const kept: number[] = [];
  // One pass, the running sum and peak carried from bucket to bucket; in each, the first step of its highest, lowest
  // and deepest.
  let running = 0;
  let peak = 0;
  for (let start = 0; start < n; start += size) {
    const end = Math.min(n, start + size);
    let high = start;
    let low = start;
    let deepest = start;
    let highest = Infinity;
    let lowest = -Infinity;
    let deepestBelow = Infinity;
    for (let k = start; k < end; k++) {
      running += pnl[k]!;
      if (running > peak) peak = running;
      const below = running - peak;
      if (k === start) {
        highest = lowest = running;
        deepestBelow = below;
        continue;
      }
      if (running > highest) {
        high = k;
        highest = running;
      }
      if (running < lowest) {
        low = k;
        lowest = running;
      }
      if (below < deepestBelow) {
        deepest = k;
        deepestBelow = below;
      }
    }
    for (const k of [...new Set([start, high, low, deepest, end - 1])].sort((a, b) => a - b)) kept.push(k);
  }
  return Uint32Array.from(kept);
}

/** Both curves of a set of trades (in trading order). */
export function computeEquity(set: TradeSet, maxPoints = 1500): EquitySeries {
  const days = aggregateRowsByDay(set);
  const byDay = buildEquityPoints(
    days.map((d) => d.pnlCents),
    (k) => days[k]!.date,
  );
  const { byTrade, ...counts } = computeEquityByTrade(set, maxPoints);
  return { byTrade, byDay, ...counts };
}

/** The curve by trade alone, with the count of days (`computeEquity` less its day-by-day curve, which costs a pass of its own). */
export function computeEquityByTrade(set: TradeSet, maxPoints = 1500): Omit<EquitySeries, 'byDay'> {
  const { columns: c, rows } = set;
  const pnl = new Float64Array(rows.length);
  let days = 0;
  let day = -1;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    pnl[k] = c.pnl[i]!;
    // Trades come in trading order: a day's trades are together (aggregateRowsByDay's days).
    if (c.day[i] !== day) {
      day = c.day[i]!;
      days++;
    }
  }
  const keep = sampleEquitySteps(pnl, maxPoints);
  const byTrade = buildEquityPoints(pnl, (k) => dayOf(c, rows[k]!), keep);
  return { byTrade, trades: rows.length, days, sampled: byTrade.length < rows.length };
}

/** At most about `maxPoints` of a curve's points, by the same shape-keeping rule (a table of a long curve). */
export function sampleEquity(points: readonly EquityPoint[], maxPoints: number): EquityPoint[] {
  const steps = points.map((p, k) => p.equityCents - (k === 0 ? 0 : points[k - 1]!.equityCents));
  return Array.from(sampleEquitySteps(steps, maxPoints), (k) => points[k]!);
}

/**
 * Equity in R: the cumulative R of the trades with a planned risk, trade by trade and day by day,
 * each point with its drawdown in R below the running peak. Trades without a planned risk are not on the curve and
 * are counted apart.
 */
export interface EquityRPoint {
  /** The trade's number among the trades with a planned risk (1 = the first), or the day's position. */
  index: number;
  tradeDate: CalendarDay;
  /** Cumulative R, two decimals. */
  equityR: number;
  /** R below the running peak (0 at a new high), two decimals. */
  drawdownR: number;
}

export interface EquityRSeries {
  byTrade: EquityRPoint[];
  /** Days with a trade with a planned risk: a day of only trades without one has no R and no point. */
  byDay: EquityRPoint[];
  tradesWithRisk: number;
  tradesWithoutRisk: number;
  days: number;
  sampled: boolean;
}

/** Beyond this a common denominator costs more than it saves (thousands of unrelated risks): decimals instead. */
const MAX_DENOMINATOR_BITS = 2048;

const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

/** The least common multiple of the risks, or null past MAX_DENOMINATOR_BITS. */
function findCommonDenominator(risks: Iterable<number>): bigint | null {
  let lcm = 1n;
  for (const cents of risks) {
    const r = BigInt(cents);
    lcm = (lcm / gcd(lcm, r)) * r;
    if (lcm.toString(2).length > MAX_DENOMINATOR_BITS) return null;
  }
  return lcm;
}

/** Running sums of R, exact, in a number type of their own (BigInt fractions or decimals), and how to read them. */
interface ExactCurve<T> {
  /** The cumulative R after each step. */
  sums: ArrayLike<T>;
  zero: T;
  minus: (a: T, b: T) => T;
  greater: (a: T, b: T) => boolean;
  /** Two decimals, half away from zero, as R is shown. */
  round: (value: T) => number;
}

/**
 * The running sums of R, exactly. Every R is counted in units of 1/L, L the least common multiple of the risks, so a
 * running sum is a whole number and never drifts: 1/3R three times is 1R, 1.005R reads +1.01R, and the last point is
 * the Overview's total R. In plain numbers while every sum (and 200 times it, to round) stays a safe integer, the
 * common case of a few risks; else in BigInt; with thousands of unrelated risks (no small L), as 40-digit decimals.
 * `computeEquityR` sums floats instead (sumFastR) and comes here only for cents that are not whole; tests compare
 * the two.
 */
function sumExactR(pnl: Float64Array, risk: Float64Array): ExactCurve<number> | ExactCurve<bigint> | ExactCurve<Decimal> {
  const n = pnl.length;
  let integers = true;
  const distinct = new Set<number>();
  for (let k = 0; k < n && integers; k++) {
    integers = Number.isSafeInteger(pnl[k]) && Number.isSafeInteger(risk[k]);
    distinct.add(risk[k]!);
  }
  const lcm = integers ? findCommonDenominator(distinct) : null;
  if (lcm !== null) {
    const units = new Map(Array.from(distinct, (cents) => [cents, lcm / BigInt(cents)]));
    const l = Number(lcm);
    const unitOf = new Map(Array.from(units, ([cents, unit]) => [cents, Number(unit)]));
    const sums = new Float64Array(n);
    let running = 0;
    // The largest whole number rounding meets: 200 x a drawdown (at most twice the steps' sum) + 2L; kept under half
    // of the safe integers, so the float sum that bounds it cannot round under the limit.
    let bound = 2 * l;
    for (let k = 0; k < n; k++) {
      const step = pnl[k]! * unitOf.get(risk[k]!)!;
      bound += 400 * Math.abs(step);
      sums[k] = running += step;
    }
    if (bound < Number.MAX_SAFE_INTEGER / 2) {
      // Two decimals, half away from zero (toR's rounding), of n / L: whole-number division, the remainder taken off
      // first, so no float quotient is floored.
      const round = (sum: number) => {
        const twice = 200 * Math.abs(sum) + l;
        return (Math.sign(sum) * ((twice - (twice % (2 * l))) / (2 * l))) / 100 + 0;
      };
      const curve: ExactCurve<number> = { sums, zero: 0, minus: (a, b) => a - b, greater: (a, b) => a > b, round };
      return curve;
    }
    const big: bigint[] = [];
    let total = 0n;
    for (let k = 0; k < n; k++) big.push((total += BigInt(pnl[k]!) * units.get(risk[k]!)!));
    const round = (sum: bigint) => {
      const hundredths = Number((200n * (sum < 0n ? -sum : sum) + lcm) / (2n * lcm));
      return (sum < 0n ? -hundredths : hundredths) / 100 + 0;
    };
    const curve: ExactCurve<bigint> = { sums: big, zero: 0n, minus: (a, b) => a - b, greater: (a, b) => a > b, round };
    return curve;
  }
  const Precise = Decimal.clone({ precision: 40 });
  let running = new Precise(0);
  const sums = Array.from(pnl, (p, k) => (running = running.plus(new Precise(p).dividedBy(risk[k]!))));
  const curve: ExactCurve<Decimal> = { sums, zero: new Precise(0), minus: (a, b) => a.minus(b), greater: (a, b) => a.greaterThan(b), round: toR };
  return curve;
}

/** Points at the chosen steps of a curve, each with its drawdown below the highest sum before it (the opening's 0 first). */
function pickPoints<T>(
  curve: ExactCurve<T>,
  at: ArrayLike<number>,
  pointOf: (k: number, position: number) => { index: number; tradeDate: CalendarDay },
): EquityRPoint[] {
  const points: EquityRPoint[] = [];
  let peak = curve.zero;
  let next = 0;
  // `at` lists steps in order; the peak runs over every step up to each (for the day curve, `at` is every close).
  for (let k = 0; next < at.length; k++) {
    const sum = curve.sums[k]!;
    if (curve.greater(sum, peak)) peak = sum;
    if (at[next] !== k) continue;
    points.push({ ...pointOf(k, next), equityR: curve.round(sum), drawdownR: curve.round(curve.minus(sum, peak)) });
    next++;
  }
  return points;
}

/**
 * The exact cumulative R after any step, for the few points whose float sum cannot tell their rounding: each risk's
 * P&L is summed in whole cents (kept every `spacing` steps), and a step's sum is read as a whole number of 1/L, L the
 * least common multiple of the risks (a BigInt), from the checkpoint before it. A cursor walks forward, so the steps
 * read in order cost a BigInt product each. Needs whole cents whose sums are safe integers; null past
 * MAX_DENOMINATOR_BITS (thousands of unrelated risks), where `sumExactR` sums as decimals.
 */
function exactSumsOfR(pnl: Float64Array, risk: Float64Array) {
  const n = pnl.length;
  const ids = new Uint32Array(n);
  const idOf = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    let id = idOf.get(risk[k]!);
    if (id === undefined) idOf.set(risk[k]!, (id = idOf.size));
    ids[k] = id;
  }
  const lcm = findCommonDenominator(idOf.keys());
  if (lcm === null) return null;
  const units = Array.from(idOf.keys(), (cents) => lcm / BigInt(cents));
  // Checkpoint c: each risk's P&L over the steps before c x spacing. Starting from one costs a BigInt product a risk,
  // then one a step: as many steps apart as there are risks, and they hold about n numbers in all.
  const spacing = Math.max(64, idOf.size);
  const checkpoints: Float64Array[] = [];
  const byRisk = new Float64Array(idOf.size);
  for (let k = 0; k < n; k++) {
    if (k % spacing === 0) checkpoints.push(byRisk.slice());
    byRisk[ids[k]!]! += pnl[k]!;
  }
  let position = -1;
  let sum = 0n;
  /** The cumulative R after step k (-1: the opening), in units of 1/L. */
  const at = (k: number): bigint => {
    if (k < position || k - position > spacing) {
      const c = Math.floor((k + 1) / spacing);
      const sums = checkpoints[c] ?? byRisk;
      sum = 0n;
      for (let id = 0; id < sums.length; id++) if (sums[id] !== 0) sum += BigInt(sums[id]!) * units[id]!;
      position = c < checkpoints.length ? c * spacing - 1 : n - 1;
    }
    for (; position < k;) {
      position++;
      sum += BigInt(pnl[position]!) * units[ids[position]!]!;
    }
    return sum;
  };
  /** Two decimals, half away from zero (toR's rounding), of units / L. */
  const round = (units: bigint) => {
    const hundredths = Number((200n * (units < 0n ? -units : units) + lcm) / (2n * lcm));
    return (units < 0n ? -hundredths : hundredths) / 100 + 0;
  };
  return { at, round };
}

/** A point whose float sum or drawdown left its rounding in doubt, for `exactSumsOfR` to settle. */
interface Doubt {
  point: EquityRPoint;
  step: number;
  /** The float peak at the step, the float error bound of every sum up to it, and which steps can be the peak. */
  peak: number;
  error: number;
  peakSteps: (j: number) => number;
  peakCount: number;
  equity: boolean;
  drawdown: boolean;
}

/**
 * Both curves as float running sums of R, each figure rounded as its exact sum rounds when the float's error bound
 * (sumError, roundWithin) leaves no doubt; the rest (a sum on or next to a half hundredth) summed exactly. Null when a
 * P&L or a risk is not in whole cents, or the cents add past the safe integers, or a doubt meets thousands of
 * unrelated risks: then `sumExactR` sums everything.
 */
function sumFastR(
  pnl: Float64Array,
  risk: Float64Array,
  ratios: Float64Array,
  day: Uint32Array,
  keep: ArrayLike<number>,
  dateOf: (k: number) => CalendarDay,
  withDays: boolean,
) {
  const n = pnl.length;
  let cents = 0;
  for (let k = 0; k < n; k++) {
    if (!Number.isSafeInteger(pnl[k]) || !Number.isSafeInteger(risk[k])) return null;
    cents += Math.abs(pnl[k]!);
  }
  if (!(cents < Number.MAX_SAFE_INTEGER)) return null;
  const sums = new Float64Array(n);
  const dayEnds: number[] = [];
  const byTrade: EquityRPoint[] = [];
  const byDay: EquityRPoint[] = [];
  const doubts: Doubt[] = [];
  let running = 0;
  let sizes = 0;
  let peak = 0;
  let dayPeak = 0;
  let next = 0;
  const everyStep = (j: number) => j;
  const dayEndAt = (j: number) => dayEnds[j]!;
  const pointAt = (
    points: EquityRPoint[],
    index: number,
    k: number,
    peakNow: number,
    error: number,
    peakSteps: (j: number) => number,
    peakCount: number,
  ) => {
    const equityR = roundWithin(running, error);
    const drawdownR = roundWithin(running - peakNow, 2 * error);
    const point = { index, tradeDate: dateOf(k), equityR: equityR ?? 0, drawdownR: drawdownR ?? 0 };
    points.push(point);
    if (equityR === undefined || drawdownR === undefined)
      doubts.push({ point, step: k, peak: peakNow, error, peakSteps, peakCount, equity: equityR === undefined, drawdown: drawdownR === undefined });
  };
  for (let k = 0; k < n; k++) {
    const ratio = ratios[k]!;
    running += ratio;
    sizes += Math.abs(ratio);
    sums[k] = running;
    if (running > peak) peak = running;
    const kept = keep[next] === k;
    const dayEnd = k === n - 1 || day[k + 1] !== day[k];
    if (!kept && !dayEnd) continue;
    const error = kept || withDays ? sumError(k + 1, sizes) : 0;
    if (kept) {
      pointAt(byTrade, k + 1, k, peak, error, everyStep, k + 1);
      next++;
    }
    if (dayEnd) {
      // By day: each day's close, under the best close before it; a day's trades in between are not its peaks.
      dayEnds.push(k);
      if (running > dayPeak) dayPeak = running;
      if (withDays) pointAt(byDay, dayEnds.length, k, dayPeak, error, dayEndAt, dayEnds.length);
    }
  }
  if (doubts.length > 0) {
    const exact = exactSumsOfR(pnl, risk);
    if (exact === null) return null;
    for (const doubt of doubts) {
      const { point, step, peakSteps, peakCount } = doubt;
      if (!doubt.drawdown) {
        point.equityR = exact.round(exact.at(step));
        continue;
      }
      // The exact peak is the opening's 0 or a step whose float is within twice the error of the float peak.
      const floor = doubt.peak - 2 * doubt.error - Math.abs(doubt.peak) * 4 * Number.EPSILON;
      let best = 0n;
      for (let j = 0; j < peakCount; j++) {
        const s = peakSteps(j);
        if (sums[s]! < floor) continue;
        const exactSum = exact.at(s);
        if (exactSum > best) best = exactSum;
      }
      // Read after the peaks (steps before it), so the cursor walks forward.
      const sum = exact.at(step);
      if (doubt.equity) point.equityR = exact.round(sum);
      point.drawdownR = exact.round(sum - best);
    }
  }
  return { byTrade, byDay, days: dayEnds.length };
}

/** Both curves in R of a set of trades (in trading order), given every trade's planned risk in cents (NaN without). */
export function computeEquityR(set: TradeSet, risk: Float64Array, maxPoints = 1500): EquityRSeries {
  return computeEquityRWith(set, risk, maxPoints, true, true);
}

/**
 * The curve in R by trade alone, with the count of days (`computeEquityR` less its day-by-day curve: its closes are
 * neither rounded nor, when a float leaves a rounding in doubt, summed exactly).
 */
export function computeEquityRByTrade(set: TradeSet, risk: Float64Array, maxPoints = 1500): Omit<EquityRSeries, 'byDay'> {
  const { byDay: _days, ...byTrade } = computeEquityRWith(set, risk, maxPoints, true, false);
  return byTrade;
}

/** `computeEquityR` summing every step exactly (no float sums): what the fast path must give, for tests. */
export function computeEquityRExactly(set: TradeSet, risk: Float64Array, maxPoints = 1500, withDays = true): EquityRSeries {
  return computeEquityRWith(set, risk, maxPoints, false, withDays);
}

function computeEquityRWith(set: TradeSet, risk: Float64Array, maxPoints: number, fast: boolean, withDays: boolean): EquityRSeries {
  const { columns: c, rows } = set;
  const pnl = new Float64Array(rows.length);
  const cents = new Float64Array(rows.length);
  const day = new Uint32Array(rows.length);
  // The floats choose which steps of a long curve to draw (the dollars' shape-keeping sample); what is drawn is exact.
  const floats = new Float64Array(rows.length);
  let n = 0;
  for (const i of rows) {
    if (!(risk[i]! > 0)) continue;
    pnl[n] = c.pnl[i]!;
    cents[n] = risk[i]!;
    day[n] = c.day[i]!;
    floats[n] = pnl[n]! / cents[n]!;
    n++;
  }
  const keep = sampleEquitySteps(floats.subarray(0, n), maxPoints);
  const dateOf = (k: number) => c.days[day[k]!]!;
  const quick = fast ? sumFastR(pnl.subarray(0, n), cents.subarray(0, n), floats.subarray(0, n), day.subarray(0, n), keep, dateOf, withDays) : null;
  if (quick !== null)
    return {
      byTrade: quick.byTrade,
      byDay: quick.byDay,
      tradesWithRisk: n,
      tradesWithoutRisk: rows.length - n,
      days: quick.days,
      sampled: quick.byTrade.length < n,
    };
  const curve = sumExactR(pnl.subarray(0, n), cents.subarray(0, n)) as ExactCurve<unknown>;
  const byTrade = pickPoints(curve, keep, (k) => ({ index: k + 1, tradeDate: dateOf(k) }));
  // By day: each day's close, under the best close before it; a day's trades in between are not its peaks.
  const dayEnds: number[] = [];
  for (let k = 0; k < n; k++) if (k === n - 1 || day[k + 1] !== day[k]) dayEnds.push(k);
  const closes: ExactCurve<unknown> = { ...curve, sums: dayEnds.map((k) => curve.sums[k]!) };
  const byDay = withDays
    ? pickPoints(
        closes,
        dayEnds.map((_, d) => d),
        (d) => ({ index: d + 1, tradeDate: dateOf(dayEnds[d]!) }),
      )
    : [];
  return { byTrade, byDay, tradesWithRisk: n, tradesWithoutRisk: rows.length - n, days: dayEnds.length, sampled: byTrade.length < n };
}
