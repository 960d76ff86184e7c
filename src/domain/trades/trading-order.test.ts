import { describe, expect, it } from 'vitest';
import { compareTradingOrder, instantMicros, sortByTradingOrder, type TradingOrderFields } from './trading-order';

const ids = (trades: Array<TradingOrderFields & { name: string }>) => sortByTradingOrder(trades).map((t) => t.name);

describe('the trading order', () => {
  it('orders by the trading day first, whatever the times say', () => {
    expect(
      ids([
        { name: 'tue', tradeDate: '2025-06-10', entryTime: '2025-06-10T13:31:00Z', createdAt: '2025-06-01T00:00:00Z' },
        // entered Monday 18:30 New York time, filed under Tuesday's session by the exchange rule: after Monday's trades
        { name: 'mon-evening', tradeDate: '2025-06-10', entryTime: '2025-06-09T22:30:00Z', createdAt: '2025-06-01T00:00:00Z' },
        { name: 'mon', tradeDate: '2025-06-09', entryTime: '2025-06-09T19:00:00Z', createdAt: '2025-06-20T00:00:00Z' },
      ]),
    ).toEqual(['mon', 'mon-evening', 'tue']);
  });

  it('within a day, by entry time, not by when the rows were written (one import shares one creation time)', () => {
    const created = '2025-06-11T08:00:00.000000Z';
    expect(
      ids([
        {
          name: '11:07',
          tradeDate: '2025-06-10',
          entryTime: '2025-06-10T15:07:00Z',
          exitTime: '2025-06-10T15:10:00Z',
          createdAt: created,
          id: '00000000-0000-4000-8000-000000000001',
        },
        {
          name: '13:38',
          tradeDate: '2025-06-10',
          entryTime: '2025-06-10T17:38:00Z',
          exitTime: '2025-06-10T17:40:00Z',
          createdAt: created,
          id: '00000000-0000-4000-8000-000000000002',
        },
        {
          name: '12:39',
          tradeDate: '2025-06-10',
          entryTime: '2025-06-10T16:39:00Z',
          exitTime: '2025-06-10T16:45:00Z',
          createdAt: created,
          id: '00000000-0000-4000-8000-000000000003',
        },
        {
          name: '10:47',
          tradeDate: '2025-06-10',
          entryTime: '2025-06-10T14:47:00Z',
          exitTime: '2025-06-10T14:50:00Z',
          createdAt: created,
          id: '00000000-0000-4000-8000-000000000004',
        },
      ]),
    ).toEqual(['10:47', '11:07', '12:39', '13:38']);
  });

  it('the same entry: the earlier exit first; a trade with only an exit time is placed by it', () => {
    expect(
      ids([
        { name: 'long-hold', tradeDate: '2025-06-10', entryTime: '2025-06-10T14:30:00Z', exitTime: '2025-06-10T14:45:00Z' },
        { name: 'exit-only', tradeDate: '2025-06-10', exitTime: '2025-06-10T14:35:00Z' },
        { name: 'scalp', tradeDate: '2025-06-10', entryTime: '2025-06-10T14:30:00Z', exitTime: '2025-06-10T14:31:00Z' },
      ]),
    ).toEqual(['scalp', 'long-hold', 'exit-only']);
  });

  it('manual trades (no times) keep their creation order, and fall among timed trades by it', () => {
    expect(
      ids([
        { name: 'second', tradeDate: '2025-06-10', createdAt: '2025-06-10T16:00:00Z', id: 'ffffffff-0000-4000-8000-000000000000' },
        { name: 'imported', tradeDate: '2025-06-10', entryTime: '2025-06-10T15:00:00Z', createdAt: '2025-06-11T09:00:00Z' },
        { name: 'first', tradeDate: '2025-06-10', createdAt: '2025-06-10T14:00:00Z', id: '00000000-0000-4000-8000-000000000000' },
      ]),
    ).toEqual(['first', 'imported', 'second']);
  });

  it('creation times a microsecond apart (a restored backup) are apart; the id breaks a full tie, as PostgreSQL orders uuids', () => {
    expect(
      ids([
        { name: 'b', tradeDate: '2025-06-10', createdAt: '2025-06-10 14:00:00.000002+00' },
        { name: 'a', tradeDate: '2025-06-10', createdAt: '2025-06-10T14:00:00.000001Z' },
      ]),
    ).toEqual(['a', 'b']);
    const created = '2025-06-10T14:00:00Z';
    expect(
      ids([
        { name: 'upper', tradeDate: '2025-06-10', createdAt: created, id: 'B0000000-0000-4000-8000-000000000000' },
        { name: 'lower', tradeDate: '2025-06-10', createdAt: created, id: 'a0000000-0000-4000-8000-000000000000' },
      ]),
    ).toEqual(['lower', 'upper']);
  });

  it('keys a caller did not pass compare equal, so the input order stays (a stable sort)', () => {
    expect(
      ids([
        { name: 'x', tradeDate: '2025-06-10' },
        { name: 'y', tradeDate: '2025-06-10' },
      ]),
    ).toEqual(['x', 'y']);
    expect(compareTradingOrder({ tradeDate: '2025-06-10', createdAt: 'later' }, { tradeDate: '2025-06-10', createdAt: '2025-06-10T00:00:00Z' })).toBe(
      0,
    );
  });

  it('reads ISO and PostgreSQL timestamps to the microsecond, with their offsets', () => {
    expect(instantMicros('2025-06-10T14:00:00Z')).toBe(Date.UTC(2025, 5, 10, 14) * 1000);
    expect(instantMicros('2025-06-10 10:00:00.000007-04')).toBe(Date.UTC(2025, 5, 10, 14) * 1000 + 7);
    expect(instantMicros('2025-06-10 19:30:00.5+05:30')).toBe(Date.UTC(2025, 5, 10, 14) * 1000 + 500_000);
    expect(instantMicros('yesterday')).toBeNull();
  });
});
