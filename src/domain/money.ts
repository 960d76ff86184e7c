import Decimal from 'decimal.js';
import type { Cents } from './cents';

/**
 * Money is held as integer cents: sums of any number of trades are exact, and 0.1 + 0.2 prints 0.30.
 * Prices and quantities (which may carry more decimals, e.g. crypto) go through Decimal and are rounded
 * to cents only when they become money.
 */
export { formatAxisUsd, formatMoney, formatUsd, MAX_MONEY_CENTS, MONEY_RANGE_MESSAGE, toCents, type Cents } from './cents';

export { Decimal };

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Parses a decimal string or number into a Decimal; anything non-numeric is null. */
export function parseDecimal(input: unknown): Decimal | null {
  if (typeof input === 'number') return Number.isFinite(input) ? new Decimal(input) : null;
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (!NUMERIC.test(text)) return null;
  return new Decimal(text);
}

/**
 * One Decimal for every plain number with the same text read lately. A large export repeats its quantities and, on a
 * tick grid, its prices, and every trade of a root has the same point value: 100,000 fills hold a few thousand
 * distinct values, so most need no new Decimal (the import's parse time and memory). Decimals are immutable, so one
 * instance can stand for all. Emptied when full.
 */
export function sharedDecimal(text: string): Decimal {
  let value = sharedDecimals.get(text);
  if (value === undefined) {
    if (sharedDecimals.size >= SHARED_DECIMALS) sharedDecimals.clear();
    value = new Decimal(text);
    sharedDecimals.set(text, value);
  }
  return value;
}
const sharedDecimals = new Map<string, Decimal>();
const SHARED_DECIMALS = 4_096;

/** A stored decimal as a trader would write it: '18250.25000000' -> '18250.25', '3.00000000' -> '3'. */
export function trimDecimalZeros(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

export function decimalToCents(value: Decimal): Cents {
  return value.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber() + 0;
}

/**
 * The exact decimal string PostgreSQL `numeric` accepts and returns, e.g. -1250 -> "-12.50". Integer arithmetic on the
 * cents (exact for every safe integer), since an import formats three amounts per trade for 36,000 trades.
 */
export function centsToDecimalString(cents: Cents): string {
  if (!Number.isSafeInteger(cents)) return new Decimal(cents).dividedBy(100).toFixed(2);
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const rest = abs - units * 100;
  return `${cents < 0 ? '-' : ''}${units}.${rest < 10 ? '0' : ''}${rest}`;
}

export function sumCents(values: Iterable<Cents>): Cents {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
