import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findStoredRoundTrips, type RoundTrip } from './duplicates';
import { parseImport } from './index';
import { expectPreview } from './testing';

const real = (path: string) => readFileSync(new URL(`../../../../shared/fixtures/brokers/${path}`, import.meta.url), 'utf8');

const trip = (over: Partial<RoundTrip> = {}): RoundTrip => ({
  contract: 'MNQM6',
  side: 'Long',
  quantity: '5',
  entryPrice: '28531.75',
  exitPrice: '28491.75',
  entryTime: '2026-06-10T20:00:05.000Z',
  exitTime: '2026-06-10T20:00:29.000Z',
  minutePrecision: false,
  ...over,
});

describe('round trips already stored from another export', () => {
  it('the same trade from the Orders and the Performance export of one account is recognised', () => {
    const orders = expectPreview(parseImport(real('tradovate-orders/freetradejournal__tradovate-orders-history.csv'))).trades;
    const performance = expectPreview(parseImport(real('tradovate-performance/freetradejournal__tradovate-trades-performance.csv'))).trades;
    const asTrip = (t: (typeof orders)[number]): RoundTrip => ({
      contract: t.contract,
      side: t.side,
      quantity: t.quantity!.toString(),
      entryPrice: t.entryPrice!.toString(),
      exitPrice: t.exitPrice!.toString(),
      entryTime: t.entryTime,
      exitTime: t.exitTime,
      minutePrecision: false,
    });
    // Different keys (order ids vs fill ids), same round trips: both Performance trades are among the six orders.
    expect(new Set(orders.map((t) => t.importKey)).has(performance[0]!.importKey)).toBe(false);
    expect([...findStoredRoundTrips(performance.map(asTrip), orders.map(asTrip))]).toEqual([0, 1]);
    // And the four other orders are new against the Performance export.
    expect(findStoredRoundTrips(orders.map(asTrip), performance.map(asTrip)).size).toBe(2);
  });

  it('stored decimals with trailing zeros compare equal; a different price, quantity, side or second does not', () => {
    const stored = [trip({ quantity: '5.00000000', entryPrice: '28531.75000000', exitPrice: '28491.75000000' })];
    expect(findStoredRoundTrips([trip()], stored).size).toBe(1);
    for (const other of [
      trip({ exitPrice: '28491.5' }),
      trip({ quantity: '4' }),
      trip({ side: 'Short' }),
      trip({ exitTime: '2026-06-10T20:00:30.000Z' }),
      trip({ contract: 'MNQU6' }),
    ]) {
      expect(findStoredRoundTrips([other], stored).size).toBe(0);
    }
  });

  it('against a minute-precision export the times compare to the minute', () => {
    const ninja = trip({ entryTime: '2026-06-10T20:00:00.000Z', exitTime: '2026-06-10T20:00:00.000Z', minutePrecision: true });
    expect(findStoredRoundTrips([trip()], [ninja]).size).toBe(1);
    expect(findStoredRoundTrips([ninja], [trip()]).size).toBe(1);
    expect(findStoredRoundTrips([trip({ exitTime: '2026-06-10T20:01:02.000Z' })], [ninja]).size).toBe(0);
  });

  it('one stored trade answers for one incoming trade: two identical trades in the file, one stored -> one new', () => {
    expect([...findStoredRoundTrips([trip(), trip()], [trip()])]).toEqual([0]);
    expect(findStoredRoundTrips([trip(), trip()], [trip(), trip()]).size).toBe(2);
  });

  it('trips without prices or times (daily P&L rows) are never matched by content', () => {
    const pnl = trip({ entryPrice: null, exitPrice: null, entryTime: null, exitTime: null });
    expect(findStoredRoundTrips([pnl], [pnl]).size).toBe(0);
  });
});
