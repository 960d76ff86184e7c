import { MAX_MONEY_CENTS } from '../cents';
import { parseMoneyInput } from '../trades/money-input';
import { readDecimalField, type FieldRead, type ValueRead } from '../trades/trade-execution';
import type { Cents } from '../money';

/** A trade's own plan: a stop price or a dollar risk, never both, and an optional target price. */
export interface TradePlan {
  stopPrice: string | null;
  riskCents: Cents | null;
  targetPrice: string | null;
}

export const NO_PLAN: TradePlan = Object.freeze({ stopPrice: null, riskCents: null, targetPrice: null });

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Dollars as a trader types them ('$200', '1,250.50'), more than 0 and at most the largest amount of money stored; blank
 * is none. A positive amount under a cent rounds to none, which a planned risk must not be.
 */
export function readDollarAmount(value: unknown): ValueRead<Cents | null> {
  if (isBlank(value)) return { ok: true, value: null };
  if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, message: 'must be an amount in dollars' };
  const text = String(value).trim();
  if (!/^\(?[-+]?\$?[\d,]*\.?\d*(e[-+]?\d+)?\)?$/i.test(text) || !/\d/.test(text)) return { ok: false, message: 'must be an amount in dollars' };
  const cents = parseMoneyInput(text);
  if (!(cents > 0)) {
    // A positive amount under a cent is stored as none: said as such, not as a negative one.
    const negativeOrZero = /^[-(]/.test(text) || !/[1-9]/.test(text.replace(/e.*$/i, ''));
    return { ok: false, message: negativeOrZero ? 'must be more than 0' : 'must be at least 0.01' };
  }
  if (cents > MAX_MONEY_CENTS) return { ok: false, message: 'must be at most 999,999,999.99' };
  return { ok: true, value: cents };
}

/** A dollar amount field of raw input (readDollarAmount); blank is none. */
export function readRiskAmount(raw: Record<string, unknown>, field: string): FieldRead<Cents | null> {
  const read = readDollarAmount(raw[field]);
  return read.ok ? read : { ok: false, field, message: read.message };
}

/**
 * The plan from raw input (stop_price, risk_amount, target_price), or the first field that is wrong. A stop and a
 * dollar risk together are refused: which one would the R-multiple use?
 */
export function readTradePlan(raw: Record<string, unknown>): FieldRead<TradePlan> {
  const stop = readDecimalField(raw, 'stop_price');
  if (!stop.ok) return stop;
  const risk = readRiskAmount(raw, 'risk_amount');
  if (!risk.ok) return risk;
  const target = readDecimalField(raw, 'target_price');
  if (!target.ok) return target;
  if (stop.value !== null && risk.value !== null) {
    return { ok: false, field: 'risk_amount', message: 'give either a stop_price or a risk_amount, not both' };
  }
  return { ok: true, value: { stopPrice: stop.value, riskCents: risk.value, targetPrice: target.value } };
}
