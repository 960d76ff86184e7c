import { Decimal, decimalToCents, type Cents } from '../money';
import { lastAtOrBefore, overlapping, periodMs, RESOLUTIONS, type Bar, type Resolution } from './bars';
import { findMissingBars, GAP_TOLERANCE_MS, type MissingRange } from './coverage';
import type { MarketKind } from '../instruments';
import { isMarketClosed, openMillisBetween } from '../market-time';

/**
 * MAE, MFE, the best exit and the exit analysis of one trade, from price bars only. Pure:
 * the bars, the trade and its fills come in; nothing is estimated. The rules, as the trade page words them:
 *
 * - The span is entry to exit. Bars overlapping it count whole, the first and the last too ("from 1-minute bars, the
 *   first and last counted whole"): the bar of the entry may hold prices from before it, the bar of the exit prices
 *   from after it. A trade inside one bar takes that bar's whole range (`withinOneBar` says so).
 * - The trade's own fill prices are inside the range: a fill at a price the bars do not reach (another feed, a fast
 *   print) widens it.
 * - Excursions are measured from the average entry, so a scale-in measures from where the whole position stood, and
 *   in dollars for the whole position (its quantity, the contract's point value), exact decimals to the cent.
 * - MAE is how far price went against the position, MFE how far in its favour, never below 0.
 * - The best exit is the most favourable price inside the span (the MFE's price); capture is the trade's gross P&L
 *   over the best exit's, and is left out when price never went the position's way.
 * - The exit analysis moves every exit fill N minutes later (1, 5, 15, 60): its price is the close of the bar in
 *   which that moment falls, or of the last bar before it within the gap tolerance; a moment while the market is
 *   closed has no price ('closed'), one without bars around it is 'missing'.
 * - Bars with a gap longer than the tolerance (coverage.ts) inside the span, outside the exchange's closed hours, are
 *   missing data: which stretches are missing is returned and nothing is computed. 1-second bars are used when they
 *   cover the span, else 1-minute bars.
 */

export const EXIT_HORIZONS_MINUTES = [1, 5, 15, 60] as const;

export interface ExcursionFill {
  time: number;
  side: 'Buy' | 'Sell';
  quantity: Decimal;
  price: Decimal;
}

export interface ExcursionTrade {
  side: 'Long' | 'Short';
  /** Epoch ms. */
  entryTime: number;
  exitTime: number;
  quantity: Decimal;
  /** Average prices (used when the trade has no fills). */
  entryPrice: Decimal;
  exitPrice: Decimal;
  grossPnlCents: Cents;
  /** Dollars per point of the contract. */
  pointValue: Decimal;
  /** The contract's tick, when known: excursions are also given in ticks. */
  tickSize: Decimal | null;
  /** Whose hours decide what is a closure and what is missing data. */
  market: MarketKind;
  /** In the order traded; empty for a trade stored before fills were kept. */
  fills: readonly ExcursionFill[];
}

export type BarsByResolution = Partial<Record<Resolution, readonly Bar[]>>;

export interface Excursion {
  /** Decimal strings: points from the average entry, and ticks when the tick is known. */
  points: string;
  ticks: string | null;
  cents: Cents;
  /** The extreme price, and when it was seen (a bar's start, or a fill's time when a fill set it). */
  price: string;
  time: number;
}

export type ExitAfter =
  | { minutes: number; status: 'ok'; grossPnlCents: Cents; /** The price of the last exit moved. */ price: string; time: number }
  | { minutes: number; status: 'missing' | 'closed' };

export type ExcursionResult =
  | {
      status: 'complete';
      resolution: Resolution;
      barsCounted: number;
      firstBarStart: number;
      lastBarStart: number;
      withinOneBar: boolean;
      averageEntry: string;
      mae: Excursion;
      mfe: Excursion;
      bestExit: { price: string; time: number; grossPnlCents: Cents };
      /** Gross P&L over the best exit's, 4 decimals (0.6250 = 62.5%); null when the MFE is 0. */
      capture: string | null;
      exitAfter: ExitAfter[];
    }
  | { status: 'missing'; resolution: Resolution; missing: MissingRange[]; from: number; to: number }
  | { status: 'no-bars'; from: number; to: number }
  | { status: 'not-applicable'; reason: string };

interface Leg {
  time: number;
  quantity: Decimal;
  price: Decimal;
}

/** Entry notional and exits of the trade: its fills when they add up to it, else one entry and one exit at the averages. */
function legsOf(trade: ExcursionTrade): { entryNotional: Decimal; exits: Leg[]; prices: Leg[] } {
  const entrySide = trade.side === 'Long' ? 'Buy' : 'Sell';
  const entries = trade.fills.filter((f) => f.side === entrySide);
  const exits = trade.fills.filter((f) => f.side !== entrySide);
  const sum = (legs: readonly ExcursionFill[]) => legs.reduce((total, leg) => total.plus(leg.quantity), new Decimal(0));
  if (entries.length > 0 && exits.length > 0 && sum(entries).eq(trade.quantity) && sum(exits).eq(trade.quantity)) {
    const entryNotional = entries.reduce((total, leg) => total.plus(leg.price.times(leg.quantity)), new Decimal(0));
    return { entryNotional, exits: [...exits], prices: [...trade.fills] };
  }
  const entry = { time: trade.entryTime, quantity: trade.quantity, price: trade.entryPrice };
  const exit = { time: trade.exitTime, quantity: trade.quantity, price: trade.exitPrice };
  return { entryNotional: trade.entryPrice.times(trade.quantity), exits: [exit], prices: [entry, exit] };
}

/** Why a trade has nothing to measure, or null. */
function notApplicable(trade: ExcursionTrade): string | null {
  if (!(trade.exitTime >= trade.entryTime)) return 'The trade has no entry and exit times in order';
  if (!trade.quantity.gt(0)) return 'The trade has no quantity';
  return null;
}

/**
 * The bars and resolution to measure with: the finest whose bars cover the span. When none does, the missing bars
 * of the resolution to add: one with bars inside the span before one without, 1-minute bars before 1-second ones.
 */
function chooseBars(trade: ExcursionTrade, bars: BarsByResolution):
  | { resolution: Resolution; bars: readonly Bar[] }
  | { missing: { resolution: Resolution; ranges: MissingRange[] } | null } {
  const incomplete: Array<{ resolution: Resolution; ranges: MissingRange[]; inside: boolean }> = [];
  for (const resolution of RESOLUTIONS) {
    const series = bars[resolution];
    if (!series || series.length === 0) continue;
    const ranges = findMissingBars(series, resolution, trade.entryTime, trade.exitTime, trade.market);
    if (ranges.length === 0) return { resolution, bars: series };
    const [first, end] = overlapping(series, resolution, trade.entryTime, trade.exitTime);
    incomplete.push({ resolution, ranges, inside: first < end });
  }
  if (incomplete.length === 0) return { missing: null };
  incomplete.sort((a, b) => Number(b.inside) - Number(a.inside) || b.resolution - a.resolution);
  return { missing: { resolution: incomplete[0]!.resolution, ranges: incomplete[0]!.ranges } };
}

function excursionOf(points: Decimal, cents: Cents, tickSize: Decimal | null, price: Decimal, time: number): Excursion {
  return {
    points: points.toDecimalPlaces(8).toFixed(),
    ticks: tickSize && tickSize.gt(0) ? points.dividedBy(tickSize).toDecimalPlaces(4).toFixed() : null,
    cents,
    price: price.toFixed(),
    time,
  };
}

/** MAE, MFE, best exit, capture and exit analysis of one trade (see the rules above). */
export function computeExcursions(trade: ExcursionTrade, bars: BarsByResolution): ExcursionResult {
  const reason = notApplicable(trade);
  if (reason) return { status: 'not-applicable', reason };
  const chosen = chooseBars(trade, bars);
  if ('missing' in chosen) {
    if (chosen.missing === null) return { status: 'no-bars', from: trade.entryTime, to: trade.exitTime };
    return { status: 'missing', resolution: chosen.missing.resolution, missing: chosen.missing.ranges, from: trade.entryTime, to: trade.exitTime };
  }
  const { resolution } = chosen;
  const series = chosen.bars;
  const [first, end] = overlapping(series, resolution, trade.entryTime, trade.exitTime);
  const legs = legsOf(trade);

  // Extremes compared as numbers (exact in order for prices of up to 15 significant digits), kept as their decimals.
  let low = { value: Number.POSITIVE_INFINITY, text: '', time: 0 };
  let high = { value: Number.NEGATIVE_INFINITY, text: '', time: 0 };
  for (let i = first; i < end; i++) {
    const bar = series[i]!;
    const barLow = Number(bar.low);
    const barHigh = Number(bar.high);
    if (barLow < low.value) low = { value: barLow, text: bar.low, time: bar.start };
    if (barHigh > high.value) high = { value: barHigh, text: bar.high, time: bar.start };
  }
  for (const leg of legs.prices) {
    const price = leg.price.toNumber();
    if (price < low.value) low = { value: price, text: leg.price.toFixed(), time: leg.time };
    if (price > high.value) high = { value: price, text: leg.price.toFixed(), time: leg.time };
  }

  const quantity = trade.quantity;
  const averageEntry = legs.entryNotional.dividedBy(quantity);
  const lowPrice = new Decimal(low.text);
  const highPrice = new Decimal(high.text);
  const long = trade.side === 'Long';
  // Dollars of the whole position from the entry notional (exact), points from the average entry.
  const dollarsAt = (price: Decimal) => {
    const move = long ? price.times(quantity).minus(legs.entryNotional) : legs.entryNotional.minus(price.times(quantity));
    return move.times(trade.pointValue);
  };
  const atLow = dollarsAt(lowPrice);
  const atHigh = dollarsAt(highPrice);
  const adverse = long ? { price: lowPrice, time: low.time, dollars: atLow } : { price: highPrice, time: high.time, dollars: atHigh };
  const favourable = long ? { price: highPrice, time: high.time, dollars: atHigh } : { price: lowPrice, time: low.time, dollars: atLow };
  const zero = new Decimal(0);
  const maeDollars = Decimal.max(zero, adverse.dollars.negated());
  const mfeDollars = Decimal.max(zero, favourable.dollars);
  const pointsOf = (dollars: Decimal) => dollars.dividedBy(trade.pointValue).dividedBy(quantity);
  const maeCents = decimalToCents(maeDollars);
  const mfeCents = decimalToCents(mfeDollars);

  return {
    status: 'complete',
    resolution,
    barsCounted: end - first,
    firstBarStart: series[first]!.start,
    lastBarStart: series[end - 1]!.start,
    withinOneBar: end - first === 1,
    averageEntry: averageEntry.toDecimalPlaces(8).toFixed(),
    mae: excursionOf(pointsOf(maeDollars), maeCents, trade.tickSize, adverse.price, adverse.time),
    mfe: excursionOf(pointsOf(mfeDollars), mfeCents, trade.tickSize, favourable.price, favourable.time),
    bestExit: { price: favourable.price.toFixed(), time: favourable.time, grossPnlCents: mfeCents },
    capture: mfeCents > 0 ? new Decimal(trade.grossPnlCents).dividedBy(mfeCents).toDecimalPlaces(4).toFixed(4) : null,
    exitAfter: EXIT_HORIZONS_MINUTES.map((minutes) => exitAfter(trade, legs, series, resolution, minutes)),
  };
}

/** The price at `time`: the close of the bar it falls in, or of the last bar before it within the tolerance. */
function priceAt(series: readonly Bar[], resolution: Resolution, time: number, market: MarketKind): { price: string } | 'missing' | 'closed' {
  if (isMarketClosed(time, market)) return 'closed';
  const index = lastAtOrBefore(series, time);
  if (index < 0) return 'missing';
  const bar = series[index]!;
  const barEnd = bar.start + periodMs(resolution);
  if (time >= barEnd && openMillisBetween(barEnd, time, market, GAP_TOLERANCE_MS[resolution] + 1) > GAP_TOLERANCE_MS[resolution]) return 'missing';
  return { price: bar.close };
}

function exitAfter(trade: ExcursionTrade, legs: ReturnType<typeof legsOf>, series: readonly Bar[], resolution: Resolution, minutes: number): ExitAfter {
  let exitNotional = new Decimal(0);
  let last: { price: string; time: number } | null = null;
  for (const exit of legs.exits) {
    const time = exit.time + minutes * 60_000;
    const found = priceAt(series, resolution, time, trade.market);
    if (found === 'missing' || found === 'closed') return { minutes, status: found };
    exitNotional = exitNotional.plus(new Decimal(found.price).times(exit.quantity));
    last = { price: found.price, time };
  }
  const points = trade.side === 'Long' ? exitNotional.minus(legs.entryNotional) : legs.entryNotional.minus(exitNotional);
  return { minutes, status: 'ok', grossPnlCents: decimalToCents(points.times(trade.pointValue)), price: last!.price, time: last!.time };
}

/** An amount in R (planned risk in cents), 2 decimals; null without a positive risk. */
export function inR(cents: Cents, riskCents: Cents | null): string | null {
  if (riskCents === null || !(riskCents > 0)) return null;
  return new Decimal(cents).dividedBy(riskCents).toDecimalPlaces(2).toFixed(2);
}
