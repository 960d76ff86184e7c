import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../money';
import { buildTrades } from './build-trades';
import type { Fill } from './types';

const T0 = Date.UTC(2025, 0, 6, 14, 30); // Monday 09:30 New York

function fill(side: 'Buy' | 'Sell', quantity: number, price: string, minute: number, extra: Partial<Fill> = {}): Fill {
  return {
    rows: [minute + 2],
    account: 'A',
    contract: 'MNQH5',
    root: 'MNQ',
    side,
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    time: T0 + minute * 60_000,
    commission: 0,
    ...extra,
  };
}

describe('buildTrades ("How trades are built")', () => {
  it('a reversal fill closes the long and opens a short with the remainder, sharing its commission by quantity', () => {
    const { trades, openPositions } = buildTrades([
      fill('Buy', 1, '21000', 0, { commission: 52 }),
      fill('Sell', 3, '21010', 5, { commission: 156 }),
      fill('Buy', 2, '20990', 9, { commission: 104 }),
    ]);
    expect(
      trades.map((t) => [t.side, t.quantity!.toString(), t.entryPrice!.toString(), t.exitPrice!.toString(), t.grossPnl, t.commission, t.netPnl]),
    ).toEqual([
      ['Long', '1', '21000', '21010', 2000, 52 + 52, 2000 - 104],
      ['Short', '2', '21010', '20990', 8000, 104 + 104, 8000 - 208],
    ]);
    expect(openPositions).toEqual([]);
  });

  it('each trade keeps its fills in the order traded; a reversal fill gives each trade its share of quantity and costs', () => {
    const { trades } = buildTrades([
      fill('Buy', 1, '21000', 0, { commission: 52, id: 'f1' }),
      fill('Buy', 1, '20995', 1, { commission: 52, id: 'f2' }),
      fill('Sell', 5, '21010', 5, { commission: 260, id: 'f3' }),
      fill('Buy', 3, '20990', 9, { commission: 156, id: 'f4' }),
    ]);
    const view = (t: (typeof trades)[number]) =>
      t.fills!.map((f) => [f.side, f.quantity.toString(), f.price.toString(), (f.time - T0) / 60_000, f.commission, f.id]);
    expect(view(trades[0]!)).toEqual([
      ['Buy', '1', '21000', 0, 52, 'f1'],
      ['Buy', '1', '20995', 1, 52, 'f2'],
      // 2 of the 5 contracts close the long: 2/5 of $2.60
      ['Sell', '2', '21010', 5, 104, 'f3'],
    ]);
    expect(view(trades[1]!)).toEqual([
      ['Sell', '3', '21010', 5, 156, 'f3'],
      ['Buy', '3', '20990', 9, 156, 'f4'],
    ]);
    // The fills' shares add up to the trade: quantity opened, costs, and the average prices.
    for (const trade of trades) {
      const entries = trade.fills!.filter((f) => f.side === (trade.side === 'Long' ? 'Buy' : 'Sell'));
      expect(entries.reduce((sum, f) => sum.plus(f.quantity), new Decimal(0)).toString()).toBe(trade.quantity!.toString());
      expect(trade.fills!.reduce((sum, f) => sum + f.commission!, 0)).toBe(trade.commission);
    }
    expect(trades[0]!.entryPrice!.toString()).toBe('20997.5');
  });

  it('partial exits and a re-add before flat stay one trade; quantity counts contracts opened', () => {
    const { trades } = buildTrades([fill('Buy', 2, '100', 0), fill('Sell', 1, '101', 1), fill('Buy', 1, '99', 2), fill('Sell', 2, '102', 3)]);
    expect(trades).toHaveLength(1);
    // bought 2 @ 100 + 1 @ 99 = 299, sold 101 + 2 @ 102 = 305: 6 points x $2
    expect([trades[0]!.quantity!.toString(), trades[0]!.entryPrice!.toString(), trades[0]!.exitPrice!.toString(), trades[0]!.grossPnl]).toEqual([
      '3',
      '99.66666667',
      '101.66666667',
      1200,
    ]);
    expect([trades[0]!.entryFills, trades[0]!.exitFills]).toEqual([2, 2]);
  });

  it('accounts and contracts are matched separately, and what is not flat at the end is an open position', () => {
    const { trades, openPositions } = buildTrades([
      fill('Buy', 1, '100', 0),
      fill('Sell', 1, '100.25', 1, { account: 'B' }),
      fill('Sell', 1, '101', 2),
      fill('Buy', 2, '200', 3, { contract: 'MNQM5' }),
      fill('Sell', 1, '201', 4, { contract: 'MNQM5' }),
    ]);
    expect(trades.map((t) => [t.account, t.contract, t.grossPnl])).toEqual([['A', 'MNQH5', 200]]);
    expect(openPositions.map((p) => [p.account, p.contract, p.side, p.quantity.toString(), p.averagePrice.toString()])).toEqual([
      ['B', 'MNQH5', 'Short', '1', '100.25'],
      ['A', 'MNQM5', 'Long', '1', '200'],
    ]);
  });

  it('an unknown futures root is priced at 1 with a warning; spot crypto at 1 without one', () => {
    const { trades, issues } = buildTrades([
      fill('Buy', 1, '10', 0, { contract: 'QQQZ5', root: 'QQQ' }),
      fill('Sell', 1, '12', 1, { contract: 'QQQZ5', root: 'QQQ' }),
      fill('Buy', 0.5, '60000', 0, { contract: 'BTCUSD', root: 'BTCUSD' }),
      fill('Sell', 0.5, '61000', 1, { contract: 'BTCUSD', root: 'BTCUSD' }),
    ]);
    expect(trades.map((t) => [t.contract, t.grossPnl])).toEqual([
      ['QQQZ5', 200],
      ['BTCUSD', 50000],
    ]);
    expect(issues).toEqual([{ row: 2, severity: 'warning', message: expect.stringContaining('Unknown futures root QQQ') }]);
  });

  it('two identical trades get two keys; building again gives the same keys', () => {
    const fills = [fill('Buy', 1, '100', 0), fill('Sell', 1, '101', 0), fill('Buy', 1, '100', 0), fill('Sell', 1, '101', 0)];
    const first = buildTrades(fills).trades.map((t) => t.importKey);
    expect(new Set(first).size).toBe(2);
    expect(buildTrades(fills).trades.map((t) => t.importKey)).toEqual(first);
  });
});

/**
 * Reference FIFO (lot by lot), written separately from buildTrades: points x point value realised up to the last
 * moment the position was flat (the closed part: P&L realised inside a trade still open is not a trade yet).
 */
function realisedByFifo(fills: Fill[], pointValue: number): { realised: Decimal; position: Decimal } {
  const lots: { q: Decimal; p: Decimal; dir: number }[] = [];
  let realised = new Decimal(0);
  let realisedWhenFlat = new Decimal(0);
  for (const f of [...fills].sort((a, b) => a.time - b.time)) {
    const dir = f.side === 'Buy' ? 1 : -1;
    let q = f.quantity;
    while (q.gt(0) && lots.length > 0 && lots[0]!.dir !== dir) {
      const lot = lots[0]!;
      const m = Decimal.min(q, lot.q);
      realised = realised.plus(f.price.minus(lot.p).times(m).times(lot.dir));
      lot.q = lot.q.minus(m);
      q = q.minus(m);
      if (lot.q.isZero()) lots.shift();
      if (lots.length === 0) realisedWhenFlat = realised; // a reversing fill passes through flat
    }
    if (q.gt(0)) lots.push({ q, p: f.price, dir });
  }
  const position = lots.reduce((s, l) => s.plus(l.q.times(l.dir)), new Decimal(0));
  return { realised: realisedWhenFlat.times(pointValue), position };
}

const fillsArbitrary = fc
  .array(
    fc.record({
      buy: fc.boolean(),
      quantity: fc.integer({ min: 1, max: 5 }),
      ticks: fc.integer({ min: 80_000, max: 80_400 }),
      commission: fc.integer({ min: 0, max: 500 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((steps) =>
    steps.map((s, i) => fill(s.buy ? 'Buy' : 'Sell', s.quantity, new Decimal(s.ticks).times('0.25').toString(), i, { commission: s.commission })),
  );

describe('buildTrades properties (fast-check)', () => {
  it('P&L of the trades equals the FIFO cash flows of the closed part, and the open position is what the fills leave', () => {
    fc.assert(
      fc.property(fillsArbitrary, (fills) => {
        const { trades, openPositions } = buildTrades(fills);
        const reference = realisedByFifo(fills, 2);
        expect(trades.reduce((s, t) => s + t.grossPnl, 0)).toBe(reference.realised.times(100).toNumber());
        const open = openPositions.reduce((s, p) => s.plus(p.quantity.times(p.side === 'Long' ? 1 : -1)), new Decimal(0));
        expect(open.eq(reference.position)).toBe(true);
      }),
    );
  });

  it('when the fills end flat, every contract bought or sold is in exactly one trade side, and costs are kept', () => {
    fc.assert(
      fc.property(fillsArbitrary, (steps) => {
        const net = steps.reduce((s, f) => s.plus(f.quantity.times(f.side === 'Buy' ? 1 : -1)), new Decimal(0));
        const fills = net.isZero()
          ? steps
          : [...steps, fill(net.gt(0) ? 'Sell' : 'Buy', net.abs().toNumber(), '20000', steps.length, { commission: 7 })];
        const { trades, openPositions } = buildTrades(fills);
        expect(openPositions).toEqual([]);
        const traded = fills.reduce((s, f) => s.plus(f.quantity), new Decimal(0));
        expect(trades.reduce((s, t) => s.plus(t.quantity!.times(2)), new Decimal(0)).eq(traded)).toBe(true);
        expect(trades.reduce((s, t) => s + t.commission, 0)).toBe(fills.reduce((s, f) => s + f.commission, 0));
        for (const t of trades) {
          expect(t.netPnl).toBe(t.grossPnl - t.commission);
          expect(Date.parse(t.entryTime!)).toBeLessThanOrEqual(Date.parse(t.exitTime!));
        }
        // Sum of trades = point value x (sell notional - buy notional) of all fills, since the whole book is flat.
        const cash = fills.reduce((s, f) => s.plus(f.price.times(f.quantity).times(f.side === 'Sell' ? 1 : -1)), new Decimal(0));
        expect(trades.reduce((s, t) => s + t.grossPnl, 0)).toBe(cash.times(2).times(100).toNumber());
      }),
    );
  });
});

describe('buildTrades with fractional quantities (crypto)', () => {
  it('matches 0.5 + 0.25 BTC against one exit of 0.75 exactly, and shares commission by quantity', () => {
    const btc = { contract: 'BTCUSD', root: 'BTCUSD' };
    const { trades, openPositions } = buildTrades([
      fill('Buy', 0.5, '60000', 0, { ...btc, commission: 30 }),
      fill('Buy', 0.25, '60400', 1, { ...btc, commission: 15 }),
      fill('Sell', 1, '61000', 2, { ...btc, commission: 60 }),
      fill('Buy', 0.25, '60900', 3, { ...btc, commission: 15 }),
    ]);
    // 0.75 closes the long (45 of the 60 cents), 0.25 opens a short closed at 60900.
    expect(trades.map((t) => [t.side, t.quantity!.toString(), t.entryPrice!.toString(), t.exitPrice!.toString(), t.grossPnl, t.commission])).toEqual([
      ['Long', '0.75', '60133.33333333', '61000', 65000, 30 + 15 + 45],
      ['Short', '0.25', '61000', '60900', 2500, 15 + 15],
    ]);
    expect(openPositions).toEqual([]);
  });

  it('a quantity no account could hold is an unreadable row, not a rounding error', () => {
    const { trades, issues } = buildTrades([fill('Buy', 1, '100', 0), fill('Sell', 1e15, '101', 1), fill('Sell', 1, '101', 2)]);
    expect(trades.map((t) => t.grossPnl)).toEqual([200]);
    expect(issues).toEqual([{ row: 3, severity: 'error', message: 'Quantity 1000000000000000 is too large to be real' }]);
  });
});

const fractionalFills = fc
  .array(fc.record({ buy: fc.boolean(), quantity: fc.integer({ min: 1, max: 40 }), ticks: fc.integer({ min: 80_000, max: 80_400 }) }), {
    minLength: 1,
    maxLength: 30,
  })
  // Quarters of a unit at half-point prices and $2 a point: every match is a whole number of cents, so the sums compare exactly.
  .map((steps) => steps.map((s, i) => fill(s.buy ? 'Buy' : 'Sell', s.quantity / 4, new Decimal(s.ticks).times('0.5').toString(), i)));

describe('buildTrades properties with quarters of a unit (fast-check)', () => {
  it('P&L equals the FIFO cash flows of the closed part, and the open position is what the fills leave', () => {
    fc.assert(
      fc.property(fractionalFills, (fills) => {
        const { trades, openPositions } = buildTrades(fills);
        const reference = realisedByFifo(fills, 2);
        expect(trades.reduce((s, t) => s + t.grossPnl, 0)).toBe(reference.realised.times(100).toNumber());
        const open = openPositions.reduce((s, p) => s.plus(p.quantity.times(p.side === 'Long' ? 1 : -1)), new Decimal(0));
        expect(open.eq(reference.position)).toBe(true);
      }),
    );
  });
});
