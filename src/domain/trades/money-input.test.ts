import { describe, expect, it } from 'vitest';
import { isMoneyTyping, parseCommissionInput, parseMoneyInput } from './money-input';

describe('money typed into the form', () => {
  it('reads thousands separators, dollar signs and accounting negatives', () => {
    expect(parseMoneyInput('1,250.50')).toBe(125050);
    expect(parseMoneyInput('$1,250.50')).toBe(125050);
    expect(parseMoneyInput('-$95')).toBe(-9500);
    expect(parseMoneyInput('(95.00)')).toBe(-9500);
    expect(parseMoneyInput(' 12.345 ')).toBe(1235);
    expect(parseMoneyInput(42.1)).toBe(4210);
  });

  it('counts non-numeric input as 0', () => {
    expect(parseMoneyInput('abc')).toBe(0);
    expect(parseMoneyInput('')).toBe(0);
    expect(parseMoneyInput('-')).toBe(0);
    expect(parseMoneyInput(null)).toBe(0);
    expect(parseMoneyInput({})).toBe(0);
  });

  it('stores commission as an absolute value', () => {
    expect(parseCommissionInput('-4.28')).toBe(428);
    expect(parseCommissionInput('4.28')).toBe(428);
    expect(parseCommissionInput('n/a')).toBe(0);
  });

  it('lets through what a money box may hold while it is typed, and no letters', () => {
    for (const text of ['', '-', '+', '(', '$', '-$', '12', '12.', '12.5', '1,250.50', '-$95', '(95.00)', ' 7 '])
      expect(isMoneyTyping(text), text).toBe(true);
    for (const text of ['abc', '12a', '1e5', '12.5.1', '$-5', 'n/a']) expect(isMoneyTyping(text), text).toBe(false);
  });
});
