import { describe, expect, it } from 'vitest';
import { giveBackMemory } from '../../src/server/memory';

/** About what a 10,000-trade file leaves behind: rows as objects, garbage once the import answered. */
function leaveGarbage(): number {
  const rows = Array.from({ length: 300_000 }, (_, i) => ({ id: `t-${i}`, pnl: `${i}.25`, notes: `row ${i}` }));
  return rows.length + process.memoryUsage().heapUsed * 0;
}

describe('giving memory back after the imports', () => {
  it('collects the garbage a large import leaves on the heap', () => {
    expect(leaveGarbage()).toBe(300_000);
    const before = process.memoryUsage().heapUsed;
    giveBackMemory();
    giveBackMemory(); // a second call reuses the collector
    const after = process.memoryUsage().heapUsed;
    expect(before - after, `heap used ${before} before, ${after} after`).toBeGreaterThan(20 * 1024 * 1024);
  });
});
