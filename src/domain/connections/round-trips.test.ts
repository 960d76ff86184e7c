import { describe, expect, it } from 'vitest';
import { findStoredRoundTrips, parseImport, type ImportedTrade, type RoundTrip } from '../importers';
import { contractSpecOf, roundTripsFromFills, type ContractSpec, type FlatPoints, type SyncedFill } from './round-trips';

const MNQ = 'CON.F.US.MNQ.M25';
const MES = 'CON.F.US.MES.M25';
const specs = new Map<string, ContractSpec>([
  [MNQ, contractSpecOf(MNQ, { name: 'MNQM5', tickSize: '0.25', tickValue: '0.5' })],
  [MES, contractSpecOf(MES, { name: 'MESM5', tickSize: '0.25', tickValue: '1.25' })],
]);

let nextId = 900;
/** A half-turn at New York wall time on Tuesday 2025-05-06 (EDT, UTC-4). */
function fill(side: 'Buy' | 'Sell', quantity: number, price: string, clock: string, extra: Partial<SyncedFill> = {}): SyncedFill {
  nextId += 1;
  return {
    id: String(nextId),
    contractId: MNQ,
    time: new Date(`2025-05-06T${clock}-04:00`).toISOString(),
    side,
    quantity: String(quantity),
    price,
    // TopstepX charges per contract and side: $0.37 a micro.
    fees: (0.37 * quantity).toFixed(2),
    pnl: null,
    voided: false,
    ...extra,
  };
}

const summary = (t: ImportedTrade) => [
  t.contract,
  t.side,
  t.quantity!.toString(),
  t.entryPrice!.toString(),
  t.exitPrice!.toString(),
  t.grossPnl,
  t.commission,
];

describe('round trips of a connected account', () => {
  it('a scale-in and one exit make one trade, with the fees the API charged on each fill and its flat point', () => {
    const fills = [fill('Buy', 1, '20000', '10:00:01.250'), fill('Buy', 1, '20001', '10:00:30'), fill('Sell', 2, '20003.5', '10:05:00.5')];
    const result = roundTripsFromFills(fills, {}, specs);
    // 2 x 20003.5 - (20000 + 20001) = 6 points x $2 = $12; the fees as the API charged them, 0.37 + 0.37 + 0.74.
    expect(result.trades.map(summary)).toEqual([['MNQM5', 'Long', '2', '20000.5', '20003.5', 1200, 148]]);
    expect(result.trades[0]!.entryTime).toBe('2025-05-06T14:00:01.250Z');
    expect(result.flat).toEqual({ [MNQ]: { time: fills[2]!.time, id: fills[2]!.id } });
    expect(result.openPositions).toEqual([]);
  });

  it('the next sync starts after the flat point: an open position waits, then becomes one trade with its first fill', () => {
    const first = [fill('Buy', 1, '20000', '10:00:00'), fill('Sell', 1, '20002', '10:01:00'), fill('Sell', 1, '20010', '10:02:00')];
    const one = roundTripsFromFills(first, {}, specs);
    expect(one.trades.map((t) => t.side)).toEqual(['Long']);
    expect(one.openPositions.map((p) => [p.side, p.quantity.toString()])).toEqual([['Short', '1']]);

    const later = [...first, fill('Buy', 1, '20004', '10:30:00')];
    const two = roundTripsFromFills(later, one.flat, specs);
    // Only the short: the long was stored by the first sync.
    expect(two.trades.map(summary)).toEqual([['MNQM5', 'Short', '1', '20010', '20004', 1200, 74]]);
    expect(two.considered).toBe(2);
    expect(two.flat[MNQ]!.id).toBe(later[3]!.id);
  });

  it('a reversal never goes flat: the trade it closed is built again by the next sync, with the same import key', () => {
    const fills = [fill('Buy', 1, '20000', '11:00:00'), fill('Sell', 3, '20005', '11:01:00')];
    const one = roundTripsFromFills(fills, {}, specs);
    expect(one.trades.map((t) => [t.side, t.quantity!.toString()])).toEqual([['Long', '1']]);
    expect(one.flat).toEqual({});

    const two = roundTripsFromFills([...fills, fill('Buy', 2, '19995', '11:04:00')], one.flat, specs);
    expect(two.trades.map((t) => [t.side, t.quantity!.toString(), t.grossPnl])).toEqual([
      ['Long', '1', 1000],
      ['Short', '2', 4000],
    ]);
    expect(two.trades[0]!.importKey).toBe(one.trades[0]!.importKey);
  });

  it('contracts keep their own flat points, voided fills are left out', () => {
    const mnq = [fill('Buy', 1, '20000', '12:00:00'), fill('Sell', 1, '20001', '12:01:00')];
    const mesOpen = fill('Buy', 1, '5600', '12:00:30', { contractId: MES });
    const one = roundTripsFromFills([...mnq, mesOpen], {}, specs);
    expect(one.trades.map((t) => t.contract)).toEqual(['MNQM5']);
    expect(Object.keys(one.flat)).toEqual([MNQ]);

    const voided = fill('Sell', 1, '5599', '12:10:00', { contractId: MES, voided: true });
    const mesExit = fill('Sell', 1, '5602', '12:20:00', { contractId: MES });
    const two = roundTripsFromFills([...mnq, mesOpen, voided, mesExit], one.flat, specs);
    // The MES position from its first fill; MNQ has nothing new; $5 a point from the tick value.
    expect(two.trades.map(summary)).toEqual([['MESM5', 'Long', '1', '5600', '5602', 1000, 74]]);
  });

  it("files a trade under the exchange's trading day: an evening entry belongs to the next day's session", () => {
    const evening = [fill('Sell', 1, '20100', '19:15:00'), fill('Buy', 1, '20090', '19:40:00')];
    const [trade] = roundTripsFromFills(evening, {}, specs).trades;
    expect([trade!.tradingDay, trade!.session]).toEqual(['2025-05-07', 'Overnight']);
    const [calendar] = roundTripsFromFills(evening, {}, specs, { tradingDay: 'calendar' }).trades;
    expect(calendar!.tradingDay).toBe('2025-05-06');
  });

  it("reads the provider's contract names and point values, and its own symbols for the E-minis", () => {
    expect(contractSpecOf('CON.F.US.ENQ.H25', { name: 'ENQH25', tickSize: '0.25', tickValue: '5' })).toMatchObject({ contract: 'NQH5', root: 'NQ' });
    expect(contractSpecOf('CON.F.US.ENQ.H25', { name: 'ENQH25', tickSize: '0.25', tickValue: '5' }).pointValue!.toString()).toBe('20');
    // Without a description (a contract the gateway no longer knows): from the id, with the exchange's point value.
    const es = contractSpecOf('CON.F.US.EP.H25', null);
    expect([es.contract, es.root, es.pointValue!.toString()]).toEqual(['ESH5', 'ES', '50']);
    expect(contractSpecOf('CON.F.US.ZZZ.H25', null).pointValue).toBeNull();
  });

  it("is the same round trip as TopstepX's trades export of the same fills (the two-export duplicate rule)", () => {
    const fills = [
      fill('Buy', 1, '20029', '22:04:12.4'),
      fill('Buy', 1, '20031.25', '22:07:25.1'),
      fill('Sell', 2, '20012', '23:26:09.9'),
      fill('Sell', 3, '20050', '23:40:00.75'),
      fill('Buy', 3, '20040.5', '23:41:30.2'),
    ];
    const synced = roundTripsFromFills(fills, {}, specs).trades;
    // The export writes one row per FIFO pair, times to the second with their offset, as TopstepX prints them.
    const csv = [
      'Id,ContractName,EnteredAt,ExitedAt,EntryPrice,ExitPrice,Fees,PnL,Size,Type,TradeDay,TradeDuration,Commissions',
      '1,MNQM5,05/06/2025 22:04:12 -04:00,05/06/2025 23:26:09 -04:00,20029.000000000,20012.000000000,0.74000,-34.000000000,1,Long,05/07/2025 00:00:00 -05:00,01:21:57,0',
      '2,MNQM5,05/06/2025 22:07:25 -04:00,05/06/2025 23:26:09 -04:00,20031.250000000,20012.000000000,0.74000,-38.500000000,1,Long,05/07/2025 00:00:00 -05:00,01:18:44,0',
      '3,MNQM5,05/06/2025 23:40:00 -04:00,05/06/2025 23:41:30 -04:00,20050.000000000,20040.500000000,2.22000,57.000000000,3,Short,05/07/2025 00:00:00 -05:00,00:01:30,0',
    ].join('\n');
    const imported = parseImport(csv, { timeZone: 'America/New_York' });
    if (!imported.ok) throw new Error(imported.message);
    const trip = (t: ImportedTrade, stored: boolean): RoundTrip => ({
      contract: t.contract,
      side: t.side,
      // As the database gives a stored trade back: numeric(24,8).
      quantity: stored ? t.quantity!.toFixed(8) : t.quantity!.toString(),
      entryPrice: stored ? t.entryPrice!.toFixed(8) : t.entryPrice!.toString(),
      exitPrice: stored ? t.exitPrice!.toFixed(8) : t.exitPrice!.toString(),
      entryTime: t.entryTime,
      exitTime: t.exitTime,
      minutePrecision: false,
    });
    expect(imported.trades).toHaveLength(2);
    expect(synced).toHaveLength(2);
    // Either order: the export imported after the sync, and the sync after the export.
    expect(
      [
        ...findStoredRoundTrips(
          imported.trades.map((t) => trip(t, false)),
          synced.map((t) => trip(t, true)),
        ),
      ].sort(),
    ).toEqual([0, 1]);
    expect(
      [
        ...findStoredRoundTrips(
          synced.map((t) => trip(t, false)),
          imported.trades.map((t) => trip(t, true)),
        ),
      ].sort(),
    ).toEqual([0, 1]);
    // And their money agrees: gross from prices, fees as charged.
    expect(synced.map((t) => [t.grossPnl, t.commission])).toEqual(imported.trades.map((t) => [t.grossPnl, t.commission]));
  });

  it('exits of a position opened before the first day read are left out, not read as a new position', () => {
    // The trader synced from a morning while a position from the evening before was still open: its two exits come
    // first, marked with their P&L, then the day's own trade.
    const fills = [
      fill('Sell', 1, '20010', '09:31:00', { pnl: '20' }),
      fill('Sell', 1, '20012', '09:32:00', { pnl: '24' }),
      fill('Sell', 1, '20020', '10:00:00'),
      fill('Buy', 1, '20015', '10:05:00', { pnl: '10' }),
    ];
    const result = roundTripsFromFills(fills, {}, specs);
    expect(result.trades.map(summary)).toEqual([['MNQM5', 'Short', '1', '20020', '20015', 1000, 74]]);
    expect([result.orphans, result.considered]).toEqual([2, 2]);
    // Once the contract has a flat point, a closing fill is an ordinary exit.
    const next = roundTripsFromFills(
      [...fills, fill('Buy', 1, '20000', '11:00:00'), fill('Sell', 1, '20003', '11:02:00', { pnl: '6' })],
      result.flat,
      specs,
    );
    expect(next.trades.map((t) => t.side)).toEqual(['Long']);
    expect(next.orphans).toBe(0);
  });

  it('a flat point carried over: nothing before it is read again', () => {
    const fills = [fill('Buy', 1, '20000', '13:00:00'), fill('Sell', 1, '20001', '13:00:10')];
    const flat: FlatPoints = { [MNQ]: { time: fills[1]!.time, id: fills[1]!.id } };
    expect(roundTripsFromFills(fills, flat, specs)).toMatchObject({ trades: [], considered: 0, flat });
  });
});
