import { describe, expect, it } from 'vitest';
import { niceScale } from './chart-scale';

describe("the prop chart's axis on round values", () => {
  it('a balance between $47,823 and $53,000 with a $48,000 threshold: $1,000 steps from $47,000 to $53,000', () => {
    expect(niceScale([47_823, 48_000, 53_000, 50_000])).toEqual({
      min: 47_000,
      max: 53_000,
      step: 1_000,
      ticks: [47_000, 48_000, 49_000, 50_000, 51_000, 52_000, 53_000],
    });
  });

  it('a narrow range ($50,012.50 to $50,391) steps by $100; a flat line still gets an axis', () => {
    expect(niceScale([50_012.5, 50_391])).toMatchObject({ min: 50_000, max: 50_400, step: 100 });
    const flat = niceScale([50_000]);
    expect(flat.ticks.length).toBeGreaterThan(1);
    expect(flat.ticks.every((t) => t % flat.step === 0)).toBe(true);
  });
});
