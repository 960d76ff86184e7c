import { describe, expect, it } from 'vitest';
import { roundTripFromFills, type FillInput } from './round-trip';

/** A manual trade's fills: what the trade becomes, by the imports' FIFO rule, or what is wrong. */
const at = (minute: number) => Date.UTC(2025, 2, 5, 15, minute);

describe('roundTripFromFills', () => {
  it('a scale-in and two exits of NQ: side, quantity opened, average prices, first and last times, gross at $20 a point, costs added up', () => {
    const fills: FillInput[] = [
      { time: at(0), side: 'Buy', quantity: 1, price: '21000', commission: '2.14' },
      { time: at(2), side: 'Buy', quantity: '1', price: '20990.5', commission: '2.14' },
      { time: at(5), side: 'Sell', quantity: 1, price: 21010, commission: '2.14' },
      { time: at(9), side: 'Sell', quantity: 1, price: '21020.25', commission: '2.14' },
    ];
    const result = roundTripFromFills(fills, 'NQ');
    if (!result.ok) throw new Error(result.message);
    const { trip } = result;
    expect([trip.side, trip.quantity.toString(), trip.entryPrice.toString(), trip.exitPrice.toString()]).toEqual([
      'Long',
      '2',
      '20995.25',
      '21015.125',
    ]);
    expect([trip.entryTime, trip.exitTime]).toEqual([at(0), at(9)]);
    // (21010 + 21020.25) - (21000 + 20990.5) = 39.75 points x $20
    expect(trip.grossPnlCents).toBe(79_500);
    expect(trip.commissionCents).toBe(856);
    expect(trip.fills.map((f) => [f.side, f.quantity.toString(), f.commission])).toEqual([
      ['Buy', '1', 214],
      ['Buy', '1', 214],
      ['Sell', '1', 214],
      ['Sell', '1', 214],
    ]);
  });

  it('fills given out of order are read in time order; without costs the trade keeps its own commission (null)', () => {
    const result = roundTripFromFills(
      [
        { time: at(4), side: 'Buy', quantity: 2, price: '5600' },
        { time: at(1), side: 'Sell', quantity: 2, price: '5605.5' },
      ],
      'MES',
    );
    if (!result.ok) throw new Error(result.message);
    expect([result.trip.side, result.trip.grossPnlCents, result.trip.commissionCents]).toEqual(['Short', 5_500, null]);
    expect(result.trip.fills.map((f) => f.commission)).toEqual([null, null]);
  });

  it('refuses fills that leave a position open, go flat twice, or cannot be read, naming the fill', () => {
    expect(
      roundTripFromFills(
        [
          { time: at(0), side: 'Buy', quantity: 2, price: 1 },
          { time: at(1), side: 'Sell', quantity: 1, price: 2 },
        ],
        'ES',
      ),
    ).toEqual({
      ok: false,
      field: 'fills',
      message: 'fills: 1 contract is still open after the last fill; add the fills that close the position',
    });
    const twice = roundTripFromFills(
      [
        { time: at(0), side: 'Buy', quantity: 1, price: 1 },
        { time: at(1), side: 'Sell', quantity: 1, price: 2 },
        { time: at(2), side: 'Buy', quantity: 1, price: 1 },
        { time: at(3), side: 'Sell', quantity: 1, price: 2 },
      ],
      'ES',
    );
    expect(twice).toMatchObject({ ok: false, field: 'fills' });
    expect(!twice.ok && twice.message).toContain('(fill 2) and opens again');
    expect(
      roundTripFromFills(
        [
          { time: at(0), side: 'Buy', quantity: 0, price: 1 },
          { time: at(1), side: 'Sell', quantity: 1, price: 2 },
        ],
        'ES',
      ),
    ).toMatchObject({
      ok: false,
      field: 'fills.0.quantity',
    });
    expect(
      roundTripFromFills(
        [
          { time: at(0), side: 'Buy', quantity: 1, price: 'x' },
          { time: at(1), side: 'Sell', quantity: 1, price: 2 },
        ],
        'ES',
      ),
    ).toMatchObject({
      ok: false,
      field: 'fills.0.price',
    });
    expect(
      roundTripFromFills(
        [
          { time: at(0), side: 'Buy', quantity: 1, price: 1, commission: -1 },
          { time: at(1), side: 'Sell', quantity: 1, price: 2 },
        ],
        'ES',
      ),
    ).toMatchObject({
      ok: false,
      field: 'fills.0.commission',
    });
    expect(roundTripFromFills([{ time: at(0), side: 'Buy', quantity: 1, price: 1 }], 'ES')).toMatchObject({ ok: false, field: 'fills' });
  });
});
