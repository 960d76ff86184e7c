import { buildTrades } from './build-trades';
import { parseInstrument } from '../instruments';
import type { Fill, TradeFill } from './types';
import type { TradeSide } from '../trades/side';
import { Decimal, decimalToCents, MAX_MONEY_CENTS, parseDecimal, type Cents } from '../money';

/**
 * A manual trade's fills: the trader adds, edits and removes them on the trade page, and the
 * trade's side, quantity, average prices, times and gross P&L follow from them by the same FIFO rule as an import
 * (build-trades.ts), so a trade typed by hand and the same trade imported read alike. The fills must make exactly one
 * round trip: from flat back to flat, never flat in between.
 */

export interface FillInput {
  /** Epoch ms. */
  time: number;
  side: 'Buy' | 'Sell';
  quantity: string | number;
  price: string | number;
  /** Dollars; null or absent when the trader does not give them. */
  commission?: string | number | null;
}

export interface RoundTrip {
  side: TradeSide;
  quantity: Decimal;
  entryPrice: Decimal;
  exitPrice: Decimal;
  entryTime: number;
  exitTime: number;
  grossPnlCents: Cents;
  /** The commissions the fills give, added up; null when no fill gives one (the trade keeps its own). */
  commissionCents: Cents | null;
  /** The fills as stored, in the order traded. */
  fills: TradeFill[];
}

export type RoundTripResult = { ok: true; trip: RoundTrip } | { ok: false; field: string; message: string };

/** Prices and quantities as the database holds them: 16 digits before the point, 8 after. */
const LIMIT = new Decimal('1e16');

function readNumber(value: string | number | null | undefined): Decimal | null {
  if (value === null || value === undefined) return null;
  return parseDecimal(typeof value === 'string' ? value.trim() : value);
}

/**
 * The round trip a manual trade's fills make, or what is wrong with them (`field` names the fill as fills.N.field, N
 * from 0 in the order given). `instrument` is the trade's contract or symbol: its point value prices the trade.
 */
export function roundTripFromFills(inputs: readonly FillInput[], instrument: string): RoundTripResult {
  if (inputs.length < 2) return { ok: false, field: 'fills', message: 'fills: a round trip needs at least an entry and an exit fill' };
  const parsed = parseInstrument(instrument);
  const fills: Fill[] = [];
  const withCommission = new Set<string>();
  for (const [index, input] of inputs.entries()) {
    const at = `fills.${index}`;
    const quantity = readNumber(input.quantity);
    if (quantity === null || !quantity.gt(0) || quantity.gte(LIMIT) || quantity.decimalPlaces() > 8) {
      return { ok: false, field: `${at}.quantity`, message: `${at}.quantity: must be a positive number with at most 8 decimals` };
    }
    const price = readNumber(input.price);
    if (price === null || price.abs().gte(LIMIT) || price.decimalPlaces() > 8) {
      return { ok: false, field: `${at}.price`, message: `${at}.price: must be a number with at most 8 decimals` };
    }
    let commission: Cents = 0;
    if (input.commission !== null && input.commission !== undefined && String(input.commission).trim() !== '') {
      const amount = readNumber(input.commission);
      if (amount === null || amount.lt(0) || amount.gte(1e9))
        return { ok: false, field: `${at}.commission`, message: `${at}.commission: must be an amount of 0 or more` };
      commission = decimalToCents(amount);
      withCommission.add(String(index));
    }
    if (!Number.isFinite(input.time)) return { ok: false, field: `${at}.time`, message: `${at}.time: must be a time` };
    // The id traces each stored fill back to the one given (one round trip: FIFO splits none of them).
    fills.push({
      rows: [index],
      account: '',
      contract: parsed.contract,
      root: parsed.root,
      side: input.side,
      quantity,
      price,
      time: input.time,
      commission,
      seq: index,
      id: String(index),
    });
  }
  const built = buildTrades(fills);
  if (built.issues.some((issue) => issue.severity === 'error')) {
    const issue = built.issues.find((i) => i.severity === 'error')!;
    return { ok: false, field: `fills.${issue.row}`, message: `fills.${issue.row}: ${issue.message}` };
  }
  if (built.openPositions.length > 0) {
    const open = built.openPositions[0]!;
    return {
      ok: false,
      field: 'fills',
      message: `fills: ${open.quantity.toFixed()} ${open.quantity.eq(1) ? 'contract is' : 'contracts are'} still open after the last fill; add the fills that close the position`,
    };
  }
  if (built.trades.length !== 1) {
    const first = built.trades[0]!;
    const flatAt = inputs.findIndex((input) => input.time === Date.parse(first.exitTime!));
    return {
      ok: false,
      field: 'fills',
      message: `fills: the position is flat after the fill at ${first.exitTime}${flatAt >= 0 ? ` (fill ${flatAt + 1})` : ''} and opens again: the fills of one trade go from flat to flat once; enter the rest as another trade`,
    };
  }
  const trade = built.trades[0]!;
  // Prices and quantities each within what is stored can still make a P&L no money column holds (a price of 1e15).
  if (!(Math.abs(trade.grossPnl) <= MAX_MONEY_CENTS) || !(Math.abs(trade.commission) <= MAX_MONEY_CENTS)) {
    return {
      ok: false,
      field: 'fills',
      message: 'fills: the trade they make would have a P&L or commission beyond $999,999,999.99; check their prices and quantities',
    };
  }
  return {
    ok: true,
    trip: {
      side: trade.side!,
      quantity: trade.quantity!,
      entryPrice: trade.entryPrice!,
      exitPrice: trade.exitPrice!,
      entryTime: Date.parse(trade.entryTime!),
      exitTime: Date.parse(trade.exitTime!),
      grossPnlCents: trade.grossPnl,
      commissionCents: withCommission.size > 0 ? trade.commission : null,
      // A fill given without costs keeps none (null), beside fills that have theirs.
      fills: (trade.fills ?? []).map(({ id, ...fill }) => ({ ...fill, commission: withCommission.has(id!) ? fill.commission : null })),
    },
  };
}
