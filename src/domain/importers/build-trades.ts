import { Decimal, decimalToCents, type Cents } from '../money';
import { contentKeyMaterial, decorateTrade, type DecorateOptions, type TradeCore } from './decorate';
import { ImportKeyAllocator } from './import-key';
import { parseInstrument, pointValueOf } from './instruments';
import type { Fill, ImportedTrade, ImportIssue, OpenPosition, TradeSide } from './types';

export interface BuildTradesOptions extends DecorateOptions {
  /** Shared with other trades of the same import so occurrence counters span the whole file. */
  keys?: ImportKeyAllocator;
}

export interface BuildTradesResult {
  trades: ImportedTrade[];
  openPositions: OpenPosition[];
  issues: ImportIssue[];
}

/** Prices are averages of many fills; 8 decimals keep them exact for every tick size we know and bounded in size. */
const PRICE_DECIMALS = 8;

interface Part {
  fill: Fill;
  quantity: Decimal;
  commission: Cents;
}

interface Accumulator {
  side: TradeSide;
  entries: Part[];
  exits: Part[];
  /** FIFO lots still open, for the average price of a position left open at the end. */
  lots: { quantity: Decimal; price: Decimal }[];
}

/**
 * Turns fills into round-trip trades, per account and contract, in time order (issue 4, "How trades are built"):
 * a trade opens when the position leaves flat and ends when it returns to flat; a fill that takes the position through
 * zero closes the trade with the part it needs and opens the next trade with the remainder (its commission is shared
 * in proportion). Quantity is the number of contracts opened (scale-ins included); entry and exit prices are
 * volume-weighted; gross P&L = point value x (sell notional - buy notional), which for a flat-to-flat round trip is
 * exactly the sum of its FIFO matches. Positions not flat at the end are returned as open positions, not trades.
 */
export function buildTrades(fills: readonly Fill[], options: BuildTradesOptions = {}): BuildTradesResult {
  const keys = options.keys ?? new ImportKeyAllocator();
  const groups = new Map<string, { fill: Fill; index: number }[]>();
  fills.forEach((fill, index) => {
    const key = `${fill.account}\u0000${fill.contract}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push({ fill, index });
  });

  const cores: { core: TradeCore; material: string }[] = [];
  const openPositions: OpenPosition[] = [];
  const issues: ImportIssue[] = [];
  const warnedRoots = new Set<string>();

  for (const group of groups.values()) {
    group.sort((a, b) => a.fill.time - b.fill.time || (a.fill.seq ?? a.index) - (b.fill.seq ?? b.index) || a.index - b.index);
    let position = new Decimal(0);
    let current: Accumulator | null = null;
    for (const { fill } of group) {
      const direction = fill.side === 'Buy' ? 1 : -1;
      let remaining = fill.quantity;
      let commissionLeft = fill.commission;
      if (current !== null && !position.isZero() && position.s !== direction) {
        const closing = Decimal.min(remaining, position.abs());
        const share = closing.eq(remaining)
          ? commissionLeft
          : decimalToCents(new Decimal(fill.commission).times(closing).dividedBy(fill.quantity).dividedBy(100));
        current.exits.push({ fill, quantity: closing, commission: share });
        commissionLeft -= share;
        takeFromLots(current.lots, closing);
        position = position.plus(closing.times(direction));
        remaining = remaining.minus(closing);
        if (position.isZero()) {
          const core = coreOf(current, fill, warnedRoots, issues);
          cores.push({ core, material: keyMaterial(current, core) });
          current = null;
        }
      }
      if (remaining.gt(0)) {
        current ??= { side: direction === 1 ? 'Long' : 'Short', entries: [], exits: [], lots: [] };
        current.entries.push({ fill, quantity: remaining, commission: commissionLeft });
        current.lots.push({ quantity: remaining, price: fill.price });
        position = position.plus(remaining.times(direction));
      }
    }
    if (current !== null) openPositions.push(openPositionOf(current, position));
  }

  cores.sort((a, b) => (a.core.entryTime ?? 0) - (b.core.entryTime ?? 0));
  const trades = cores.map(({ core, material }) => decorateTrade(core, keys.next(material), options));
  return { trades, openPositions, issues };
}

function takeFromLots(lots: { quantity: Decimal; price: Decimal }[], quantity: Decimal): void {
  let left = quantity;
  while (left.gt(0) && lots.length > 0) {
    const lot = lots[0]!;
    if (lot.quantity.lte(left)) {
      left = left.minus(lot.quantity);
      lots.shift();
    } else {
      lot.quantity = lot.quantity.minus(left);
      left = new Decimal(0);
    }
  }
}

function sumQuantity(parts: Part[]): Decimal {
  return parts.reduce((sum, part) => sum.plus(part.quantity), new Decimal(0));
}

function notional(parts: Part[]): Decimal {
  return parts.reduce((sum, part) => sum.plus(part.quantity.times(part.fill.price)), new Decimal(0));
}

function coreOf(trade: Accumulator, lastFill: Fill, warnedRoots: Set<string>, issues: ImportIssue[]): TradeCore {
  const first = trade.entries[0]!.fill;
  const instrument = parseInstrument(first.contract);
  const { value: pointValue, unknownFutures } = pointValueOf({ root: first.root, isFuturesContract: instrument.isFuturesContract });
  if (unknownFutures && !warnedRoots.has(first.root)) {
    warnedRoots.add(first.root);
    issues.push({
      row: first.rows[0] ?? 0,
      severity: 'warning',
      message: `Unknown futures root ${first.root} (${first.contract}): P&L computed with a point value of 1; check it`,
    });
  }
  const quantity = sumQuantity(trade.entries);
  const entryNotional = notional(trade.entries);
  const exitNotional = notional(trade.exits);
  const points = trade.side === 'Long' ? exitNotional.minus(entryNotional) : entryNotional.minus(exitNotional);
  const parts = [...trade.entries, ...trade.exits];
  const rows = [...new Set(parts.flatMap((part) => part.fill.rows))].sort((a, b) => a - b);
  return {
    account: first.account,
    symbol: first.root,
    contract: first.contract,
    side: trade.side,
    entryTime: first.time,
    exitTime: lastFill.time,
    quantity,
    entryPrice: entryNotional.dividedBy(quantity).toDecimalPlaces(PRICE_DECIMALS),
    exitPrice: exitNotional.dividedBy(sumQuantity(trade.exits)).toDecimalPlaces(PRICE_DECIMALS),
    grossPnl: decimalToCents(points.times(pointValue)),
    commission: parts.reduce((sum, part) => sum + part.commission, 0),
    entryFills: new Set(trade.entries.map((part) => part.fill)).size,
    exitFills: new Set(trade.exits.map((part) => part.fill)).size,
    rows,
    pointValue,
  };
}

/**
 * The broker's ids when every fill of the trade has one (re-imports and overlapping exports give the same ids). The
 * file's account is left out: ids are unique at the broker, and Tradovate's Performance report (no account column)
 * and Position History (with one) carry the same fill ids, so the same trade from either file gets the same key.
 */
function keyMaterial(trade: Accumulator, core: TradeCore): string {
  const fills = [...trade.entries, ...trade.exits].map((part) => part.fill);
  if (fills.every((fill) => fill.id !== undefined && fill.id !== '')) {
    const ids = [...new Set(fills.map((fill) => fill.id!))].sort();
    return ['ids', core.contract, core.side, ...ids].join('|');
  }
  return contentKeyMaterial(core);
}

function openPositionOf(trade: Accumulator, position: Decimal): OpenPosition {
  const first = trade.entries[0]!.fill;
  const quantity = position.abs();
  const lotNotional = trade.lots.reduce((sum, lot) => sum.plus(lot.quantity.times(lot.price)), new Decimal(0));
  const rows = [...new Set([...trade.entries, ...trade.exits].flatMap((part) => part.fill.rows))].sort((a, b) => a - b);
  return {
    account: first.account,
    symbol: first.root,
    contract: first.contract,
    side: trade.side,
    quantity,
    averagePrice: lotNotional.dividedBy(quantity).toDecimalPlaces(PRICE_DECIMALS),
    openedAt: new Date(first.time).toISOString(),
    rows,
  };
}
