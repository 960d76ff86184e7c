import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupThousands } from './cents';
import { centsToDecimalString, decimalToCents, formatAxisUsd, formatUsd, parseDecimal, sumCents, toCents } from './money';

describe('money as integer cents', () => {
  it('0.1 + 0.2 is exactly 0.30', () => {
    expect(centsToDecimalString(sumCents([toCents('0.1'), toCents('0.2')]))).toBe('0.30');
  });

  it('a thousand trades of 0.01 sum to exactly 10.00', () => {
    expect(centsToDecimalString(sumCents(Array.from({ length: 1000 }, () => toCents(0.01))))).toBe('10.00');
  });

  it('non-numeric input counts as 0', () => {
    expect(toCents('abc')).toBe(0);
    expect(toCents('')).toBe(0);
    expect(toCents(undefined)).toBe(0);
    expect(toCents(Number.NaN)).toBe(0);
  });

  it('rounds half away from zero to the cent', () => {
    expect(toCents('1.005')).toBe(101);
    expect(toCents('-1.005')).toBe(-101);
    expect(toCents('-0.001')).toBe(0);
    expect(Object.is(toCents('-0.001'), -0)).toBe(false);
  });

  it('reads exponents, bare points and signs as decimal.js does', () => {
    expect([
      toCents('1e2'),
      toCents('-2.5E-1'),
      toCents('.5'),
      toCents('5.'),
      toCents('+0.995'),
      toCents('.'),
      toCents('1e'),
      toCents('0e999999'),
    ]).toEqual([10000, -25, 50, 500, 100, 0, 0, 0]);
    expect(toCents(1e400)).toBe(0);
    expect(toCents('1e400')).toBe(Infinity);
  });

  // ToCents rounds without decimal.js (the dashboard's first render does not load it); it must agree
  // with the Decimal arithmetic exactly, for numbers and for any decimal text.
  it('agrees with decimal.js on any number or decimal text', () => {
    const reference = (input: unknown) => {
      const value = parseDecimal(input);
      return value === null ? 0 : decimalToCents(value);
    };
    const text = fc
      .tuple(
        fc.constantFrom('', '-', '+'),
        fc.stringMatching(/^\d{0,20}$/),
        fc.option(fc.stringMatching(/^\d{0,12}$/)),
        fc.option(fc.integer({ min: -30, max: 30 })),
      )
      .map(([sign, whole, fraction, exp]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exp === null ? '' : `e${exp}`}`);
    fc.assert(
      fc.property(fc.oneof(text, fc.double(), fc.integer()), (input) => {
        expect(toCents(input)).toBe(reference(input));
      }),
      { numRuns: 2000 },
    );
  });

  it('formats USD with thousands separators and sign', () => {
    expect(formatUsd(123456)).toBe('$1,234.56');
    expect(formatUsd(-1250)).toBe('-$12.50');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(99999)).toBe('$999.99');
    expect(formatUsd(100000)).toBe('$1,000.00');
    expect(formatUsd(-123456789012)).toBe('-$1,234,567,890.12');
  });

  it("writes a chart axis's whole-dollar steps without cents, and any other amount whole", () => {
    expect(formatAxisUsd(3_000_000)).toBe('$30,000');
    expect(formatAxisUsd(-200_000)).toBe('-$2,000');
    expect(formatAxisUsd(0)).toBe('$0');
    expect(formatAxisUsd(1_000_050)).toBe('$10,000.50');
    expect(formatAxisUsd(-5)).toBe('-$0.05');
  });
});

describe('centsToDecimalString', () => {
  it('writes cents as PostgreSQL numeric text, exactly, for any safe integer', () => {
    expect([0, 5, -5, 100, -1250, 123456789, -100, Number.MAX_SAFE_INTEGER].map(centsToDecimalString)).toEqual([
      '0.00',
      '0.05',
      '-0.05',
      '1.00',
      '-12.50',
      '1234567.89',
      '-1.00',
      '90071992547409.91',
    ]);
  });
});

describe('groupThousands', () => {
  it("writes commas as toLocaleString('en-US') does, for every digit count and sign", () => {
    for (const value of [0, 7, 12, 123, 1234, 12345, 123456, 1234567, 1000000, 9007199254740991, -1, -999, -1000, -1234567]) {
      expect(groupThousands(value), String(value)).toBe(value.toLocaleString('en-US'));
    }
  });
});
