import { describe, expect, it } from 'vitest';
import { perpetualContract } from '../instruments';
import { perpetualRoundTrips, positionKeyOf, type PerpetualFill, type PerpetualSpec } from './perpetual-trips';
import { attributeFunding, fundingCents } from './funding';

const BTC = perpetualContract('BINANCE', 'BTC', 'USDT');
const ETH = perpetualContract('BINANCE', 'ETH', 'USDT');
const specs = new Map<string, PerpetualSpec>([
  ['BTCUSDT', { contract: BTC, base: 'BTC', currency: 'USDT' }],
  ['ETHUSDT', { contract: ETH, base: 'ETH', currency: 'USDT' }],
]);

let nextId = 5000;
/** A fill on 2026-03-03 (a Tuesday) at a UTC clock time, taker fee 0.04% of notional in USDT unless given. */
function fill(side: 'Buy' | 'Sell', quantity: string, price: string, clock: string, extra: Partial<PerpetualFill> = {}): PerpetualFill {
  nextId += 1;
  return {
    id: String(nextId),
    order: String(nextId),
    symbol: 'BTCUSDT',
    time: `2026-03-03T${clock}Z`,
    side,
    quantity,
    price,
    fee: '0',
    feeAsset: 'USDT',
    positionSide: 'BOTH',
    closing: null,
    ...extra,
  };
}

const view = (t: {
  trade: {
    contract: string;
    symbol: string;
    side: string | null;
    quantity: { toString(): string } | null;
    entryPrice: { toString(): string } | null;
    exitPrice: { toString(): string } | null;
    grossPnl: number;
    commission: number;
    netPnl: number;
  };
}) => [
  t.trade.contract,
  t.trade.symbol,
  t.trade.side,
  t.trade.quantity!.toString(),
  t.trade.entryPrice!.toString(),
  t.trade.exitPrice!.toString(),
  t.trade.grossPnl,
  t.trade.commission,
  t.trade.netPnl,
];

describe('round trips of a crypto perpetual account', () => {
  it('one-way mode: a long of 0.015 BTC in two buys and one sell, P&L in USDT to the cent and fees summed exactly', () => {
    const fills = [
      fill('Buy', '0.010', '64000.10', '09:00:00', { fee: '0.25600040' }),
      fill('Buy', '0.005', '64010.00', '09:00:05', { fee: '0.12802000' }),
      fill('Sell', '0.015', '64321.77', '09:30:00', { fee: '0.38593062', closing: true }),
    ];
    const result = perpetualRoundTrips(fills, {}, specs);
    // (0.015 x 64321.77) - (0.010 x 64000.10 + 0.005 x 64010.00) = 964.82655 - 960.05100 = 4.77555 -> 4.78.
    // Fees 0.25600040 + 0.12802000 + 0.38593062 = 0.76995102 -> 0.77 (each alone would round to 0.26 + 0.13 + 0.39 = 0.78).
    expect(result.trips.map(view)).toEqual([[BTC, 'BTC', 'Long', '0.015', '64003.4', '64321.77', 478, 77, 401]]);
    expect(result.trips[0]!.trade.result).toBe('Win');
    expect(result.trips[0]!.trade.tags).toContain('BTC');
    expect(result.flat).toEqual({ [positionKeyOf('BTCUSDT', 'BOTH')]: { time: fills[2]!.time, id: fills[2]!.order } });
    expect(result.openPositions).toEqual([]);
  });

  it('one-way mode: a sell that takes a long through zero closes it and opens a short, its fee shared in proportion', () => {
    const fills = [
      fill('Buy', '1', '3000', '10:00:00', { symbol: 'ETHUSDT', fee: '1.2' }),
      fill('Sell', '3', '3010', '10:10:00', { symbol: 'ETHUSDT', fee: '3.6', closing: true }),
      fill('Buy', '2', '3005', '10:20:00', { symbol: 'ETHUSDT', fee: '2.4', closing: true }),
    ];
    const result = perpetualRoundTrips(fills, {}, specs);
    // The sell's 3.6 is 1.2 for the 1 ETH it closed and 2.4 for the 2 it opened short.
    expect(result.trips.map(view)).toEqual([
      [ETH, 'ETH', 'Long', '1', '3000', '3010', 1000, 240, 760],
      [ETH, 'ETH', 'Short', '2', '3010', '3005', 1000, 480, 520],
    ]);
  });

  it('hedge mode: a long and a short of one symbol open at once are two trades, each closed on its own side', () => {
    const fills = [
      fill('Buy', '0.1', '60000', '08:00:00', { positionSide: 'LONG' }),
      fill('Sell', '0.2', '60100', '08:05:00', { positionSide: 'SHORT' }),
      // A partial close of the long, then the short closed, then the rest of the long.
      fill('Sell', '0.04', '60500', '09:00:00', { positionSide: 'LONG' }),
      fill('Buy', '0.2', '59900', '09:30:00', { positionSide: 'SHORT' }),
      fill('Sell', '0.06', '61000', '10:00:00', { positionSide: 'LONG' }),
    ];
    const result = perpetualRoundTrips(fills, {}, specs);
    // Long: 0.04 x 500 + 0.06 x 1000 = 20 + 60 = 80 USDT. Short: 0.2 x 200 = 40 USDT. One-way, the same fills would
    // have netted into other trades.
    expect(result.trips.map(view)).toEqual([
      [BTC, 'BTC', 'Long', '0.1', '60000', '60800', 8000, 0, 8000],
      [BTC, 'BTC', 'Short', '0.2', '60100', '59900', 4000, 0, 4000],
    ]);
    expect(result.trips[0]!.trade.exitFills).toBe(2);
    expect(Object.keys(result.flat).sort()).toEqual([positionKeyOf('BTCUSDT', 'LONG'), positionKeyOf('BTCUSDT', 'SHORT')]);
  });

  it('a partial close leaves the position open: no trade until it is flat, then one trade from the flat point on', () => {
    const first = [
      fill('Buy', '1', '3000', '11:00:00', { symbol: 'ETHUSDT' }),
      fill('Sell', '0.4', '3050', '11:30:00', { symbol: 'ETHUSDT', closing: true }),
    ];
    const one = perpetualRoundTrips(first, {}, specs);
    expect(one.trips).toEqual([]);
    expect(one.openPositions.map((p) => [p.side, p.quantity.toString()])).toEqual([['Long', '0.6']]);
    expect(one.flat).toEqual({});

    const all = [...first, fill('Sell', '0.6', '3100', '12:00:00', { symbol: 'ETHUSDT', closing: true })];
    const two = perpetualRoundTrips(all, one.flat, specs);
    // 0.4 x 50 + 0.6 x 100 = 80 USDT.
    expect(two.trips.map(view)).toEqual([[ETH, 'ETH', 'Long', '1', '3000', '3080', 8000, 0, 8000]]);
    // Read again from its flat point, nothing is built twice.
    const three = perpetualRoundTrips(all, two.flat, specs);
    expect(three.trips).toEqual([]);
    expect(three.considered).toBe(0);
  });

  it('closes of a position opened before the first synced fill make no trade; the first opening fill starts one', () => {
    const fills = [
      fill('Sell', '0.5', '61000', '07:00:00', { closing: true }),
      fill('Buy', '0.2', '60000', '07:10:00', { positionSide: 'BOTH', closing: false }),
      fill('Sell', '0.2', '60100', '07:20:00', { closing: true }),
    ];
    const result = perpetualRoundTrips(fills, {}, specs);
    expect(result.orphans).toBe(1);
    expect(result.trips.map(view)).toEqual([[BTC, 'BTC', 'Long', '0.2', '60000', '60100', 2000, 0, 2000]]);
    // In hedge mode the side says it: a buy on the short side at an empty position closes an older short.
    const hedge = perpetualRoundTrips([fill('Buy', '0.1', '60000', '07:00:00', { positionSide: 'SHORT' })], {}, specs);
    expect([hedge.orphans, hedge.trips.length]).toEqual([1, 0]);
  });

  it('fees charged in BNB stay in BNB: left out of the USDT commission, kept by asset, never converted', () => {
    const fills = [
      fill('Buy', '0.01', '60000', '13:00:00', { fee: '0.00042000', feeAsset: 'BNB' }),
      fill('Sell', '0.01', '60500', '13:05:00', { fee: '0.24200000', closing: true }),
    ];
    const [trip] = perpetualRoundTrips(fills, {}, specs).trips;
    expect(view(trip!)).toEqual([BTC, 'BTC', 'Long', '0.01', '60000', '60500', 500, 24, 476]);
    expect(trip!.otherFees).toEqual({ BNB: '0.00042' });
    expect(trip!.trade.fills!.map((f) => f.commission)).toEqual([null, 24]);
  });

  it('a maker rebate larger than the fees makes a commission of 0, not income', () => {
    const fills = [
      fill('Buy', '1', '3000', '14:00:00', { symbol: 'ETHUSDT', fee: '-0.3' }),
      fill('Sell', '1', '3001', '14:01:00', { symbol: 'ETHUSDT', fee: '-0.3' }),
    ];
    const [trip] = perpetualRoundTrips(fills, {}, specs).trips;
    expect([trip!.trade.grossPnl, trip!.trade.commission, trip!.trade.netPnl]).toEqual([100, 0, 100]);
  });
});

describe('funding payments and the trades they count in', () => {
  const at = (clock: string) => Date.parse(`2026-03-03T${clock}Z`);
  const long = { id: 'long', contract: BTC, side: 'Long' as const, entry: at('07:00:00'), exit: at('17:00:00') };
  const short = { id: 'short', contract: BTC, side: 'Short' as const, entry: at('07:30:00'), exit: at('09:00:00') };
  const eth = { id: 'eth', contract: ETH, side: 'Short' as const, entry: at('15:00:00'), exit: at('18:00:00') };

  it('goes to the one trade of its contract open when it was paid, by side when the exchange names it', () => {
    const payments = [
      // 08:00: the long and the short are both open; the exchange names the side.
      { id: 'f1', contract: BTC, time: at('08:00:00'), positionSide: 'SHORT' as const },
      // 16:00: only the long of BTC is open (the ETH short is another contract).
      { id: 'f2', contract: BTC, time: at('16:00:00'), positionSide: null },
      { id: 'f3', contract: ETH, time: at('16:00:00'), positionSide: null },
    ];
    expect(attributeFunding(payments, [long, short, eth])).toEqual(
      new Map([
        ['f1', 'short'],
        ['f2', 'long'],
        ['f3', 'eth'],
      ]),
    );
  });

  it('stays on its own when two trades were open and the exchange does not say which paid, or when none was', () => {
    const payments = [
      { id: 'both', contract: BTC, time: at('08:00:00'), positionSide: null },
      { id: 'before', contract: BTC, time: at('00:00:00'), positionSide: null },
      { id: 'wrong-side', contract: ETH, time: at('16:00:00'), positionSide: 'LONG' as const },
    ];
    expect(attributeFunding(payments, [long, short, eth])).toEqual(new Map());
  });

  it("sums a trade's payments exactly, then rounds once to the cent", () => {
    // -0.01234567 x 3 = -0.03703701: -0.04, where rounding each (-0.01 x 3) would say -0.03.
    expect(fundingCents(['-0.01234567', '-0.01234567', '-0.01234567'])).toBe(-4);
    expect(fundingCents(['0.5', '-0.25'])).toBe(25);
  });
});
