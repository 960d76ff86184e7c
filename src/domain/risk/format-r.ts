/**
 * R-multiples as the screens write them. Apart from planned-risk.ts on purpose: a screen that only shows R (the
 * dashboard, the Trade Log's rows) loads this, not the Decimal arithmetic that prices a plan.
 */

/** '+1.25R', '-0.50R', '0.00R': two decimals, the sign always shown but for zero. */
export function formatR(r: number): string {
  // Half away from zero, as money rounds: -0.125R reads -0.13R. The product is trimmed to 12 digits first, so that
  // 1.005 (1.00499999... in binary) reads +1.01R as written.
  const rounded = (Math.sign(r) * Math.round(Number((Math.abs(r) * 100).toPrecision(12)))) / 100 + 0;
  const text = Math.abs(rounded).toFixed(2);
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : ''}${text}R`;
}

/** "12 trades without a planned risk": said wherever R is shown, so an R figure is never taken for all the trades. */
export function describeWithoutRisk(count: number): string {
  return `${count} trade${count === 1 ? '' : 's'} without a planned risk`;
}

/** "12 of 40 trades have no planned risk": what a figure in R of these trades leaves out (never counted as 0R). */
export function describeLeftOutOfR(withoutRisk: number, trades: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  return `${count(withoutRisk)} of ${count(trades)} trade${trades === 1 ? '' : 's'} ${withoutRisk === 1 ? 'has' : 'have'} no planned risk`;
}

/** A phone's calendar cell: '+1.5R', '-0.3R', '+12R' (one decimal under 10R, whole from there), half away from zero. */
export function formatCompactR(r: number): string {
  const digits = Math.abs(r) < 9.95 ? 1 : 0;
  const scale = 10 ** digits;
  const rounded = (Math.sign(r) * Math.round(Number((Math.abs(r) * scale).toPrecision(12)))) / scale + 0;
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : ''}${Math.abs(rounded).toFixed(digits)}R`;
}
