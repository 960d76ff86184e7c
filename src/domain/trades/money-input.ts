import { toCents, type Cents } from '../cents';

/**
 * What a trader types into a money box: '1,250.50', '$1,250.50', '-$95', '(95.00)' (accounting negative).
 * Anything non-numeric counts as 0.
 */
export function parseMoneyInput(input: unknown): Cents {
  if (typeof input !== 'string') return toCents(input);
  let text = input.trim().replace(/[\s$,]/g, '');
  const accountingNegative = /^\((.*)\)$/.exec(text);
  if (accountingNegative) text = `-${accountingNegative[1] ?? ''}`;
  text = text.replace(/^([+-]?)\$/, '$1');
  return toCents(text);
}

/** Commission is stored as an absolute value. */
export function parseCommissionInput(input: unknown): Cents {
  return Math.abs(parseMoneyInput(input));
}

/**
 * What a money box lets through as the trader types: a sign or accounting bracket, '$', digits, commas, one point.
 * Letters never reach the amount ('abc' was accepted and saved as 0).
 */
const MONEY_TYPING = /^[-+(]?\$?[\d,]*(\.\d*)?\)?$/;

export function isMoneyTyping(text: string): boolean {
  return MONEY_TYPING.test(text.trim());
}

/** An amount as a money box shows it back: '0', '125', '-95.50' (whole dollars without decimals). */
export function formatMoneyInput(cents: Cents): string {
  if (cents % 100 === 0) return String(cents / 100 + 0);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
