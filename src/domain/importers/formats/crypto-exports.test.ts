import { describe, expect, it } from 'vitest';
import { parseImport } from '../index';
import { expectPreview, viewTrade } from '../testing';

/**
 * The crypto exchanges' own trade-history exports: one row per fill, read into the same contracts a connection to the
 * exchange gives (so the two are one trade), money in the settlement currency, fees in another asset left out.
 */
describe("Binance's USD-M futures trade history", () => {
  const header = 'Date(UTC),Symbol,Side,Price,Quantity,Amount,Fee,Fee Coin,Realized Profit,Quote Asset';

  it('two buys and a sell of BTCUSDT, newest first as Binance writes it, in UTC whatever the import zone', () => {
    const csv = [
      header,
      '2026-03-03 17:00:00,BTCUSDT,SELL,60500,0.015,907.5,0.363,USDT,6.00000000,USDT',
      '2026-03-03 13:10:00,BTCUSDT,BUY,60300,0.005,301.5,0.1206,USDT,0,USDT',
      '2026-03-03 13:00:00,BTCUSDT,BUY,60000,0.010,600,0.24,USDT,0,USDT',
    ].join('\n');
    const preview = expectPreview(parseImport(csv, { timeZone: 'Asia/Tokyo' }));
    expect(preview.format.id).toBe('binance-futures');
    expect(preview.trades.map(viewTrade)).toEqual([
      {
        contract: 'BINANCE:BTCUSDT.P',
        symbol: 'BTC',
        side: 'Long',
        entryTime: '2026-03-03T13:00:00.000Z',
        exitTime: '2026-03-03T17:00:00.000Z',
        quantity: '0.015',
        entryPrice: '60100',
        exitPrice: '60500',
        grossPnl: 600,
        commission: 72,
        netPnl: 528,
      },
    ]);
    expect(preview.timeZoneCheck).toBeNull();
  });

  it('a close of a position opened before the file makes no trade; fees in BNB are left out and said so; spot-like symbols ignored', () => {
    const csv = [
      header,
      '2026-03-02 09:00:00,ETHUSDT,SELL,3050,1,3050,1.22,USDT,50,USDT',
      '2026-03-02 10:00:00,ETHUSDT,BUY,3000,1,3000,0.0004,BNB,0,USDT',
      '2026-03-02 11:00:00,ETHUSDT,SELL,3010,1,3010,1.204,USDT,10,USDT',
      '2026-03-02 12:00:00,ETHBTC,BUY,0.05,1,0.05,0.0001,ETH,0,BTC',
    ].join('\n');
    const preview = expectPreview(parseImport(csv, { timeZone: 'UTC' }));
    expect(preview.trades.map((t) => [t.contract, t.side, t.grossPnl, t.commission])).toEqual([['BINANCE:ETHUSDT.P', 'Long', 1000, 120]]);
    expect(preview.issues.map((i) => i.message)).toEqual([
      "1 fill closes a position opened before the file's first row: no trade is made of it",
      "Fees of 0.0004 BNB are kept out of the trades' commission: they were charged in BNB, not in the trades' currency",
    ]);
    expect(preview.ignored).toEqual({ 'rows of ETHBTC (not a USDT or USDC perpetual)': 1 });
  });
});

describe("Bybit's derivatives trade history", () => {
  it('executions with the size each closed, funding rows left out, a one-way reversal into two trades', () => {
    const csv = [
      'Symbol,Side,Exec Qty,Exec Price,Exec Fee,Fee Currency,Exec Type,Closed Size,Exec Time,Exec ID',
      'ETHUSDT,Buy,1,3000,1.65,USDT,Trade,0,1772546400000,e-1',
      'ETHUSDT,Sell,0,0,0.21,USDT,Funding,0,1772550000000,e-2',
      'ETHUSDT,Sell,3,3050,5.0325,USDT,Trade,1,1772553600000,e-3',
      'ETHUSDT,Buy,2,3000,3.3,USDT,Trade,2,1772557200000,e-4',
    ].join('\n');
    const preview = expectPreview(parseImport(csv, { timeZone: 'America/New_York' }));
    expect(preview.format.id).toBe('bybit-trades');
    expect(
      preview.trades.map((t) => [
        t.contract,
        t.symbol,
        t.side,
        t.quantity!.toString(),
        t.entryPrice!.toString(),
        t.exitPrice!.toString(),
        t.grossPnl,
      ]),
    ).toEqual([
      ['BYBIT:ETHUSDT.P', 'ETH', 'Long', '1', '3000', '3050', 5000],
      ['BYBIT:ETHUSDT.P', 'ETH', 'Short', '2', '3050', '3000', 10000],
    ]);
    expect(preview.ignored).toEqual({ 'funding rows': 1 });
  });
});

describe("Hyperliquid's trade history", () => {
  it('directions in words, times as the screen showed them in the import zone, spot fills left out', () => {
    const csv = [
      'time,coin,dir,px,sz,ntl,fee,closedPnl',
      '03/03/2026 - 09:00:00,BTC,Open Long,60000,0.1,6000,2.1,-2.1',
      '03/03/2026 - 10:00:00,PURR/USDC,Buy,0.2,10,2,0.001,0',
      '03/03/2026 - 12:00:00,BTC,Close Long,61000,0.1,6100,2.135,97.865',
    ].join('\n');
    const preview = expectPreview(parseImport(csv, { timeZone: 'America/New_York' }));
    expect(preview.format.id).toBe('hyperliquid-trades');
    expect(preview.trades.map(viewTrade)).toEqual([
      {
        contract: 'HYPERLIQUID:BTCUSDC.P',
        symbol: 'BTC',
        side: 'Long',
        entryTime: '2026-03-03T14:00:00.000Z',
        exitTime: '2026-03-03T17:00:00.000Z',
        quantity: '0.1',
        entryPrice: '60000',
        exitPrice: '61000',
        grossPnl: 10000,
        commission: 424,
        netPnl: 9576,
      },
    ]);
    expect(preview.ignored).toEqual({ 'spot fills': 1 });
  });
});
