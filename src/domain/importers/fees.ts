import { Decimal, decimalToCents, type Cents } from '../money';
import { importTags } from '../fills/decorate';
import { isFuturesInstrument, isMicroRoot, parseInstrument } from '../instruments';
import type { TradeSide } from '../trades/side';

/**
 * Commission and fee schedules of trading accounts. Tradovate's Performance, Position History and
 * Orders exports and TopstepX's orders export carry no costs, so their net P&L equals the gross and every net figure
 * a prop firm judges is overstated. Each account has a schedule in dollars per contract per side: one rate for micro
 * contracts, one for the E-minis and other standard contracts, and rates by instrument root that override both. It is
 * applied on import where the file has no costs, and can be applied again to the account's imported trades.
 */
export interface FeeSchedule {
  /** Dollars per contract per side, as decimal strings ("0.62"). */
  micro: string;
  mini: string;
  /** Root -> dollars per contract per side, e.g. { MNQ: "0.52" }. */
  roots: Record<string, string>;
}

/**
 * Typical all-in rates of the prop-firm platforms (exchange, clearing, NFA and commission): TopstepX's own exports
 * charge MNQ $0.37 in fees plus $0.25 commission per contract per side ($0.62); an E-mini costs about $2.14 a side.
 * Traders edit them per account.
 */
export const DEFAULT_FEE_SCHEDULE: FeeSchedule = { micro: '0.62', mini: '2.14', roots: {} };

export const FEE_LIMIT = 1000;

/** A rate as the schedule keeps it: 0 to 1000 dollars, at most 4 decimals; null when it is not one. */
export function parseRate(text: string): Decimal | null {
  if (!/^\d{1,4}(\.\d{1,4})?$/.test(text.trim())) return null;
  const value = new Decimal(text.trim());
  return value.gt(FEE_LIMIT) ? null : value;
}

/** Dollars per contract per side for an instrument (null for stocks and spot crypto, which have no schedule). */
export function ratePerSide(schedule: FeeSchedule, instrument: string): Decimal | null {
  if (!isFuturesInstrument(instrument)) return null;
  const root = parseInstrument(instrument).root;
  const text = schedule.roots[root] ?? (isMicroRoot(root) ? schedule.micro : schedule.mini);
  return parseRate(text) ?? new Decimal(0);
}

/** A round trip's costs: rate x contracts x 2 sides, in cents rounded half up; null when the schedule does not apply. */
export function scheduledCommission(schedule: FeeSchedule, instrument: string, quantity: Decimal | string | null): Cents | null {
  const rate = ratePerSide(schedule, instrument);
  if (rate === null || quantity === null) return null;
  return decimalToCents(rate.times(quantity).times(2));
}

const RESULT_TAGS = new Set(['Winner', 'Loser', 'Breakeven', 'High-Impact', 'Medium-Impact', 'Low-Impact']);

/**
 * The import tags of a trade after its net P&L changed (Winner/Loser/Breakeven and the impact tag
 * follow the net): the result and impact tags are replaced in place, every other tag kept.
 */
export function retagForNet(tags: string[], trade: { netPnl: Cents; symbol: string; session: string; side: TradeSide | null }): string[] {
  const fresh = importTags({ ...trade, entryFills: 1, exitFills: 1 }).filter((tag) => RESULT_TAGS.has(tag));
  const kept = tags.filter((tag) => !RESULT_TAGS.has(tag));
  const at = tags.findIndex((tag) => RESULT_TAGS.has(tag));
  if (at === -1) return [...kept, ...fresh];
  // Result tag where it was (after Imported, Direct-Parse), impact tag at the end as importTags puts it.
  const [result, ...impact] = fresh;
  const before = tags.slice(0, at).filter((tag) => !RESULT_TAGS.has(tag));
  const after = tags.slice(at).filter((tag) => !RESULT_TAGS.has(tag) && tag !== 'Multi-Position');
  const multi = tags.includes('Multi-Position') ? ['Multi-Position'] : [];
  return [...before, result!, ...after, ...impact, ...multi];
}
