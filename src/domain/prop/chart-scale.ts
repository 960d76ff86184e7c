/**
 * An axis on round values for a prop account's chart: a step of 1, 2, 2.5 or 5 times a power of ten, and bounds on
 * whole steps around every value (at most `maxSteps` of them), so the ticks read $48,000, $49,000, ... rather than
 * $47,823.
 */
export function niceScale(values: readonly number[], maxSteps = 6): { min: number; max: number; step: number; ticks: number[] } {
  const finite = values.filter(Number.isFinite);
  let low = finite.length > 0 ? Math.min(...finite) : 0;
  let high = finite.length > 0 ? Math.max(...finite) : 1;
  if (low === high) {
    const pad = Math.max(1, Math.abs(low) * 0.01);
    low -= pad;
    high += pad;
  }
  const raw = (high - low) / Math.max(1, maxSteps);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const min = Math.floor(low / step) * step;
  const max = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let v = min; v <= max + step / 2; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return { min, max, step, ticks };
}
