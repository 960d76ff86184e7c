import { parseInstant } from '../dates/instant';
import { parseDecimal, type Decimal } from '../money';
import { readTradeSide, type TradeSide } from './side';

/**
 * A trade's execution as a trader types it into the Add/Edit Trade dialog or an API client sends it: side,
 * quantity, entry and exit prices and times, all optional. Imports have their own reading of a broker's file; this is
 * the hand-written path, and every refusal names the API's field.
 */
export interface TradeExecution {
  side: TradeSide | null;
  /** Exact decimal text, as numeric(24,8) stores it. */
  quantity: string | null;
  entryPrice: string | null;
  exitPrice: string | null;
  /** ISO-8601 UTC. */
  entryTime: string | null;
  exitTime: string | null;
}

export type FieldRead<T> = { ok: true; value: T } | { ok: false; field: string; message: string };
/** A value read on its own: the field it came from adds its name. */
export type ValueRead<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Prices, quantities and points are stored as numeric(24,8): 16 digits before the point, 8 after. More digits before
 * the point were a database error (a 500); a positive amount smaller than the 8th decimal is stored as 0, which a
 * stop distance or a quantity must not be (the database's checks refused it, a 500 too).
 */
export const DECIMAL_INTEGER_DIGITS = 16;
export const DECIMAL_PLACES = 8;

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A price, quantity or number of points (a number, or its text with or without thousands commas) as it will be stored; blank is none. */
export function readStoredDecimal(value: unknown, options: { positive?: boolean } = {}): ValueRead<string | null> {
  if (isBlank(value)) return { ok: true, value: null };
  const parsed: Decimal | null = parseDecimal(typeof value === 'string' ? value.replace(/,/g, '') : value);
  if (!parsed || !parsed.isFinite()) return { ok: false, message: 'must be a number' };
  if (parsed.abs().gte(`1e${DECIMAL_INTEGER_DIGITS}`))
    return { ok: false, message: `must have at most ${DECIMAL_INTEGER_DIGITS} digits before the decimal point` };
  // What is stored is what is read back: the 8th decimal rounded.
  const stored = parsed.toDecimalPlaces(DECIMAL_PLACES);
  if (options.positive && stored.lte(0)) return { ok: false, message: parsed.gt(0) ? 'must be at least 0.00000001' : 'must be more than 0' };
  return { ok: true, value: stored.isZero() ? '0' : stored.toFixed() };
}

/** A price or quantity field of raw input, within numeric(24,8); blank is none. */
export function readDecimalField(raw: Record<string, unknown>, field: string, options: { positive?: boolean } = {}): FieldRead<string | null> {
  const read = readStoredDecimal(raw[field], options);
  return read.ok ? read : { ok: false, field, message: read.message };
}

function readTime(raw: Record<string, unknown>, field: string): FieldRead<string | null> {
  const value = raw[field];
  if (isBlank(value)) return { ok: true, value: null };
  const ms = parseInstant(value);
  if (ms === null) return { ok: false, field, message: 'must be an ISO timestamp with a time zone, e.g. 2025-03-03T14:35:00Z' };
  return { ok: true, value: new Date(ms).toISOString() };
}

/**
 * Side, quantity, prices and times from raw input (the API's snake_case names), or the first field that is wrong. The
 * side reads Long/Short in any case, and Buy/Sell as brokers write them; an exit before the entry is refused.
 */
export function readTradeExecution(raw: Record<string, unknown>): FieldRead<TradeExecution> {
  let side: TradeSide | null = null;
  if (!isBlank(raw.side)) {
    side = readTradeSide(raw.side);
    if (side === null) return { ok: false, field: 'side', message: 'must be Long or Short' };
  }
  const quantity = readDecimalField(raw, 'quantity', { positive: true });
  if (!quantity.ok) return quantity;
  const entryPrice = readDecimalField(raw, 'entry_price');
  if (!entryPrice.ok) return entryPrice;
  const exitPrice = readDecimalField(raw, 'exit_price');
  if (!exitPrice.ok) return exitPrice;
  const entryTime = readTime(raw, 'entry_time');
  if (!entryTime.ok) return entryTime;
  const exitTime = readTime(raw, 'exit_time');
  if (!exitTime.ok) return exitTime;
  if (entryTime.value && exitTime.value && exitTime.value < entryTime.value) {
    return { ok: false, field: 'exit_time', message: 'must not be before entry_time' };
  }
  return {
    ok: true,
    value: {
      side,
      quantity: quantity.value,
      entryPrice: entryPrice.value,
      exitPrice: exitPrice.value,
      entryTime: entryTime.value,
      exitTime: exitTime.value,
    },
  };
}
