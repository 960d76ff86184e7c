import { toCents, type Cents } from '../cents';

/**
 * What a trader types into a money box: '1,250.50', '$1,250.50', '-$95', '(95.00)' (accounting negative).
 * Spec part 2 §5: anything non-numeric counts as 0.
 */
export function parseMoneyInput(input: unknown): Cents {
  if (typeof input !== 'string') return toCents(input);
  let text = input.trim().replace(/[\s$,]/g, '');
  const accountingNegative = /^\((.*)\)$/.exec(text);
  if (accountingNegative) text = `-${accountingNegative[1] ?? ''}`;
  text = text.replace(/^([+-]?)\$/, '$1');
  return toCents(text);
}

/** Spec part 2 §5: commission is stored as an absolute value. */
export function parseCommissionInput(input: unknown): Cents {
  return Math.abs(parseMoneyInput(input));
}
