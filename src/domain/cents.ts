/**
 * Money as integer cents and its display, without decimal.js: what a screen that only shows figures needs (the
 * dashboard's first render loads this, not the Decimal arithmetic of ./money).
 */
export type Cents = number;

/**
 * The largest amount of money a trade, a plan or an account carries: far beyond any real one, small enough that sums
 * of 100,000 of them stay exact integers in JavaScript, and within the numeric(16,2) columns that store money.
 */
export const MAX_MONEY_CENTS = 99_999_999_999;
/** How a field beyond it is refused. */
export const MONEY_RANGE_MESSAGE = 'must be between -999,999,999.99 and 999,999,999.99';

/** A decimal number as text: sign, integer digits, fraction digits, exponent. */
const NUMERIC = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/**
 * Non-numeric pnl or commission input counts as 0. Rounds half away from zero to the cent, exactly:
 * the digits are shifted by the exponent and rounded as text (what decimal.js computed before, without loading it).
 */
export function toCents(input: unknown): Cents {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : typeof input === 'string' ? input.trim() : '';
  const match = NUMERIC.exec(text);
  if (!match) return 0;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (!whole && !fraction) return 0;
  const digits = (whole + fraction).replace(/^0+/, '');
  if (!digits) return 0;
  // Where the cents' decimal point falls in `digits` (the value times 100).
  const point = whole.length - (whole + fraction).length + digits.length + Number(exponent) + 2;
  // Beyond any finite double: as Number() of the exact value would give.
  if (point > 400) return sign === '-' ? -Infinity : Infinity;
  const units = point <= 0 ? 0n : BigInt(digits.slice(0, point).padEnd(point, '0'));
  const roundUp = point >= 0 && point < digits.length && digits.charCodeAt(point) >= 53; // '5'
  const cents = Number(units + (roundUp ? 1n : 0n));
  return (sign === '-' ? -cents : cents) + 0;
}

/** "$1,234.56" / "-$12.50": the product is shown in USD. */
export function formatUsd(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = groupThousands(Math.trunc(abs / 100));
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}$${dollars}.${rest}`;
}

/**
 * An amount in its account's currency: "$1,234.56" in USD, "1,234.56 USDT" or "-12.50 USDC" in an exchange's settlement
 * currency, which is not the dollar and is never written with a '$'.
 */
export function formatMoney(cents: Cents, currency = 'USD'): string {
  if (currency === 'USD') return formatUsd(cents);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${groupThousands(Math.trunc(abs / 100))}.${String(abs % 100).padStart(2, '0')} ${currency}`;
}

/**
 * An amount on a chart's axis: '$30,000' when it is whole dollars, as axis steps are, else '$10,000.50'. The cents of
 * '$30,000.00' made the label wider than the axis, and the '$' was cut.
 */
export function formatAxisUsd(cents: Cents): string {
  return cents % 100 === 0 ? formatUsd(cents).slice(0, -3) : formatUsd(cents);
}

/**
 * 1234567 -> "1,234,567", as toLocaleString('en-US') writes it. By hand: the first toLocaleString of a page builds an
 * ICU number formatter, ~90 ms of a page load's main thread on a slow machine, for a comma every three
 * digits. Beyond exact integers (never a real amount) the formatter still decides.
 */
export function groupThousands(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${grouped}` : grouped;
}
