import { Decimal, type Cents } from '../money';
import { parseInstrument } from '../instruments';
import { readOnce, sharedText } from './csv';
import { fillId } from '../fills/import-key';
import type { TradeSide } from '../trades/side';
import type { Fill, ImportIssue, Side } from '../fills/types';

export interface PairLeg {
  /** The broker's fill id; legs with the same id are one fill split over several pairs. */
  id?: string;
  price: Decimal;
  time: number;
}

/**
 * One row of a paired export (Tradovate Performance and Position History, TopstepX trades, NinjaTrader trades): a
 * quantity bought at one price and time and sold at another. Rows are FIFO matches of the broker, not round trips:
 * a scale-in is several rows, so rows go back to fills and `buildTrades` rebuilds the round trips.
 */
export interface FillPair {
  row: number;
  account: string;
  contract: string;
  quantity: Decimal;
  buy: PairLeg;
  sell: PairLeg;
  /** Which leg opened, when the file says so (Long/Short); else the earlier leg (ids break ties). */
  side?: TradeSide;
  /** Costs of the pair, charged to its opening leg. */
  commission?: Cents;
  /** Key material when the row has an id but its legs have none (TopstepX trade id). */
  rowId?: string;
  /** Prefix of the ids in import keys, e.g. 'tradovate-fill' (shared by the Tradovate exports that carry fill ids). */
  idNamespace: string;
}

/**
 * A row of Tradovate's paired reports (Performance and Position History): each leg as [fill id ('' when the file has
 * none), price, time]; the fill ids are the keys both reports share.
 */
export function tradovatePair(
  row: number,
  account: string,
  contract: string,
  quantity: Decimal,
  [buyId, buyPrice, boughtAt]: [string, Decimal, number],
  [sellId, sellPrice, soldAt]: [string, Decimal, number],
): FillPair {
  const leg = (id: string, price: Decimal, time: number): PairLeg => (id ? { id, price, time } : { price, time });
  return {
    row,
    account,
    contract,
    quantity,
    idNamespace: 'tradovate-fill',
    buy: leg(buyId, buyPrice, boughtAt),
    sell: leg(sellId, sellPrice, soldAt),
  };
}

/**
 * Legs become fills. With fill ids (Tradovate), legs sharing an id are merged back into that one fill (so
 * "Multi-Position" counts real fills), and ids order fills of the same second, since Tradovate numbers them in time
 * order. Without ids, among legs of the same time an exit of an earlier position comes first, then entries, then
 * exits of positions opened that same time (NinjaTrader prints minutes only: 9:23 in, 9:23 out).
 */
export function pairsToFills(pairs: Iterable<FillPair>, issues: ImportIssue[], options: { mergeSameTimeAndPrice?: boolean } = {}): Fill[] {
  const fills: Fill[] = [];
  const byId = new FillsById();
  // Without fill ids (NinjaTrader's grid), consecutive rows whose leg on one side has the same time and price are one
  // fill matched against several lots: the exit of 2 contracts against two entries is two rows. Rows alike on both
  // sides are two fills each side, though: one entry of 2 closed by one exit of 2 is one row, so a second row alike is
  // a second order (two lots bought and sold a minute apart at the same prices), and the trade has more than one fill.
  let previous: { pair: FillPair; legs: Partial<Record<Side, Fill>> } | null = null;
  for (const pair of readOnce(pairs)) {
    const legs: Partial<Record<Side, Fill>> = {};
    const alike = (side: Side) => {
      const before = previous?.legs[side];
      const leg = side === 'Buy' ? pair.buy : pair.sell;
      return before !== undefined && leg.id === undefined && before.time === leg.time && before.price.eq(leg.price);
    };
    const bothAlike =
      previous !== null &&
      previous.pair.account === pair.account &&
      previous.pair.contract === pair.contract &&
      previous.pair.side === pair.side &&
      alike('Buy') &&
      alike('Sell');
    const instrument = parseInstrument(pair.contract);
    const entrySide: Side = pair.side
      ? pair.side === 'Long'
        ? 'Buy'
        : 'Sell'
      : pair.buy.time !== pair.sell.time
        ? pair.buy.time < pair.sell.time
          ? 'Buy'
          : 'Sell'
        : compareIds(pair.buy.id, pair.sell.id) <= 0
          ? 'Buy'
          : 'Sell';
    for (const side of ['Buy', 'Sell'] as const) {
      const leg = side === 'Buy' ? pair.buy : pair.sell;
      const opening = side === entrySide;
      const other = side === 'Buy' ? pair.sell : pair.buy;
      const commission = opening ? (pair.commission ?? 0) : 0;
      // The fill's id as it keeps it, made once: the key it is found by too (FillsById).
      const id = leg.id !== undefined ? fillId(pair.idNamespace, leg.id) : undefined;
      if (id !== undefined) {
        const existing = byId.find(pair.account, instrument.contract, side, id);
        if (existing) {
          if (!existing.price.eq(leg.price) || existing.time !== leg.time) {
            issues.push({
              row: pair.row,
              severity: 'warning',
              message: `Fill ${leg.id} appears with a different price or time than on row ${existing.rows[0]}`,
            });
          }
          existing.quantity = existing.quantity.plus(pair.quantity);
          existing.commission += commission;
          // A new list of just its rows (concat): one grown by push, or by spreading, kept room for 19 rows (200 bytes
          // instead of 64), on a quarter of a large file's fills.
          if (!existing.rows.includes(pair.row)) existing.rows = existing.rows.concat(pair.row);
          continue;
        }
      }
      const before = previous?.legs[side];
      if (
        options.mergeSameTimeAndPrice &&
        !bothAlike &&
        leg.id === undefined &&
        before !== undefined &&
        previous!.pair.account === pair.account &&
        previous!.pair.contract === pair.contract &&
        before.opening === opening &&
        before.time === leg.time &&
        before.price.eq(leg.price)
      ) {
        before.quantity = before.quantity.plus(pair.quantity);
        before.commission += commission;
        before.rows = before.rows.concat(pair.row);
        legs[side] = before;
        continue;
      }
      const rank = opening ? 1 : other.time < leg.time ? 0 : 2;
      // Every field in the one literal, the id too (undefined without one): a field added afterwards gave each of a
      // large file's fills a second block of memory for it.
      const fill: Fill = {
        rows: [pair.row],
        // Names kept with every fill, and later every trade: copies of their own, not slices of the file's text.
        account: sharedText(pair.account),
        contract: sharedText(instrument.contract),
        root: sharedText(instrument.root),
        side,
        quantity: pair.quantity,
        price: leg.price,
        time: leg.time,
        commission,
        seq: leg.id !== undefined && /^\d{1,15}$/.test(leg.id) ? Number(leg.id) : rank * 10_000_000 + pair.row,
        opening,
        id: id ?? (pair.rowId !== undefined ? fillId(pair.idNamespace, pair.rowId, opening ? 'in' : 'out') : undefined),
      };
      if (id !== undefined) byId.add(pair.account, instrument.contract, side, id, fill);
      legs[side] = fill;
      fills.push(fill);
    }
    previous = { pair, legs };
  }
  return fills;
}

/**
 * Fills by the broker's id, per account, contract and side. Keyed by the fill's own id alone where it is unique, as it
 * is in a broker's export (a key joining all four, or the broker's id apart from the fill's, was one more string for
 * each of a 15 MB export's 205,000 fills while it was read); an id seen again for another account, contract or side
 * is kept under the joined key.
 */
class FillsById {
  private readonly byId = new Map<string, Fill>();
  private readonly others = new Map<string, Fill>();

  find(account: string, contract: string, side: Side, id: string): Fill | undefined {
    const fill = this.byId.get(id);
    if (fill && fill.account === account && fill.contract === contract && fill.side === side) return fill;
    return this.others.get(FillsById.key(account, contract, side, id));
  }

  add(account: string, contract: string, side: Side, id: string, fill: Fill): void {
    if (!this.byId.has(id)) this.byId.set(id, fill);
    else this.others.set(FillsById.key(account, contract, side, id), fill);
  }

  private static key(account: string, contract: string, side: Side, id: string): string {
    return `${account}\u0000${contract}\u0000${side}\u0000${id}`;
  }
}

function compareIds(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return 0;
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}
