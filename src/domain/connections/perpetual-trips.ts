import { Decimal, decimalToCents, type Cents } from '../money';
import {
  buildTrades,
  importTags,
  ImportKeyAllocator,
  resultOf,
  type DecorateOptions,
  type Fill,
  type ImportedTrade,
  type ImportIssue,
  type OpenPosition,
} from '../fills';
import type { SettlementCurrency } from '../instruments';
import type { FlatPoints } from './round-trips';

/**
 * Round trips of a crypto exchange's perpetuals from the fills its API gave, incrementally like a futures broker's
 * (round-trips.ts): per position, the fills after its last flat point go through the imports' FIFO rule (buildTrades).
 *
 * A position is a symbol and a side of the account's position mode. In one-way mode a symbol has one position (BOTH),
 * long or short, that a fill may take through zero (a reversal closes one trade and opens the next). In hedge mode the
 * long and the short position of a symbol are two positions, each opened and closed on its own: a trade never reverses.
 *
 * Money is in the account's settlement currency (USDT, USDC), to the cent, from exact decimals: P&L is quantity x price
 * change (a linear contract's point is one unit of its currency); fees are summed exactly per trade and rounded once.
 * A fee charged in another asset (BNB) is not converted into the settlement currency, which would take a price Edgebook
 * does not have: it stays with its fill, is left out of the trade's commission, and is counted in `otherFees`.
 */

export type PositionSide = 'LONG' | 'SHORT' | 'BOTH';

/** One execution of a perpetual as the connection stores it. */
export interface PerpetualFill {
  id: string;
  /** The exchange's symbol (BTCUSDT, BTC). */
  symbol: string;
  /** ISO-8601 instant. */
  time: string;
  /** Orders fills of one millisecond as the exchange numbered them (its trade id or sequence), compared as integers. */
  order: string;
  side: 'Buy' | 'Sell';
  quantity: string;
  price: string;
  /** What the fill cost, in `feeAsset` (negative: a rebate). */
  fee: string;
  feeAsset: string;
  positionSide: PositionSide;
  /**
   * True when the exchange says the fill reduced a position (it reports realized P&L, a closed size or a closing
   * direction); false when it opened one; null when it does not say.
   */
  closing: boolean | null;
}

/** How the journal files an exchange symbol. */
export interface PerpetualSpec {
  /** The journal's contract (BINANCE:BTCUSDT.P). */
  contract: string;
  /** The coin: the trade's symbol. */
  base: string;
  currency: SettlementCurrency;
}

export interface PerpetualTrip {
  trade: ImportedTrade;
  /** Fees of this trade charged in assets other than its currency, by asset (exact decimal strings). */
  otherFees: Record<string, string>;
}

export interface PerpetualTripsResult {
  trips: PerpetualTrip[];
  openPositions: OpenPosition[];
  /** Where the next sync starts, per position (`symbol|side`). */
  flat: FlatPoints;
  issues: ImportIssue[];
  considered: number;
  /** Fills that closed positions opened before the first fill the sync read: no trade is made of them. */
  orphans: number;
}

/** The key of a position in the flat points. */
export const positionKeyOf = (symbol: string, side: PositionSide) => `${symbol}|${side}`;

function compareOrder(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The order fills are read in: time, then the exchange's own order. */
export function comparePerpetualFills(a: { time: string; order: string }, b: { time: string; order: string }): number {
  return Date.parse(a.time) - Date.parse(b.time) || compareOrder(a.order, b.order);
}

/**
 * Does a fill, at an empty position in this side, close something the sync never saw open? In hedge mode the side says
 * (a sell on the long side closes); in one-way mode only the exchange can say.
 */
function closesUnseen(fill: PerpetualFill): boolean {
  if (fill.positionSide === 'LONG') return fill.side === 'Sell';
  if (fill.positionSide === 'SHORT') return fill.side === 'Buy';
  return fill.closing === true;
}

export function perpetualRoundTrips(
  fills: readonly PerpetualFill[],
  flat: FlatPoints,
  specs: ReadonlyMap<string, PerpetualSpec>,
  options: DecorateOptions = {},
): PerpetualTripsResult {
  const byPosition = new Map<string, PerpetualFill[]>();
  for (const fill of fills) {
    const key = positionKeyOf(fill.symbol, fill.positionSide);
    const since = flat[key];
    if (since && comparePerpetualFills(fill, { time: since.time, order: since.id }) <= 0) continue;
    let list = byPosition.get(key);
    if (!list) byPosition.set(key, (list = []));
    list.push(fill);
  }

  const next: FlatPoints = { ...flat };
  const built: Fill[] = [];
  const byId = new Map<string, PerpetualFill>();
  const issues: ImportIssue[] = [];
  let orphans = 0;
  for (const [key, list] of byPosition) {
    list.sort(comparePerpetualFills);
    let position = new Decimal(0);
    let leading = flat[key] === undefined;
    for (const fill of list) {
      const spec = specs.get(fill.symbol);
      if (!spec) {
        issues.push({ row: 0, severity: 'error', message: `No description of ${fill.symbol}: its fills wait for the next sync` });
        break;
      }
      if (leading && position.isZero() && closesUnseen(fill)) {
        orphans += 1;
        continue;
      }
      leading = false;
      const quantity = new Decimal(fill.quantity);
      position = fill.side === 'Buy' ? position.plus(quantity) : position.minus(quantity);
      if (position.isZero()) next[key] = { time: fill.time, id: fill.order };
      byId.set(fill.id, fill);
      built.push({
        rows: [built.length + 1],
        // The position's side keeps a hedge-mode long and short of one symbol apart, as two accounts would be.
        account: fill.positionSide,
        contract: spec.contract,
        root: spec.base,
        side: fill.side,
        quantity,
        price: new Decimal(fill.price),
        time: Date.parse(fill.time),
        // Fees are summed exactly per trade below, not rounded per fill.
        commission: 0,
        id: fill.id,
        seq: built.length,
        pointValue: new Decimal(1),
      });
    }
  }

  const result = buildTrades(built, { ...options, keys: new ImportKeyAllocator() });
  const trips = result.trades.map((trade) => withFees(trade, byId, specs));
  return {
    trips,
    openPositions: result.openPositions,
    flat: next,
    issues: [...issues, ...result.issues.map((issue) => ({ ...issue, row: 0 }))],
    considered: built.length,
    orphans,
  };
}

/**
 * The trade with its fees: each fill's share of its fee (a fill a reversal split pays in proportion), those in the
 * trade's currency summed exactly into its commission, the others kept aside by asset.
 */
function withFees(trade: ImportedTrade, byId: ReadonlyMap<string, PerpetualFill>, specs: ReadonlyMap<string, PerpetualSpec>): PerpetualTrip {
  let counted = new Decimal(0);
  const other = new Map<string, Decimal>();
  let currency: SettlementCurrency | undefined;
  const fills = (trade.fills ?? []).map((part) => {
    const fill = part.id === undefined ? undefined : byId.get(part.id);
    if (!fill) return part;
    currency ??= specs.get(fill.symbol)?.currency;
    const whole = new Decimal(fill.quantity);
    const share = part.quantity.eq(whole) ? new Decimal(fill.fee) : new Decimal(fill.fee).times(part.quantity).dividedBy(whole);
    if (fill.feeAsset === currency) {
      counted = counted.plus(share);
      return { ...part, commission: Math.max(0, decimalToCents(share)) };
    }
    other.set(fill.feeAsset, (other.get(fill.feeAsset) ?? new Decimal(0)).plus(share));
    return { ...part, commission: null };
  });
  // The journal keeps commissions as costs: a maker rebate larger than the trade's fees is not turned into income.
  const commission: Cents = Math.max(0, decimalToCents(counted));
  const netPnl = trade.grossPnl - commission;
  const tags = importTags({
    netPnl,
    symbol: trade.symbol,
    session: trade.session,
    side: trade.side,
    entryFills: trade.entryFills,
    exitFills: trade.exitFills,
  });
  return {
    trade: { ...trade, account: '', commission, netPnl, result: resultOf(netPnl), tags, fills },
    otherFees: Object.fromEntries([...other].filter(([, amount]) => !amount.isZero()).map(([asset, amount]) => [asset, amount.toFixed()])),
  };
}
