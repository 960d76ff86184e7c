import { parseMoneyInput } from '../trades/money-input';
import { readDecimalField, type FieldRead } from '../trades/trade-execution';
import type { Cents } from '../money';

/** A trade's own plan: a stop price or a dollar risk, never both, and an optional target price. */
export interface TradePlan {
  stopPrice: string | null;
  riskCents: Cents | null;
  targetPrice: string | null;
}

export const NO_PLAN: TradePlan = Object.freeze({ stopPrice: null, riskCents: null, targetPrice: null });

/** The largest dollar risk a trade may carry: the largest amount a trade's money columns hold. */
const MAX_RISK_CENTS = 99_999_999_999;

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Dollars as a trader types them ('$200', '1,250.50'); blank is none. */
export function readRiskAmount(raw: Record<string, unknown>, field: string): FieldRead<Cents | null> {
  const value = raw[field];
  if (isBlank(value)) return { ok: true, value: null };
  if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, field, message: 'must be an amount in dollars' };
  const text = String(value).trim();
  if (!/^\(?[-+]?\$?[\d,]*\.?\d*(e[-+]?\d+)?\)?$/i.test(text) || !/\d/.test(text)) return { ok: false, field, message: 'must be an amount in dollars' };
  const cents = parseMoneyInput(text);
  if (!(cents > 0)) return { ok: false, field, message: 'must be more than 0' };
  if (cents > MAX_RISK_CENTS) return { ok: false, field, message: 'must be at most 999,999,999.99' };
  return { ok: true, value: cents };
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
