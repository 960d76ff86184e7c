import { describe, expect, it } from 'vitest';
import { Decimal } from '../money';
import { bracketStopOf, type OrderForStop } from './bracket-stop';

/** A long of MNQM5 from 10:00:05 to 10:12:00 (14:00 UTC), in at 21000. */
const at = (minute: number, second = 0) => Date.UTC(2025, 5, 2, 14, minute, second);
const trade = {
  contract: 'MNQM5',
  side: 'Long' as const,
  entryTime: new Date(at(0, 5)).toISOString(),
  exitTime: new Date(at(12)).toISOString(),
  entryPrice: new Decimal(21000),
};
const order = (id: string, placedAt: number, values: Partial<OrderForStop> = {}): OrderForStop => ({
  id,
  contract: 'MNQM5',
  placedAt,
  type: 'stop',
  side: 'Sell',
  stopPrice: '20990',
  ...values,
});

describe('bracketStopOf', () => {
  it("a long's bracket stop placed with the entry order, just before the fill, is its planned stop", () => {
    expect(bracketStopOf(trade, [order('7', at(0, 4))])).toEqual({ orderId: '7', stopPrice: '20990', placedAt: at(0, 4) });
  });

  it('the first protective stop wins over a later one moved to break-even; a stop above the entry is not a plan', () => {
    const orders = [
      order('9', at(5), { stopPrice: '21000' }),
      order('8', at(1), { stopPrice: '20985.5' }),
      order('10', at(6), { stopPrice: '21004' }),
    ];
    expect(bracketStopOf(trade, orders)).toMatchObject({ orderId: '8', stopPrice: '20985.5' });
  });

  it('orders of another contract, of the opening side, limits, or outside the trade are not its stop', () => {
    const orders = [
      order('1', at(1), { contract: 'MESM5' }),
      order('2', at(1), { side: 'Buy' }),
      order('3', at(1), { type: 'limit', stopPrice: null }),
      order('4', at(0, 0) - 10_000),
      order('5', at(13)),
    ];
    expect(bracketStopOf(trade, orders)).toBeNull();
  });

  it("a short's stop is a buy stop above its entry", () => {
    const short = { ...trade, side: 'Short' as const };
    expect(bracketStopOf(short, [order('1', at(1), { side: 'Buy', stopPrice: '21012.25' })])).toMatchObject({ stopPrice: '21012.25' });
    expect(bracketStopOf(short, [order('2', at(1), { side: 'Buy', stopPrice: '20990' })])).toBeNull();
  });
});
