import { Decimal, decimalToCents, type Cents } from '../money';
import { lastAtOrBefore, overlapping, RESOLUTIONS, type Bar, type Resolution } from './bars';
import { coverageOf, isQuiet, type MissingRange, type QuietRanges } from './coverage';
import type { MarketKind } from '../instruments';
import { isMarketClosed } from '../market-time';

/**
 * MAE, MFE, the best exit and the exit analysis of one trade, from price bars only. Pure: the bars, the trade and its
 * fills come in; nothing is estimated. The rules, as the trade page words them:
 *
 * - The span is entry to exit. Bars overlapping it count whole, the first and the last too ("from 1-minute bars, the
 *   first and last counted whole"): the bar of the entry may hold prices from before it, the bar of the exit prices
 *   from after it. A trade inside one bar takes that bar's whole range (`withinOneBar` says so).
 * - Every minute of the span needs its bar (coverage.ts): a minute without one, while the market was open, may have
 *   held the best or the worst price, so the figures are not computed and the missing minutes are named. A minute the
 *   source vouches had no trades (a confirmed quiet stretch) is no hole; the result counts those minutes.
 * - The trade's own fill prices are inside the range: a fill at a price the bars do not reach (another feed, a fast
 *   print) widens it.
 * - Excursions are measured from the average entry, so a scale-in measures from where the whole position stood, and
 *   in dollars for the whole position (its quantity, the contract's point value), exact decimals to the cent.
 * - MAE is how far price went against the position, MFE how far in its favour, never below 0.
 * - The best exit is the most favourable price inside the span (the MFE's price); capture is the trade's gross P&L
 *   over the best exit's, and is left out when price never went the position's way.
 * - The exit analysis closes the whole position N minutes (1, 5, 15, 60) after its final exit, at one price: the close
 *   of the bar that holds that moment (with 1-second bars, of the last bar of that minute up to the moment). Its P&L
 *   is that price against the average entry, so the row's price and P&L always agree. A moment while the market is
 *   closed has no price ('closed'); a moment whose minute has no bar is 'missing' and names that minute, unless the
 *   minute lies in a confirmed quiet stretch, where the last price before it stands. A second mode moves every exit
 *   fill N minutes later instead (`exitAfterEachFill`), labelled so wherever it is shown.
 * - 1-second bars are used when they cover the span, else 1-minute bars.
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
  | {
      minutes: number;
      status: 'ok';
      grossPnlCents: Cents;
      /** The price the position is closed at (the last exit's, per fill). */ price: string;
      time: number;
    }
  | { minutes: number; status: 'closed' }
  /** `minute`: the start of the minute (epoch ms) whose bar is missing. */
  | { minutes: number; status: 'missing'; minute?: number };

export interface ExcursionOptions {
  /** Stretches a source vouches had no trades in the minutes it has no bar for (coverage.ts). */
  quiet?: QuietRanges;
}

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
      /** The whole position closed N minutes after the final exit. */
      exitAfter: ExitAfter[];
      /** The second mode: every exit fill moved N minutes later. */
      exitAfterEachFill: ExitAfter[];
      /** Minutes of the span and of the exit analysis without a bar, taken as without trades (a confirmed quiet source). */
      quietMinutes: number;
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
 * The bars and resolution to measure with: the finest whose bars cover every minute of the span. When none does, the
 * missing minutes of the resolution to add: one with bars inside the span before one without, 1-minute bars before
 * 1-second ones.
 */
function chooseBars(
  trade: ExcursionTrade,
  bars: BarsByResolution,
  quiet: QuietRanges,
): { resolution: Resolution; bars: readonly Bar[]; quietMinutes: number } | { missing: { resolution: Resolution; ranges: MissingRange[] } | null } {
  const incomplete: Array<{ resolution: Resolution; ranges: MissingRange[]; inside: boolean }> = [];
  for (const resolution of RESOLUTIONS) {
    const series = bars[resolution];
    if (!series || series.length === 0) continue;
    const coverage = coverageOf(series, resolution, trade.entryTime, trade.exitTime, trade.market, quiet);
    if (coverage.missing.length === 0) return { resolution, bars: series, quietMinutes: coverage.quietMinutes };
    const [first, end] = overlapping(series, resolution, trade.entryTime, trade.exitTime);
    incomplete.push({ resolution, ranges: coverage.missing, inside: first < end });
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
export function computeExcursions(trade: ExcursionTrade, bars: BarsByResolution, options: ExcursionOptions = {}): ExcursionResult {
  const reason = notApplicable(trade);
  if (reason) return { status: 'not-applicable', reason };
  const quiet = options.quiet ?? [];
  const chosen = chooseBars(trade, bars, quiet);
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
  const later = { series, resolution, quiet, quietMinutes: new Set<number>() };
  const exitAfter = EXIT_HORIZONS_MINUTES.map((minutes) => closeLater(trade, legs, later, minutes));
  const exitAfterEachFill = EXIT_HORIZONS_MINUTES.map((minutes) => moveEachExit(trade, legs, later, minutes));
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
    exitAfter,
    exitAfterEachFill,
    quietMinutes: chosen.quietMinutes + later.quietMinutes.size,
  };
}

const MINUTE = 60_000;

interface Later {
  series: readonly Bar[];
  resolution: Resolution;
  quiet: QuietRanges;
  /** Minutes of the exit analysis taken as quiet (a set: both modes may read the same minute). */
  quietMinutes: Set<number>;
}

/**
 * The price at `time`: the close of the bar that holds it (1-minute bars), or of the last 1-second bar of its minute up
 * to it. Without one, the minute is missing, unless it is a confirmed quiet minute: then the last close before stands.
 */
function priceAt(later: Later, time: number, market: MarketKind): { price: string } | { missing: number } | 'closed' {
  if (isMarketClosed(time, market)) return 'closed';
  const minute = Math.floor(time / MINUTE) * MINUTE;
  const index = lastAtOrBefore(later.series, time);
  const bar = index >= 0 ? later.series[index]! : null;
  if (bar && bar.start >= minute) return { price: bar.close };
  if (bar && isQuiet(later.quiet, minute)) {
    later.quietMinutes.add(minute);
    return { price: bar.close };
  }
  return { missing: minute };
}

/** The gross P&L of the whole position closed at `exitNotional` (price x quantity summed), exact to the cent. */
function grossAt(trade: ExcursionTrade, legs: ReturnType<typeof legsOf>, exitNotional: Decimal): Cents {
  const points = trade.side === 'Long' ? exitNotional.minus(legs.entryNotional) : legs.entryNotional.minus(exitNotional);
  return decimalToCents(points.times(trade.pointValue));
}

/** The whole position closed `minutes` after the final exit, at that moment's price. */
function closeLater(trade: ExcursionTrade, legs: ReturnType<typeof legsOf>, later: Later, minutes: number): ExitAfter {
  const finalExit = legs.exits.reduce((last, exit) => Math.max(last, exit.time), trade.exitTime);
  const time = finalExit + minutes * MINUTE;
  const found = priceAt(later, time, trade.market);
  if (found === 'closed') return { minutes, status: 'closed' };
  if ('missing' in found) return { minutes, status: 'missing', minute: found.missing };
  return { minutes, status: 'ok', grossPnlCents: grossAt(trade, legs, new Decimal(found.price).times(trade.quantity)), price: found.price, time };
}

/** The second mode: each exit fill moved `minutes` later, at its own moment's price; the price shown is the last exit's. */
function moveEachExit(trade: ExcursionTrade, legs: ReturnType<typeof legsOf>, later: Later, minutes: number): ExitAfter {
  let exitNotional = new Decimal(0);
  let last: { price: string; time: number } | null = null;
  for (const exit of legs.exits) {
    const time = exit.time + minutes * MINUTE;
    const found = priceAt(later, time, trade.market);
    if (found === 'closed') return { minutes, status: 'closed' };
    if ('missing' in found) return { minutes, status: 'missing', minute: found.missing };
    exitNotional = exitNotional.plus(new Decimal(found.price).times(exit.quantity));
    if (!last || time >= last.time) last = { price: found.price, time };
  }
  return { minutes, status: 'ok', grossPnlCents: grossAt(trade, legs, exitNotional), price: last!.price, time: last!.time };
}

/** An amount in R (planned risk in cents), 2 decimals; null without a positive risk. */
export function inR(cents: Cents, riskCents: Cents | null): string | null {
  if (riskCents === null || !(riskCents > 0)) return null;
  return new Decimal(cents).dividedBy(riskCents).toDecimalPlaces(2).toFixed(2);
}
