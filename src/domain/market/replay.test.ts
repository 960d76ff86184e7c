import { describe, expect, it } from 'vitest';
import { Decimal } from '../money';
import { replayAt, type ReplayFill } from './replay';

/** MNQ, $2 a point. A long scaled in at 21000 and 20996 (10:00:30, 10:01:30), half out at 21009, the rest at 21010. */
const at = (minute: number, second = 0) => Date.UTC(2025, 2, 5, 15, minute, second);
const fill = (side: 'Buy' | 'Sell', quantity: number, price: string, time: number): ReplayFill => ({
  side,
  quantity: new Decimal(quantity),
  price: new Decimal(price),
  time,
});
const FILLS = [
  fill('Buy', 1, '21000', at(0, 30)),
  fill('Buy', 1, '20996', at(1, 30)),
  fill('Sell', 1, '21009', at(3, 5)),
  fill('Sell', 1, '21010', at(4, 10)),
];
const MNQ = new Decimal(2);

describe('replayAt', () => {
  it('before the first fill: flat, nothing made, no stop to speak of', () => {
    expect(replayAt(FILLS, at(0), new Decimal(21000), MNQ, new Decimal(20990))).toEqual({
      position: new Decimal(0),
      averagePrice: null,
      realizedCents: 0,
      unrealizedCents: 0,
      totalCents: 0,
      fills: 0,
      toStop: null,
    });
  });

  it('scaled in: long 2 from 20998; at 21006 it shows $32 open and is 16 points ($64) from a stop at 20990', () => {
    const point = replayAt(FILLS, at(2), new Decimal(21006), MNQ, new Decimal(20990));
    expect(point.position.toString()).toBe('2');
    expect(point.averagePrice!.toString()).toBe('20998');
    expect([point.realizedCents, point.unrealizedCents, point.totalCents, point.fills]).toEqual([0, 3200, 3200, 2]);
    expect(point.toStop).toEqual({ points: '16', cents: 6400 });
  });

  it('half out at 21009 realises 11 points ($22) against the average; at the end the whole trade made $46', () => {
    const half = replayAt(FILLS, at(4), new Decimal(21007), MNQ);
    expect([half.position.toString(), half.realizedCents, half.unrealizedCents]).toEqual(['1', 2200, 1800]);
    const done = replayAt(FILLS, at(5), new Decimal(21012), MNQ, new Decimal(20990));
    // (21009 - 20998) + (21010 - 20998) = 23 points x $2, flat: nothing open, no stop distance.
    expect([done.position.toString(), done.realizedCents, done.unrealizedCents, done.totalCents, done.toStop]).toEqual(['0', 4600, 0, 4600, null]);
  });

  it('a reversal closes the long and opens the rest short at its price; a short measures its stop above', () => {
    const fills = [fill('Buy', 1, '21000', at(0)), fill('Sell', 3, '21010', at(1))];
    const point = replayAt(fills, at(2), new Decimal(21004), MNQ, new Decimal(21020));
    expect([point.position.toString(), point.averagePrice!.toString(), point.realizedCents, point.unrealizedCents]).toEqual([
      '-2',
      '21010',
      2000,
      2400,
    ]);
    expect(point.toStop).toEqual({ points: '16', cents: 6400 });
  });
});
