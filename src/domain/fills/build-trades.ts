import { Decimal, decimalToCents, sharedDecimal, type Cents } from '../money';
import { contentKeyMaterial, decorateTrade, type DecorateOptions, type TradeCore } from './decorate';
import { hash, ImportKeyAllocator } from './import-key';
import { parseInstrument, pointValueOf } from '../instruments';
import type { TradeSide } from '../trades/side';
import type { Fill, ImportedTrade, ImportIssue, OpenPosition, TradeFill } from './types';

export interface BuildTradesOptions extends DecorateOptions {
  /** Shared with other trades of the same import so occurrence counters span the whole file. */
  keys?: ImportKeyAllocator;
  /**
   * The file's times have minutes only (NinjaTrader's grid): fills of one minute may have happened in either order, so
   * where an exit would flatten the position while an entry of the same minute adds to it, the entry is read first
   * (the position stayed open) and the trade is marked ambiguous.
   */
  minutePrecision?: boolean;
  /** Called every BUILD_BETWEEN trades built, so that a caller may collect what the build left behind (parseImport). */
  between?: () => void;
}

const BUILD_BETWEEN = 4096;

export interface BuildTradesResult {
  trades: ImportedTrade[];
  openPositions: OpenPosition[];
  issues: ImportIssue[];
}

/** Prices are averages of many fills; 8 decimals keep them exact for every tick size we know and bounded in size. */
const PRICE_DECIMALS = 8;

/** Quantities are counted in units of 10^-8 (numeric(24,8) stores no finer), as integers: exact and fast. */
const QUANTITY_DECIMALS = 8;
/** Largest quantity of one fill, in units, so that positions summed from many fills stay exact integers. */
const MAX_UNITS = 1e12;

interface Part {
  fill: Fill;
  /** Quantity in units of the group's scale. */
  units: number;
  commission: Cents;
}

interface Accumulator {
  side: TradeSide;
  entries: Part[];
  exits: Part[];
  /** Entries and exits in the order they were matched, which is the order traded: the trade's fills. */
  sequence: Part[];
  /** FIFO lots still open (units, price), for the average price of a position left open at the end. */
  lots: { units: number; price: Decimal }[];
  /** Why the order of fills inside one minute was a guess, when it was (minute-precision files). */
  ambiguity?: string;
}

export const AMBIGUOUS_MINUTE_MESSAGE =
  'An exit and an entry share a minute: read as a scale-out and add inside one position (the file has no seconds)';

/**
 * Turns fills into round-trip trades, per account and contract, in time order ("How trades are built"):
 * a trade opens when the position leaves flat and ends when it returns to flat; a fill that takes the position through
 * zero closes the trade with the part it needs and opens the next trade with the remainder (its commission is shared
 * in proportion). Quantity is the number of contracts opened (scale-ins included); entry and exit prices are
 * volume-weighted; gross P&L = point value x (sell notional - buy notional), which for a flat-to-flat round trip is
 * exactly the sum of its FIFO matches. Positions not flat at the end are returned as open positions, not trades.
 * Quantities are matched as integers of the smallest decimal place the group uses (8 at most), so 100,000 fills are
 * matched without a decimal object per step (the import's parse time).
 */
export function buildTrades(fills: Iterable<Fill>, options: BuildTradesOptions = {}): BuildTradesResult {
  const keys = options.keys ?? new ImportKeyAllocator();
  const groups = new Map<string, { fill: Fill; index: number }[]>();
  let index = 0;
  for (const fill of fills) {
    const key = `${fill.account}\u0000${fill.contract}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push({ fill, index: index++ });
  }

  const cores: { core: TradeCore; digest: string }[] = [];
  const openPositions: OpenPosition[] = [];
  const issues: ImportIssue[] = [];
  const warnedRoots = new Set<string>();

  for (const group of groups.values()) {
    group.sort((a, b) => a.fill.time - b.fill.time || (a.fill.seq ?? a.index) - (b.fill.seq ?? b.index) || a.index - b.index);
    const scale = unitScale(group.map((g) => g.fill));
    const ordered: Fill[] = [];
    for (const { fill } of group) {
      // A corrupted cell (1e20 contracts) cannot be matched exactly; it is an unreadable row, not a rounding error.
      if (unitsOf(fill.quantity, scale) > MAX_UNITS) {
        issues.push({ row: fill.rows[0] ?? 0, severity: 'error', message: `Quantity ${fill.quantity.toString()} is too large to be real` });
      } else ordered.push(fill);
    }
    // From here each fill is held only while its trade is open (the memory of large files).
    group.length = 0;
    let position = 0;
    let current: Accumulator | null = null;
    // Entries read so far in the current minute (minute-precision files), to tell when the order was a guess.
    let minute = Number.NaN;
    let minuteEntries: { fill: Fill; units: number; direction: number }[] = [];
    for (let i = 0; i < ordered.length; i++) {
      let fill = ordered[i]!;
      let direction = fill.side === 'Buy' ? 1 : -1;
      let fillUnits = unitsOf(fill.quantity, scale);
      if (options.minutePrecision && current !== null && position !== 0 && Math.sign(position) !== direction && fillUnits >= Math.abs(position)) {
        // This exit would end the position. If the file says an entry of the same minute added to it, the fills of
        // that minute may have come the other way round: read the entry first, so the position stays open.
        const add = findSameMinuteEntry(ordered, i, Math.sign(position));
        if (add !== -1) {
          const [entry] = ordered.splice(add, 1);
          ordered.splice(i, 0, entry!);
          fill = entry!;
          direction = fill.side === 'Buy' ? 1 : -1;
          fillUnits = unitsOf(fill.quantity, scale);
        }
      }
      if (options.minutePrecision) {
        const thisMinute = Math.floor(fill.time / 60_000);
        if (thisMinute !== minute) {
          minute = thisMinute;
          minuteEntries = [];
        }
        // An exit read after another position's entry of the same minute could have come before it: had it, the
        // position would have gone flat there and the trade would split differently.
        if (current !== null && position !== 0 && Math.sign(position) !== direction) {
          const flattening = minuteEntries.some(
            (entry) =>
              entry.direction === Math.sign(position) &&
              fillUnits >= Math.abs(position) - entry.units &&
              !entry.fill.rows.some((r) => fill.rows.includes(r)),
          );
          if (flattening) current.ambiguity = AMBIGUOUS_MINUTE_MESSAGE;
        }
      }
      let remaining = fillUnits;
      let commissionLeft = fill.commission;
      if (current !== null && position !== 0 && Math.sign(position) !== direction) {
        const closing = Math.min(remaining, Math.abs(position));
        const share = closing === remaining ? commissionLeft : shareOf(fill.commission, closing, fillUnits);
        const part = { fill, units: closing, commission: share };
        current.exits.push(part);
        current.sequence.push(part);
        commissionLeft -= share;
        takeFromLots(current.lots, closing);
        position += closing * direction;
        remaining -= closing;
        if (position === 0) {
          const core = coreOf(current, fill, scale, warnedRoots, issues);
          cores.push({ core, digest: hash(keyMaterial(current, core)) });
          if (cores.length % BUILD_BETWEEN === 0) options.between?.();
          current = null;
        }
      }
      if (remaining > 0) {
        current ??= { side: direction === 1 ? 'Long' : 'Short', entries: [], exits: [], sequence: [], lots: [] };
        const part = { fill, units: remaining, commission: commissionLeft };
        current.entries.push(part);
        current.sequence.push(part);
        current.lots.push({ units: remaining, price: fill.price });
        position += remaining * direction;
        if (options.minutePrecision && fill.opening === true) minuteEntries.push({ fill, units: remaining, direction });
      }
      // Only fills after this one are looked at again.
      (ordered as Array<Fill | undefined>)[i] = undefined;
    }
    if (current !== null) openPositions.push(openPositionOf(current, position, scale));
  }

  cores.sort((a, b) => (a.core.entryTime ?? 0) - (b.core.entryTime ?? 0));
  // Each core is let go once decorated: a large file's cores and trades did not need to live at once.
  const trades = new Array<ImportedTrade>(cores.length);
  for (let i = 0; i < cores.length; i++) {
    const { core, digest } = cores[i]!;
    (cores as Array<unknown>)[i] = undefined;
    trades[i] = decorateTrade(core, keys.nextOf(digest), options);
    if (i % BUILD_BETWEEN === BUILD_BETWEEN - 1) options.between?.();
  }
  return { trades, openPositions, issues };
}

/**
 * The next fill of the same minute, after `from`, that the file marks as opening a position in `direction` (a
 * scale-in): only entries count, so an exit of a position opened in that minute is never turned into an add.
 */
function findSameMinuteEntry(ordered: Fill[], from: number, direction: number): number {
  const minute = Math.floor(ordered[from]!.time / 60_000);
  for (let j = from + 1; j < ordered.length; j++) {
    const candidate = ordered[j]!;
    if (Math.floor(candidate.time / 60_000) !== minute) break;
    if (candidate.opening === true && (candidate.side === 'Buy' ? 1 : -1) === direction) return j;
  }
  return -1;
}

/** 10^d for the most decimals any quantity of the group has (at most 8). */
function unitScale(fills: Fill[]): number {
  let decimals = 0;
  for (const fill of fills) decimals = Math.max(decimals, Math.min(QUANTITY_DECIMALS, fill.quantity.decimalPlaces()));
  return 10 ** decimals;
}

/** A quantity as an integer count of 1/scale. Parsers keep quantities below 10^7 with at most 8 decimals, so it is exact. */
function unitsOf(quantity: Decimal, scale: number): number {
  return scale === 1 ? integerOf(quantity) : integerOf(quantity.times(scale).toDecimalPlaces(0, Decimal.ROUND_HALF_UP));
}

/**
 * An integer Decimal as a number. Decimal.js keeps digits in base 10^7 words (`d`) with the decimal exponent `e`: an
 * integer below 10^7 is one word whose digit count is e + 1. toNumber() goes through a string, which was a visible
 * share of matching 100,000 fills.
 */
function integerOf(value: Decimal): number {
  const word = value.d.length === 1 ? value.d[0]! : -1;
  if (word >= 0 && value.e === digitsOf(word) - 1) return value.s * word;
  return value.toNumber();
}

function digitsOf(word: number): number {
  let digits = 1;
  for (let rest = word; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

function toQuantity(units: number, scale: number): Decimal {
  // Trades and fills of the same whole quantity share one decimal: a file's 200,000 fills of 1 or 2 contracts held as
  // many objects (the memory of large files).
  return scale === 1 ? sharedDecimal(String(units)) : new Decimal(units).dividedBy(scale);
}

/** Commission (cents) of `part` units out of `whole`, rounded half up, in integers. */
function shareOf(commission: Cents, part: number, whole: number): Cents {
  return decimalToCents(new Decimal(commission).times(part).dividedBy(whole).dividedBy(100));
}

function takeFromLots(lots: { units: number; price: Decimal }[], units: number): void {
  let left = units;
  while (left > 0 && lots.length > 0) {
    const lot = lots[0]!;
    if (lot.units <= left) {
      left -= lot.units;
      lots.shift();
    } else {
      lot.units -= left;
      left = 0;
    }
  }
}

function sumUnits(parts: Part[]): number {
  let total = 0;
  for (const part of parts) total += part.units;
  return total;
}

/** Sum of price x units; when every part has one price, that price (no division needed for the average). */
function notionalOf(parts: Part[]): { notional: Decimal; price: Decimal | null } {
  const first = parts[0]!.fill.price;
  let samePrice = true;
  for (const part of parts) if (!part.fill.price.eq(first)) samePrice = false;
  if (samePrice) return { notional: first.times(sumUnits(parts)), price: first };
  let notional = new Decimal(0);
  for (const part of parts) notional = notional.plus(part.fill.price.times(part.units));
  return { notional, price: null };
}

function sortedRows(parts: Part[]): number[] {
  const rows = new Set<number>();
  for (const part of parts) for (const row of part.fill.rows) rows.add(row);
  return [...rows].sort((a, b) => a - b);
}

function distinctFills(parts: Part[]): number {
  let count = 0;
  let last: Fill | null = null;
  const seen = parts.length > 2 ? new Set<Fill>() : null;
  for (const part of parts) {
    if (seen) {
      if (!seen.has(part.fill)) count++;
      seen.add(part.fill);
    } else if (part.fill !== last) count++;
    last = part.fill;
  }
  return count;
}

function coreOf(trade: Accumulator, lastFill: Fill, scale: number, warnedRoots: Set<string>, issues: ImportIssue[]): TradeCore {
  const first = trade.entries[0]!.fill;
  const instrument = parseInstrument(first.contract);
  const known = pointValueOf({ root: first.root, isFuturesContract: instrument.isFuturesContract });
  // A multiplier the file states (IBKR) wins over our table, and an unknown root with one needs no warning.
  const pointValue = first.pointValue ?? known.value;
  const unknownFutures = first.pointValue === undefined && known.unknownFutures;
  if (unknownFutures && !warnedRoots.has(first.root)) {
    warnedRoots.add(first.root);
    issues.push({
      row: first.rows[0] ?? 0,
      severity: 'warning',
      message: `Unknown futures root ${first.root} (${first.contract}): P&L computed with a point value of 1; check it`,
    });
  }
  const units = sumUnits(trade.entries);
  const entry = notionalOf(trade.entries);
  const exit = notionalOf(trade.exits);
  // Notionals are in price x units; points x point value / scale is dollars.
  const points = trade.side === 'Long' ? exit.notional.minus(entry.notional) : entry.notional.minus(exit.notional);
  const dollars = scale === 1 ? points.times(pointValue) : points.times(pointValue).dividedBy(scale);
  let commission = 0;
  for (const part of trade.entries) commission += part.commission;
  for (const part of trade.exits) commission += part.commission;
  const core: TradeCore = {
    account: first.account,
    symbol: first.root,
    contract: first.contract,
    side: trade.side,
    entryTime: first.time,
    exitTime: lastFill.time,
    quantity: toQuantity(units, scale),
    entryPrice: entry.price ?? entry.notional.dividedBy(units).toDecimalPlaces(PRICE_DECIMALS),
    exitPrice: exit.price ?? exit.notional.dividedBy(sumUnits(trade.exits)).toDecimalPlaces(PRICE_DECIMALS),
    grossPnl: decimalToCents(dollars),
    commission,
    entryFills: distinctFills(trade.entries),
    exitFills: distinctFills(trade.exits),
    rows: sortedRows([...trade.entries, ...trade.exits]),
    pointValue,
    fills: trade.sequence.map((part) => fillOf(part, scale)),
  };
  if (trade.ambiguity) core.ambiguity = trade.ambiguity;
  return core;
}

/** A matched part of a fill as the trade keeps it: its own share of the quantity and of the costs. */
function fillOf(part: Part, scale: number): TradeFill {
  const { time, side, price, id } = part.fill;
  const quantity = toQuantity(part.units, scale);
  // One literal for each shape: an id added afterwards gave each of a large file's fills a second block of memory.
  return id !== undefined && id !== ''
    ? { time, side, quantity, price, commission: part.commission, id }
    : { time, side, quantity, price, commission: part.commission };
}

/**
 * The broker's ids when every fill of the trade has one (re-imports and overlapping exports give the same ids). The
 * file's account is left out: ids are unique at the broker, and Tradovate's Performance report (no account column)
 * and Position History (with one) carry the same fill ids, so the same trade from either file gets the same key.
 */
function keyMaterial(trade: Accumulator, core: TradeCore): string {
  const ids: string[] = [];
  for (const parts of [trade.entries, trade.exits]) {
    for (const { fill } of parts) {
      if (fill.id === undefined || fill.id === '') return contentKeyMaterial(core);
      ids.push(fill.id);
    }
  }
  ids.sort();
  // A fill split between two trades, or between a trade's entry and exit, counts once.
  const unique = ids.filter((id, i) => i === 0 || id !== ids[i - 1]);
  return ['ids', core.contract, core.side, ...unique].join('|');
}

function openPositionOf(trade: Accumulator, position: number, scale: number): OpenPosition {
  const first = trade.entries[0]!.fill;
  const units = Math.abs(position);
  const quantity = toQuantity(units, scale);
  const lotNotional = trade.lots.reduce((sum, lot) => sum.plus(lot.price.times(lot.units)), new Decimal(0));
  const rows = sortedRows([...trade.entries, ...trade.exits]);
  return {
    account: first.account,
    symbol: first.root,
    contract: first.contract,
    side: trade.side,
    quantity,
    averagePrice: lotNotional.dividedBy(units).toDecimalPlaces(PRICE_DECIMALS),
    openedAt: new Date(first.time).toISOString(),
    rows,
  };
}
