import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../index';
import { expectPreview, viewTrade } from '../testing';

const real = (path: string) => readFileSync(new URL(`../../../../../shared/fixtures/brokers/${path}`, import.meta.url), 'utf8');
const own = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

/**
 * Interactive Brokers activity statements and thinkorswim account statements were refused as
 * 'Unknown file format' with the statement's title as the columns found. Their trades are read now.
 */
describe('Interactive Brokers activity statement', () => {
  it('real excerpt (stocks): two RXRX round trips net of IBKR commissions, and SPY still open', () => {
    const preview = expectPreview(
      parseImport(real('ibkr-activity/stephenkgli-trading-records__ibkr_activity.csv'), { timeZone: 'America/New_York' }),
    );
    expect(preview.format.id).toBe('ibkr-activity');
    expect(preview.issues).toEqual([]);
    expect(preview.trades.map(viewTrade)).toEqual([
      // 324 @ 9.07 -> 8.875: -63.18; commissions 0.51923349 + 1.33335639 as cents 0.52 + 1.33. IBKR's realized P/L: -65.032589.
      {
        contract: 'RXRX',
        symbol: 'RXRX',
        side: 'Long',
        entryTime: '2024-06-06T13:32:06.000Z',
        exitTime: '2024-06-06T14:06:10.000Z',
        quantity: '324',
        entryPrice: '9.07',
        exitPrice: '8.875',
        grossPnl: -6318,
        commission: 185,
        netPnl: -6503,
      },
      // 192 @ 8.81 held over the weekend, out @ 8.45 on Monday: -69.12; 0.31 + 0.79. IBKR: -70.215563.
      {
        contract: 'RXRX',
        symbol: 'RXRX',
        side: 'Long',
        entryTime: '2024-06-06T15:36:42.000Z',
        exitTime: '2024-06-10T13:30:33.000Z',
        quantity: '192',
        entryPrice: '8.81',
        exitPrice: '8.45',
        grossPnl: -6912,
        commission: 110,
        netPnl: -7022,
      },
    ]);
    expect(preview.trades.every((t) => t.account === 'U19710281')).toBe(true);
    expect(preview.openPositions.map((p) => [p.contract, p.side, p.quantity.toString(), p.averagePrice.toString()])).toEqual([
      ['SPY', 'Long', '2', '580.6975'],
    ]);
  });

  it('own futures statement: MES, a short MNQ and a ZN at $1,000 a point from the proceeds; the option row left out', () => {
    const preview = expectPreview(parseImport(own('ibkr-futures-statement.csv'), { timeZone: 'America/New_York' }));
    expect(preview.trades.map(viewTrade)).toEqual([
      // 6.5 points x 2 x $5; IBKR's Realized P/L 62.52 = 65.00 - 2 x 1.24
      {
        contract: 'MESU5',
        symbol: 'MES',
        side: 'Long',
        entryTime: '2025-07-14T13:45:12.000Z',
        exitTime: '2025-07-14T14:12:40.000Z',
        quantity: '2',
        entryPrice: '6285.25',
        exitPrice: '6291.75',
        grossPnl: 6500,
        commission: 248,
        netPnl: 6252,
      },
      {
        contract: 'MNQU5',
        symbol: 'MNQ',
        side: 'Short',
        entryTime: '2025-07-14T15:01:05.000Z',
        exitTime: '2025-07-14T15:20:30.000Z',
        quantity: '1',
        entryPrice: '22950.5',
        exitPrice: '22962.25',
        grossPnl: -2350,
        commission: 124,
        netPnl: -2474,
      },
      // (111.3125 - 111.234375) x $1,000 = 78.125, half up to 78.13; IBKR's 74.085 after 4.04 of costs
      {
        contract: 'ZNU5',
        symbol: 'ZN',
        side: 'Long',
        entryTime: '2025-07-14T17:05:00.000Z',
        exitTime: '2025-07-14T17:40:00.000Z',
        quantity: '1',
        entryPrice: '111.234375',
        exitPrice: '111.3125',
        grossPnl: 7813,
        commission: 404,
        netPnl: 7409,
      },
    ]);
    expect(preview.trades.every((t) => t.account === 'U7654321')).toBe(true);
    expect(preview.ignored).toEqual({ 'equity and index options rows': 1 });
    expect(preview.issues).toEqual([]);
    expect(preview.costsInFile).toBe(true);
  });
});

describe('thinkorswim account statement', () => {
  it('real statement (stocks): fills joined to the Cash Balance lines for their costs and seconds', () => {
    const preview = expectPreview(parseImport(real('thinkorswim-statement/tradenote__TD_Ameritrade.csv'), { timeZone: 'America/New_York' }));
    expect(preview.format.id).toBe('thinkorswim-statement');
    expect(preview.issues).toEqual([]);
    expect(preview.trades.map(viewTrade)).toEqual([
      // Sold 100 (10:04:09) and 200 (10:04:10) @ 9.65, bought 300 back @ 9.6399 (10:16:16): 3.03; fees 0.03 + 0.07.
      {
        contract: 'AMZN',
        symbol: 'AMZN',
        side: 'Short',
        entryTime: '2022-11-12T15:04:09.000Z',
        exitTime: '2022-11-12T15:16:16.000Z',
        quantity: '300',
        entryPrice: '9.65',
        exitPrice: '9.6399',
        grossPnl: 303,
        commission: 10,
        netPnl: 293,
      },
      // 300 each @ 13.39, 13.31, 13.22 (11,976); out 12 + 8 + 280 @ 13.33 and 2 x 300 @ 13.32 (11,991): 15.00; fees 0.41.
      {
        contract: 'PYPL',
        symbol: 'PYPL',
        side: 'Long',
        entryTime: '2022-11-12T15:31:44.000Z',
        exitTime: '2022-11-12T16:27:43.000Z',
        quantity: '900',
        entryPrice: '13.30666667',
        exitPrice: '13.32333333',
        grossPnl: 1500,
        commission: 41,
        netPnl: 1459,
      },
    ]);
    expect(preview.trades.every((t) => t.account === '00*****XX')).toBe(true);
    expect(preview.minutePrecision).toBe(false);
  });

  it('own futures statement: fees from Futures Statements, an evening short filed under the next trading day', () => {
    const preview = expectPreview(parseImport(own('thinkorswim-futures-statement.csv'), { timeZone: 'America/New_York' }));
    expect(preview.trades.map(viewTrade)).toEqual([
      // 6.5 x 2 x $5; fees (0.70 + 1.50) on each of the two fills
      {
        contract: 'MESU5',
        symbol: 'MES',
        side: 'Long',
        entryTime: '2025-07-14T13:45:12.000Z',
        exitTime: '2025-07-14T14:12:40.000Z',
        quantity: '2',
        entryPrice: '6285.25',
        exitPrice: '6291.75',
        grossPnl: 6500,
        commission: 440,
        netPnl: 6060,
      },
      {
        contract: 'MNQU5',
        symbol: 'MNQ',
        side: 'Short',
        entryTime: '2025-07-14T22:30:05.000Z',
        exitTime: '2025-07-14T22:41:55.000Z',
        quantity: '1',
        entryPrice: '22950.5',
        exitPrice: '22962.25',
        grossPnl: -2350,
        commission: 220,
        netPnl: -2570,
      },
    ]);
    // 18:30 New York time: the next trading day's overnight session.
    expect(preview.trades.map((t) => [t.tradingDay, t.session])).toEqual([
      ['2025-07-14', 'AM'],
      ['2025-07-15', 'Overnight'],
    ]);
    expect(preview.ignored).toEqual({ 'option rows': 1 });
    expect(preview.trades.every((t) => t.account === '12345678')).toBe(true);
  });

  it('without its money sections the trade history still imports, to the minute, and the fee schedule applies', () => {
    const text = own('thinkorswim-futures-statement.csv');
    const historyOnly = text.slice(text.indexOf('Account Trade History'));
    const preview = expectPreview(parseImport(historyOnly, { timeZone: 'America/New_York' }));
    expect(preview.trades.map((t) => [t.contract, t.entryTime, t.commission])).toEqual([
      ['MESU5', '2025-07-14T13:45:00.000Z', 0],
      ['MNQU5', '2025-07-14T22:30:00.000Z', 0],
    ]);
    expect([preview.minutePrecision, preview.costsInFile]).toEqual([true, false]);
  });
});
