import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../index';
import { expectPreview, viewTrade } from '../testing';

const real = (path: string) => readFileSync(new URL(`../../../../../shared/fixtures/brokers/${path}`, import.meta.url), 'utf8');

describe('TopstepX trades export', () => {
  it('TopSignal sample (UTF-8 BOM, Commissions column): short 3 MNQU6, net of fees and commissions', () => {
    const preview = expectPreview(parseImport(real('topstepx-trades/topsignal__topstep_trade_export_utf8_bom.csv')));
    expect(preview.format.id).toBe('topstepx-trades');
    // 30182.50 - 30148.75 = 33.75 points x 3 x $2 = 202.50 (the file's PnL); Fees 2.22 + Commissions 1.50 = 3.72
    expect(preview.trades.map(viewTrade)).toEqual([
      {
        contract: 'MNQU6',
        symbol: 'MNQ',
        side: 'Short',
        entryTime: '2026-07-02T14:10:08.000Z',
        exitTime: '2026-07-02T14:10:48.000Z',
        quantity: '3',
        entryPrice: '30182.5',
        exitPrice: '30148.75',
        grossPnl: 20250,
        commission: 372,
        netPnl: 19878,
      },
    ]);
    expect(preview.trades[0]!.tags).toEqual(['Imported', 'Direct-Parse', 'Winner', 'MNQ', 'AM', 'Short', 'High-Impact']);
  });

  describe('AngryBuhda sample (486 rows, older 12-column layout)', () => {
    const text = real('topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv');
    const preview = expectPreview(parseImport(text));
    const lines = text
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((line) => line.split(','));
    const cents = (value: string) => Math.round(Number(value) * 100);

    it("gross and fees add up to the file's PnL and Fees columns; MBT ($0.10) and MGC ($10) included", () => {
      expect(preview.issues).toEqual([]);
      expect(preview.rowCount).toBe(486);
      expect(preview.totals.grossPnl).toBe(lines.reduce((sum, l) => sum + cents(l[7]!), 0));
      expect(preview.totals.commission).toBe(lines.reduce((sum, l) => sum + cents(l[6]!), 0));
      expect(new Set(preview.trades.map((t) => t.symbol))).toEqual(new Set(['MNQ', 'MES', 'MBT', 'MGC']));
    });

    it("an overnight scale-in (three rows, one ExitedAt) is one long of 4, filed under TopstepX's own TradeDay", () => {
      // 902351617/618/619: 1 @ 20029, 1 @ 20031.25, 2 @ 19992.25 = 80044.75; all out at 20012 = 80048: +3.25 x $2
      const trade = preview.trades.find((t) => t.entryTime === '2025-05-07T02:04:12.000Z')!;
      expect(viewTrade(trade)).toEqual({
        contract: 'MNQM5',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2025-05-07T02:04:12.000Z',
        exitTime: '2025-05-07T11:26:09.000Z',
        quantity: '4',
        entryPrice: '20011.1875',
        exitPrice: '20012',
        grossPnl: 650,
        commission: 296,
        netPnl: 354,
      });
      // 22:04 New York time on Tuesday 6 May: the CME session of Wednesday 7 May, as the file's TradeDay says.
      expect([trade.tradingDay, trade.dayOfWeek, trade.session]).toEqual(['2025-05-07', 'Wednesday', 'Overnight']);
      expect([trade.entryFills, trade.exitFills]).toEqual([3, 3]);
      expect(trade.tags).toContain('Multi-Position');
    });

    it('a break-even MGC pair joins its twin entered one second later', () => {
      // 954880139 1 @ 3306.8 and 954880140 1 @ 3306.7, both out at 3306.8: 0 + 0.1 x $10 = 1.00; fees 2 x 1.24
      const trade = preview.trades.find((t) => t.entryTime === '2025-05-21T13:14:21.000Z')!;
      expect(viewTrade(trade)).toMatchObject({
        contract: 'MGCM5',
        side: 'Long',
        quantity: '2',
        entryPrice: '3306.75',
        exitPrice: '3306.8',
        grossPnl: 100,
        commission: 248,
        netPnl: -148,
      });
      expect(trade.result).toBe('Loss');
    });
  });
});

describe('TopstepX orders export', () => {
  const preview = expectPreview(parseImport(real('topstepx-orders/knealy-tradebotserver__orders_export.csv')));

  it('Filled orders only: rejected, cancelled and still-open orders are ignored', () => {
    expect(preview.format.id).toBe('topstepx-orders');
    expect(preview.ignored).toEqual({ 'rejected orders': 1, 'cancelled orders': 14, 'open orders': 2 });
    expect(preview.issues).toEqual([]);
  });

  it('Ask/Bid fills rebuilt in FilledAt order give seven round trips that agree with the ClosePosition orders', () => {
    // Worked by hand from the file sorted by FilledAt (times -04:00):
    // MNQZ5 short: Ask 2 @ 25294.25, 1 @ 25293.50, 2 @ 25295.75, 1 @ 25295.75 (151769.25); Bid 6 @ 25285.50 (151713)
    // MNQZ5 long: Bid 6 @ 25277.75, 6 @ 25261.50, 9 @ 25274.50, 9 @ 25253.50 (757987.50); Ask 2 @ 25279,
    //   1 @ 25277.75 and the ClosePosition 27 @ 25250 (757585.75)
    // MESZ5: short 2 @ 6794 + 1 @ 6794.25, covered 3 @ 6791.75; short 3 @ 6791.75, covered @ 6790.75;
    //   long 3 @ 6787.25 + 3 @ 6786.75, ClosePosition 6 @ 6781.50
    // MGCZ5 ($10): short 2 @ 4019.8 + 1 @ 4019.9, stopped 3 @ 4040.4; long 3 @ 4040.5 (the other stop, same second,
    //   higher Id), out 2 @ 4017.7 + 1 @ 4016.7
    expect(
      preview.trades.map((t) => [
        t.contract,
        t.side,
        t.entryTime,
        t.exitTime,
        t.quantity!.toString(),
        t.entryPrice!.toString(),
        t.exitPrice!.toString(),
        t.grossPnl,
      ]),
    ).toEqual([
      ['MNQZ5', 'Short', '2025-10-09T13:38:48.000Z', '2025-10-09T13:40:51.000Z', '6', '25294.875', '25285.5', 11250],
      ['MNQZ5', 'Long', '2025-10-09T13:41:41.000Z', '2025-10-09T14:21:20.000Z', '30', '25266.25', '25252.85833333', -80350],
      ['MESZ5', 'Short', '2025-10-09T13:47:23.000Z', '2025-10-09T13:52:00.000Z', '3', '6794.08333333', '6791.75', 3500],
      ['MESZ5', 'Short', '2025-10-09T13:52:04.000Z', '2025-10-09T13:53:01.000Z', '3', '6791.75', '6790.75', 1500],
      ['MESZ5', 'Long', '2025-10-09T13:55:39.000Z', '2025-10-09T14:21:20.000Z', '6', '6787', '6781.5', -16500],
      ['MGCZ5', 'Short', '2025-10-09T14:34:41.000Z', '2025-10-09T14:52:51.000Z', '3', '4019.83333333', '4040.4', -61700],
      ['MGCZ5', 'Long', '2025-10-09T14:52:51.000Z', '2025-10-09T16:34:48.000Z', '3', '4040.5', '4017.36666667', -69400],
    ]);
    expect(preview.trades.every((t) => t.account === 'PRAC-V2-14334-54169883' && t.commission === 0)).toBe(true);
  });

  it('the MGC limit bought at 13:13:39 is still open at the end of the file', () => {
    expect(preview.openPositions.map((p) => [p.contract, p.side, p.quantity.toString(), p.averagePrice.toString(), p.openedAt])).toEqual([
      ['MGCZ5', 'Long', '2', '3969.6', '2025-10-09T17:13:39.000Z'],
    ]);
  });
});

describe('NinjaTrader 8 Trades grid', () => {
  it("FreeTradeJournal sample: 'MNQ SEP26' is MNQU6; Profit is net, so costs are gross minus Profit", () => {
    const preview = expectPreview(parseImport(real('ninjatrader-trades/freetradejournal__ninjatrader-grid.csv'), { timeZone: 'America/New_York' }));
    expect(preview.format.id).toBe('ninjatrader-trades');
    const row = (side: string, entry: string, exit: string, entryPrice: string, exitPrice: string, gross: number, net: number) => ({
      contract: 'MNQU6',
      symbol: 'MNQ',
      side,
      entryTime: entry,
      exitTime: exit,
      quantity: '1',
      entryPrice,
      exitPrice,
      grossPnl: gross,
      commission: gross - net,
      netPnl: net,
    });
    expect(preview.trades.map(viewTrade)).toEqual([
      row('Long', '2026-07-02T13:12:00.000Z', '2026-07-02T13:13:00.000Z', '30220', '30245', 5000, 4810),
      row('Short', '2026-07-02T13:17:00.000Z', '2026-07-02T13:18:00.000Z', '30151.25', '30126.25', 5000, 4810),
      // in and out within the minute 9:23: the exit of a position opened the same minute comes after its entry
      row('Long', '2026-07-02T13:23:00.000Z', '2026-07-02T13:23:00.000Z', '30123.75', '30086.75', -7400, -7590),
      row('Short', '2026-07-02T13:27:00.000Z', '2026-07-02T13:27:00.000Z', '29968', '29943', 5000, 4810),
      row('Long', '2026-07-02T13:31:00.000Z', '2026-07-02T13:32:00.000Z', '29997.75', '29971', -5350, -5540),
      row('Short', '2026-07-02T13:41:00.000Z', '2026-07-02T13:42:00.000Z', '29853.5', '29828.5', 5000, 4810),
    ]);
    expect(preview.trades.every((t) => t.commission === 190 && t.account === 'DEMO6557236')).toBe(true);
    expect(preview.trades.map((t) => t.netPnl).reduce((a, b) => a + b)).toBe(4810 * 4 - 7590 - 5540);
    expect(preview.rowCount).toBe(6);
  });

  it("reads 'MNQ 12-25' names and AM/PM times, and falls back to the Commission column when the root is unknown", () => {
    const csv = [
      'Trade number,Instrument,Account,Market pos.,Qty,Entry price,Exit price,Entry time,Exit time,Profit,Commission',
      '1,MNQ 12-25,Sim101,Short,2,21000.25,20990.25,11/3/2025 1:05:10 PM,11/3/2025 1:20:00 PM,$38.96 ,$1.04 ',
      '2,XYZ 12-25,Sim101,Long,1,10,11,11/3/2025 2:05:10 PM,11/3/2025 2:20:00 PM,$0.50 ,$0.50 ',
    ].join('\n');
    const preview = expectPreview(parseImport(csv, { timeZone: 'America/Chicago' }));
    expect(viewTrade(preview.trades[0]!)).toEqual({
      contract: 'MNQZ5',
      symbol: 'MNQ',
      side: 'Short',
      entryTime: '2025-11-03T19:05:10.000Z',
      exitTime: '2025-11-03T19:20:00.000Z',
      quantity: '2',
      entryPrice: '21000.25',
      exitPrice: '20990.25',
      grossPnl: 4000,
      commission: 104,
      netPnl: 3896,
    });
    expect(preview.trades[0]!.session).toBe('PM');
    expect(viewTrade(preview.trades[1]!)).toMatchObject({ contract: 'XYZZ5', grossPnl: 100, commission: 50, netPnl: 50 });
    expect(preview.issues).toEqual([{ row: 3, severity: 'warning', message: expect.stringContaining('Unknown futures root XYZ') }]);
  });
});

describe('NinjaTrader grid with minutes only (fixtures/ninjatrader-same-minute.csv)', () => {
  const own = readFileSync(new URL('../fixtures/ninjatrader-same-minute.csv', import.meta.url), 'utf8');
  const preview = expectPreview(parseImport(own, { timeZone: 'America/New_York' }));

  it('a scale-out and an add in the same minute stay one position: one long of 3, marked ambiguous', () => {
    // Long 2 @ 21000 at 9:30; at 9:31 one more @ 21002 and the first 2 out @ 21005; the last out @ 21010 at 9:36.
    const trade = preview.trades.find((t) => t.entryTime === '2025-09-02T13:30:00.000Z')!;
    expect(viewTrade(trade)).toEqual({
      contract: 'MNQU5',
      symbol: 'MNQ',
      side: 'Long',
      entryTime: '2025-09-02T13:30:00.000Z',
      exitTime: '2025-09-02T13:36:00.000Z',
      // (2 x 21000 + 21002) / 3 and (2 x 21005 + 21010) / 3; 18 points x $2; costs = gross - Profit = 3.80 + 1.90
      quantity: '3',
      entryPrice: '21000.66666667',
      exitPrice: '21006.66666667',
      grossPnl: 3600,
      commission: 570,
      netPnl: 3030,
    });
    expect([trade.entryFills, trade.exitFills]).toEqual([2, 2]);
    expect(trade.ambiguity).toMatch(/share a minute/);
    expect(trade.rows).toEqual([2, 3]);
    expect(preview.issues).toContainEqual({
      row: 2,
      severity: 'warning',
      message: expect.stringContaining('MNQU5 Long: An exit and an entry share a minute'),
    });
  });

  it('two rows with the same exit time and price are one exit fill: a short of 2 covered at once, not ambiguous', () => {
    const trade = preview.trades.find((t) => t.entryTime === '2025-09-02T13:40:00.000Z')!;
    expect(viewTrade(trade)).toEqual({
      contract: 'MNQU5',
      symbol: 'MNQ',
      side: 'Short',
      entryTime: '2025-09-02T13:40:00.000Z',
      exitTime: '2025-09-02T13:45:00.000Z',
      quantity: '2',
      entryPrice: '21019',
      exitPrice: '21010',
      grossPnl: 3600,
      commission: 380,
      netPnl: 3220,
    });
    expect([trade.entryFills, trade.exitFills]).toEqual([2, 1]);
    expect(trade.ambiguity).toBeUndefined();
  });

  it('an exit and an opposite entry in one minute are a reversal: two trades, neither ambiguous', () => {
    const long = preview.trades.find((t) => t.entryTime === '2025-09-02T13:50:00.000Z')!;
    const short = preview.trades.find((t) => t.entryTime === '2025-09-02T13:52:00.000Z')!;
    expect(viewTrade(long)).toMatchObject({ side: 'Long', quantity: '1', exitTime: '2025-09-02T13:52:00.000Z', grossPnl: 800, commission: 190 });
    expect(viewTrade(short)).toMatchObject({ side: 'Short', quantity: '1', exitTime: '2025-09-02T13:55:00.000Z', grossPnl: 600, commission: 190 });
    expect([long.ambiguity, short.ambiguity]).toEqual([undefined, undefined]);
    expect(preview.trades).toHaveLength(4);
  });

  it('two entries and one exit inside one minute may have been two trades: read as one, marked ambiguous', () => {
    const csv = [
      'Instrument,Account,Market pos.,Qty,Entry price,Exit price,Entry time,Exit time,Profit,Commission',
      'MES DEC25,Sim101,Long,1,6500,6502,11/3/2025 10:05,11/3/2025 10:05,$8.10 ,$0.95 ',
      'MES DEC25,Sim101,Long,1,6501,6504,11/3/2025 10:05,11/3/2025 10:07,$13.10 ,$0.95 ',
    ].join('\n');
    const [trade, ...rest] = expectPreview(parseImport(csv, { timeZone: 'America/New_York' })).trades;
    expect(rest).toEqual([]);
    expect(viewTrade(trade!)).toMatchObject({ quantity: '2', entryPrice: '6500.5', exitPrice: '6503', grossPnl: 2500, commission: 380 });
    expect(trade!.ambiguity).toMatch(/share a minute/);
  });

  it("two rows alike in the same minute are two fills each side, so the trade is tagged 'Multi-Position'; one row is not", () => {
    const csv = [
      'Instrument,Account,Market pos.,Qty,Entry price,Exit price,Entry time,Exit time,Profit,Commission',
      // Two lots bought at 6500 in the 10:05 minute and sold at 6504 in the 10:07 minute, by two orders: two rows alike.
      'MES DEC25,Sim101,Long,1,6500,6504,11/3/2025 10:05,11/3/2025 10:07,$19.05 ,$0.95 ',
      'MES DEC25,Sim101,Long,1,6500,6504,11/3/2025 10:05,11/3/2025 10:07,$19.05 ,$0.95 ',
      // One row of two lots: one fill each side.
      'MES DEC25,Sim101,Short,2,6510,6508,11/3/2025 10:20,11/3/2025 10:22,$18.10 ,$1.90 ',
    ].join('\n');
    const [pair, single] = expectPreview(parseImport(csv, { timeZone: 'America/New_York' })).trades;
    expect(viewTrade(pair!)).toMatchObject({ quantity: '2', entryPrice: '6500', exitPrice: '6504', grossPnl: 4000, netPnl: 3810 });
    expect([pair!.entryFills, pair!.exitFills]).toEqual([2, 2]);
    expect(pair!.tags).toContain('Multi-Position');
    expect([single!.entryFills, single!.exitFills]).toEqual([1, 1]);
    expect(single!.tags).not.toContain('Multi-Position');
  });

  it('with seconds in the times, the same rows are read exactly and nothing is ambiguous', () => {
    const withSeconds = own.replace(/(\d{1,2}:\d{2})(,)/g, '$1:00$2');
    const exact = expectPreview(parseImport(withSeconds, { timeZone: 'America/New_York' }));
    expect(exact.trades.every((t) => t.ambiguity === undefined)).toBe(true);
  });
});
