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

/** numeric(24,8) holds 16 digits before the point; more was a database error (a 500). */
const MAX_INTEGER_DIGITS = 16;

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A price or quantity: a decimal number or its text, within numeric(24,8); blank is none. */
export function readDecimalField(raw: Record<string, unknown>, field: string, options: { positive?: boolean } = {}): FieldRead<string | null> {
  const value = raw[field];
  if (isBlank(value)) return { ok: true, value: null };
  const parsed: Decimal | null = parseDecimal(typeof value === 'string' ? value.replace(/,/g, '') : value);
  if (!parsed || !parsed.isFinite()) return { ok: false, field, message: 'must be a number' };
  if (parsed.abs().gte(`1e${MAX_INTEGER_DIGITS}`)) return { ok: false, field, message: `must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point` };
  if (options.positive && parsed.lte(0)) return { ok: false, field, message: 'must be more than 0' };
  // numeric(24,8) keeps 8 decimals: what is stored is what is read back.
  return { ok: true, value: parsed.toDecimalPlaces(8).toFixed() };
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
