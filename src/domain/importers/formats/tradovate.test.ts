import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../index';
import { expectPreview, viewTrade } from '../testing';

const real = (path: string) => readFileSync(new URL(`../../../../../shared/fixtures/brokers/${path}`, import.meta.url), 'utf8');
const own = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

/** Sums a money column of a Tradovate file independently of the importer: `$(12.50)`, `"$1,200.00"`, `-12.50`. */
function sumColumnCents(text: string, column: number): number {
  return text
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, '').replace(/"/g, ''))[column] ?? '')
    .filter((cell) => cell !== '')
    .reduce((sum, cell) => {
      const negative = cell.includes('(') || cell.startsWith('-');
      const cents = Math.round(Number(cell.replace(/[$(),\-]/g, '')) * 100);
      return sum + (negative ? -cents : cents);
    }, 0);
}

describe('Tradovate Performance.csv', () => {
  it('FreeTradeJournal sample: a $(400.00) loss and a "$1,200.00" win, 5 MNQM6 each', () => {
    const preview = expectPreview(
      parseImport(real('tradovate-performance/freetradejournal__tradovate-trades-performance.csv'), { timeZone: 'America/New_York' }),
    );
    expect(preview.format.id).toBe('tradovate-performance');
    expect(preview.trades.map(viewTrade)).toEqual([
      // 28491.75 - 28531.75 = -40 points x 5 x $2
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2026-06-10T20:00:05.000Z',
        exitTime: '2026-06-10T20:00:29.000Z',
        quantity: '5',
        entryPrice: '28531.75',
        exitPrice: '28491.75',
        grossPnl: -40000,
        commission: 0,
        netPnl: -40000,
      },
      // 29382 - 29262 = 120 points x 5 x $2
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2026-06-12T13:45:49.000Z',
        exitTime: '2026-06-12T13:57:07.000Z',
        quantity: '5',
        entryPrice: '29262',
        exitPrice: '29382',
        grossPnl: 120000,
        commission: 0,
        netPnl: 120000,
      },
    ]);
    // Entered 16:00:05 New York time: after the cash close, the exchange's After Hours.
    expect(preview.trades[0]!.session).toBe('After Hours');
    expect(preview.trades[0]!.tags).toEqual(['Imported', 'Direct-Parse', 'Loser', 'MNQ', 'After Hours', 'Long', 'High-Impact']);
    expect(preview.trades[1]!.tradeDate).toBe('2026-06-12T12:00:00.000Z');
    expect(preview.issues).toEqual([]);
  });

  it('aiTradeReports sample: a sell fill answered by five buys is one short round trip, not six trades', () => {
    const text = real('tradovate-performance/arielsofer-aitradereports__Performance (1).csv');
    const preview = expectPreview(parseImport(text, { timeZone: 'America/New_York' }));
    // Sells 654 2@25276.25, 694 1@25220, 752 2@25204.50, 782 2@25234.50 = 176650.50; buys 668 1@25255.75,
    // 709 1@25179.75, 769 2@25237.25, 796 1@25177, 809 2@25269.25 = 176625.50. Position: -2 -1 -2 -1 -3 -1 -3 -2 0.
    const short = preview.trades.find((t) => t.entryTime === '2025-12-18T21:34:06.000Z')!;
    expect(viewTrade(short)).toEqual({
      contract: 'MNQH6',
      symbol: 'MNQ',
      side: 'Short',
      entryTime: '2025-12-18T21:34:06.000Z',
      exitTime: '2025-12-18T21:57:47.000Z',
      quantity: '7',
      entryPrice: '25235.78571429',
      exitPrice: '25232.21428571',
      grossPnl: 5000,
      commission: 0,
      netPnl: 5000,
    });
    expect([short.entryFills, short.exitFills]).toEqual([4, 5]);
    expect(short.tags).toContain('Multi-Position');
    expect(short.rows).toEqual([16, 17, 18, 19, 20, 21]);

    // Buy fill 343483140514 (5 @ 25156.25) split over two rows against sells 529 (3) and 538 (2), both 25118.50.
    const split = preview.trades.find((t) => t.entryTime === '2025-12-17T22:49:00.000Z')!;
    expect(viewTrade(split)).toMatchObject({ side: 'Long', quantity: '5', entryPrice: '25156.25', exitPrice: '25118.5', grossPnl: -37750 });
    expect([split.entryFills, split.exitFills]).toEqual([1, 2]);

    // YM at $5 a point: sold 48456 at 17:12:53, bought back 48398 at 17:16:38.
    const ym = preview.trades.find((t) => t.contract === 'YMZ5')!;
    expect(viewTrade(ym)).toMatchObject({ side: 'Short', quantity: '1', entryPrice: '48456', exitPrice: '48398', grossPnl: 29000 });

    // Every pair's pnl is in exactly one trade: the totals agree with the file's own pnl column to the cent.
    expect(preview.totals.grossPnl).toBe(sumColumnCents(text, 9));
    // The file's clock is not New York's (fills in the 17:00 halt; see zone-check.test.ts): the only remark.
    expect(preview.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^Read as America\/New_York time, 30 of 89 fills fall while the exchange is closed/),
    ]);
  });

  it('stephenkgli sample read as UTC+8 wall clock: US session trades land on the right New York day', () => {
    const text = real('tradovate-performance/stephenkgli-trading-records__Performance.csv');
    const preview = expectPreview(parseImport(text, { timeZone: 'Asia/Shanghai' }));
    const first = preview.trades[0]!;
    // 01/22/2025 23:02:03 in Shanghai = 15:02:03Z = 10:02:03 New York (EST): AM of Wednesday 2025-01-22.
    expect(viewTrade(first)).toEqual({
      contract: 'MESH5',
      symbol: 'MES',
      side: 'Long',
      entryTime: '2025-01-22T15:02:03.000Z',
      exitTime: '2025-01-22T16:30:16.000Z',
      quantity: '1',
      entryPrice: '6117.75',
      exitPrice: '6130.25',
      grossPnl: 6250,
      commission: 0,
      netPnl: 6250,
    });
    expect([first.tradingDay, first.dayOfWeek, first.session]).toEqual(['2025-01-22', 'Wednesday', 'AM']);
    expect(preview.totals.grossPnl).toBe(sumColumnCents(text, 9));
    // Four contract months (H5, M5, U5, Z5): rollovers stay separate contracts of one instrument.
    expect(new Set(preview.trades.map((t) => t.contract))).toEqual(new Set(['MESH5', 'MESM5', 'MESU5', 'MESZ5']));
    expect(new Set(preview.trades.map((t) => t.symbol))).toEqual(new Set(['MES']));
    expect(preview.openPositions).toEqual([]);
    expect(preview.issues).toEqual([]);
  });

  describe('own scenarios (fixtures/tradovate-performance-scenarios.csv, New York times)', () => {
    const preview = expectPreview(parseImport(own('tradovate-performance-scenarios.csv'), { timeZone: 'America/New_York' }));
    const byEntry = (iso: string) => preview.trades.find((t) => t.entryTime === iso)!;

    it('scale-in: 1 @ 21000 then 2 @ 20990, all out at 21010', () => {
      const trade = byEntry('2025-01-06T14:31:00.000Z');
      expect(viewTrade(trade)).toEqual({
        contract: 'MNQH5',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2025-01-06T14:31:00.000Z',
        exitTime: '2025-01-06T14:50:00.000Z',
        quantity: '3',
        entryPrice: '20993.33333333',
        exitPrice: '21010',
        grossPnl: 10000,
        commission: 0,
        netPnl: 10000,
      });
      expect(trade.tags).toEqual(['Imported', 'Direct-Parse', 'Winner', 'MNQ', 'AM', 'Long', 'High-Impact', 'Multi-Position']);
    });

    it('short with partial exits: 4 sold at 5900, 1 covered at 5895, 3 at 5905 (ES $50)', () => {
      expect(viewTrade(byEntry('2025-01-06T15:15:00.000Z'))).toEqual({
        contract: 'ESH5',
        symbol: 'ES',
        side: 'Short',
        entryTime: '2025-01-06T15:15:00.000Z',
        exitTime: '2025-01-06T15:40:00.000Z',
        quantity: '4',
        entryPrice: '5900',
        exitPrice: '5902.5',
        grossPnl: -50000,
        commission: 0,
        netPnl: -50000,
      });
    });

    it('reversal: long 1, one sell of 3 closes it and opens a short 2', () => {
      const long = byEntry('2025-01-07T17:30:00.000Z');
      const short = byEntry('2025-01-07T17:45:00.000Z');
      expect(viewTrade(long)).toMatchObject({
        side: 'Long',
        quantity: '1',
        entryPrice: '6000',
        exitPrice: '6004',
        grossPnl: 2000,
        exitTime: '2025-01-07T17:45:00.000Z',
      });
      expect(viewTrade(short)).toMatchObject({
        side: 'Short',
        quantity: '2',
        entryPrice: '6004',
        exitPrice: '6001',
        grossPnl: 3000,
        exitTime: '2025-01-07T18:10:00.000Z',
      });
      expect([long.session, short.session]).toEqual(['Lunch', 'Lunch']);
      expect(short.tags).not.toContain('Multi-Position');
    });

    it('break-even: BE result, Breakeven tag, no impact tag', () => {
      const trade = byEntry('2025-01-07T19:05:00.000Z');
      expect([trade.netPnl, trade.result, trade.session]).toEqual([0, 'BE', 'PM']);
      expect(trade.tags).toEqual(['Imported', 'Direct-Parse', 'Breakeven', 'MNQ', 'PM', 'Long']);
    });

    it('evening short in MYM ($0.50 a point): entered 21:30 Tuesday, filed under Wednesday, the CME session it opened in', () => {
      const trade = byEntry('2025-01-08T02:30:00.000Z');
      expect(viewTrade(trade)).toMatchObject({
        side: 'Short',
        quantity: '2',
        entryPrice: '42000',
        exitPrice: '41990',
        grossPnl: 1000,
        exitTime: '2025-01-08T08:15:00.000Z',
      });
      expect([trade.tradingDay, trade.dayOfWeek, trade.session, trade.tradeDate]).toEqual([
        '2025-01-08',
        'Wednesday',
        'Overnight',
        '2025-01-08T12:00:00.000Z',
      ]);
    });

    it('rollover day: MNQH5 and MNQM5 are separate contracts of the instrument MNQ', () => {
      const trades = preview.trades.filter((t) => t.tradingDay === '2025-03-14');
      expect(trades.map((t) => [t.symbol, t.contract, t.grossPnl])).toEqual([
        ['MNQ', 'MNQH5', 2000],
        ['MNQ', 'MNQM5', -1000],
      ]);
    });

    it("daylight saving: Friday 7 Mar 2025 15:00 is EST (20:00Z), Monday 10:00 and Sunday 9 Mar 18:30 are EDT (Monday's session)", () => {
      const overWeekend = byEntry('2025-03-07T20:00:00.000Z');
      // 5 MES held from Friday 15:00 EST to Monday 10:00 EDT: 50 points x 5 x $5, the file's "$1,250.00"
      expect(viewTrade(overWeekend)).toMatchObject({ contract: 'MESM5', quantity: '5', exitTime: '2025-03-10T14:00:00.000Z', grossPnl: 125000 });
      const sunday = byEntry('2025-03-09T22:30:00.000Z');
      expect([sunday.tradingDay, sunday.dayOfWeek, sunday.session]).toEqual(['2025-03-10', 'Monday', 'Overnight']);
    });

    it('P&L of the file agrees with the prices (no warnings), nothing left open', () => {
      expect(preview.trades).toHaveLength(10);
      expect(preview.issues).toEqual([]);
      expect(preview.openPositions).toEqual([]);
    });
  });
});

describe('Tradovate Position History', () => {
  it('tradetally sample: five round trips of one day-position, newest first in the file', () => {
    const preview = expectPreview(
      parseImport(real('tradovate-position-history/tradetally__tradovate-paired-trades-sample.csv'), { timeZone: 'America/New_York' }),
    );
    expect(preview.format.id).toBe('tradovate-position-history');
    expect(preview.trades.map(viewTrade)).toEqual([
      // sold 5 @ 25073.75 at 15:30:37, bought back @ 25082.75 at 15:30:48: -9 x 5 x $2
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Short',
        entryTime: '2026-04-09T19:30:37.000Z',
        exitTime: '2026-04-09T19:30:48.000Z',
        quantity: '5',
        entryPrice: '25073.75',
        exitPrice: '25082.75',
        grossPnl: -9000,
        commission: 0,
        netPnl: -9000,
      },
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Short',
        entryTime: '2026-04-09T19:36:31.000Z',
        exitTime: '2026-04-09T19:37:06.000Z',
        quantity: '2',
        entryPrice: '25051',
        exitPrice: '25064',
        grossPnl: -5200,
        commission: 0,
        netPnl: -5200,
      },
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2026-04-09T19:37:35.000Z',
        exitTime: '2026-04-09T19:38:00.000Z',
        quantity: '2',
        entryPrice: '25053.75',
        exitPrice: '25044',
        grossPnl: -3900,
        commission: 0,
        netPnl: -3900,
      },
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2026-04-09T19:38:40.000Z',
        exitTime: '2026-04-09T19:40:03.000Z',
        quantity: '1',
        entryPrice: '25060.75',
        exitPrice: '25048.5',
        grossPnl: -2450,
        commission: 0,
        netPnl: -2450,
      },
      // bought and sold in the same second: the fill ids (203 < 221) say the buy came first, so it is a long
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2026-04-09T21:14:44.000Z',
        exitTime: '2026-04-09T21:14:44.000Z',
        quantity: '5',
        entryPrice: '25073.25',
        exitPrice: '25072',
        grossPnl: -1250,
        commission: 0,
        netPnl: -1250,
      },
    ]);
    expect(preview.trades.every((t) => t.account === 'APEX4977960000002')).toBe(true);
  });

  it('wealth.-Investing sample: MES and NQ round trips, and the open ES position is reported, not imported', () => {
    const preview = expectPreview(
      parseImport(real('tradovate-position-history/pxdrx-wealth-investing__Position History (1).csv'), { timeZone: 'America/New_York' }),
    );
    expect(preview.trades.map(viewTrade)).toEqual([
      // 13.5 points x 14 x $5
      {
        contract: 'MESM6',
        symbol: 'MES',
        side: 'Long',
        entryTime: '2026-04-13T13:40:47.000Z',
        exitTime: '2026-04-13T14:23:44.000Z',
        quantity: '14',
        entryPrice: '6816.75',
        exitPrice: '6830.25',
        grossPnl: 94500,
        commission: 0,
        netPnl: 94500,
      },
      // NQ at $20: sold 25408.75, bought back 25436
      {
        contract: 'NQM6',
        symbol: 'NQ',
        side: 'Short',
        entryTime: '2026-04-13T18:50:08.000Z',
        exitTime: '2026-04-13T19:46:53.000Z',
        quantity: '1',
        entryPrice: '25408.75',
        exitPrice: '25436',
        grossPnl: -54500,
        commission: 0,
        netPnl: -54500,
      },
      {
        contract: 'MESM6',
        symbol: 'MES',
        side: 'Long',
        entryTime: '2026-04-14T15:10:48.000Z',
        exitTime: '2026-04-14T16:43:26.000Z',
        quantity: '7',
        entryPrice: '6965.5',
        exitPrice: '6992.75',
        grossPnl: 95375,
        commission: 0,
        netPnl: 95375,
      },
    ]);
    expect(preview.openPositions).toHaveLength(1);
    const open = preview.openPositions[0]!;
    expect([open.contract, open.side, open.quantity.toString(), open.averagePrice.toString(), open.account, open.rows]).toEqual([
      'ESM6',
      'Long',
      '1',
      '7013.75',
      'LFE1007363489002',
      [5],
    ]);
  });
});

describe('Tradovate Orders.csv', () => {
  it('FreeTradeJournal sample: six filled round trips; the 16 cancelled bracket legs are ignored', () => {
    const preview = expectPreview(
      parseImport(real('tradovate-orders/freetradejournal__tradovate-orders-history.csv'), { timeZone: 'America/New_York' }),
    );
    expect(preview.format.id).toBe('tradovate-orders');
    expect(preview.ignored).toEqual({ 'canceled orders': 16 });
    expect(preview.issues).toEqual([]);
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
      ['MNQM6', 'Long', '2026-06-10T20:00:05.000Z', '2026-06-10T20:00:29.000Z', '5', '28531.75', '28491.75', -40000],
      ['MNQM6', 'Long', '2026-06-12T13:45:49.000Z', '2026-06-12T13:57:07.000Z', '5', '29262', '29382', 120000],
      ['MNQU6', 'Long', '2026-06-16T13:10:14.000Z', '2026-06-16T14:19:37.000Z', '5', '30790', '30740.75', -49250],
      // bought 00:58 New York time: the overnight session of 19 June
      ['MNQU6', 'Long', '2026-06-19T04:58:19.000Z', '2026-06-19T06:26:58.000Z', '5', '30410', '30530', 120000],
      ['MNQU6', 'Long', '2026-06-22T16:01:34.000Z', '2026-06-22T17:50:48.000Z', '4', '30527.25', '30627.25', 80000],
      ['MNQU6', 'Long', '2026-06-26T02:49:18.000Z', '2026-06-26T02:56:02.000Z', '3', '29301', '29240.5', -36300],
    ]);
    // 16:00:05 After Hours, 09:45 AM, 09:10 (before the 09:30 open) and 00:58 Overnight, 12:01 Lunch, 22:49 Overnight.
    expect(preview.trades.map((t) => t.session)).toEqual(['After Hours', 'AM', 'Overnight', 'Overnight', 'Lunch', 'Overnight']);
    expect(preview.trades.every((t) => t.account === 'ACCT0000000000000')).toBe(true);
  });

  it('the same two trades from Orders.csv and Performance.csv have the same P&L', () => {
    const orders = expectPreview(parseImport(real('tradovate-orders/freetradejournal__tradovate-orders-history.csv'))).trades.slice(0, 2);
    const performance = expectPreview(parseImport(real('tradovate-performance/freetradejournal__tradovate-trades-performance.csv'))).trades;
    expect(orders.map((t) => [t.entryTime, t.exitTime, t.grossPnl])).toEqual(performance.map((t) => [t.entryTime, t.exitTime, t.grossPnl]));
  });
});

describe('a Tradovate Performance export re-saved by a European Excel', () => {
  // fixtures/tradovate-performance-european.csv: semicolons, decimal commas ($36,25, 2499,5, $(400,00)), a thousands
  // point (1.200,00 $) and day-first dates, as Excel writes them in a German or French locale.
  const preview = expectPreview(parseImport(own('tradovate-performance-european.csv'), { timeZone: 'America/New_York' }));

  it('reads every row, with the decimal comma and day-first dates said in the preview', () => {
    expect(preview.format.id).toBe('tradovate-performance');
    expect(preview.issues).toEqual([
      { row: 0, severity: 'warning', message: 'Numbers are written with a decimal comma (2499,5 is 2499.5) and were read so' },
      { row: 0, severity: 'warning', message: 'Dates are written day first (25/06/2026 is 25 June 2026) and were read so' },
    ]);
    expect(preview.rowCount).toBe(4);
  });

  it('field by field: the same two MNQ trades as the US file, and two MES trades with decimal prices', () => {
    expect(preview.trades.map(viewTrade)).toEqual([
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2026-06-10T20:00:05.000Z',
        exitTime: '2026-06-10T20:00:29.000Z',
        quantity: '5',
        entryPrice: '28531.75',
        exitPrice: '28491.75',
        grossPnl: -40000,
        commission: 0,
        netPnl: -40000,
      },
      {
        contract: 'MNQM6',
        symbol: 'MNQ',
        side: 'Long',
        entryTime: '2026-06-12T13:45:49.000Z',
        exitTime: '2026-06-12T13:57:07.000Z',
        quantity: '5',
        entryPrice: '29262',
        exitPrice: '29382',
        grossPnl: 120000,
        commission: 0,
        netPnl: 120000,
      },
      // 2506.75 - 2499.5 = 7.25 points x $5
      {
        contract: 'MESU6',
        symbol: 'MES',
        side: 'Long',
        entryTime: '2026-06-15T14:00:00.000Z',
        exitTime: '2026-06-15T14:05:00.000Z',
        quantity: '1',
        entryPrice: '2499.5',
        exitPrice: '2506.75',
        grossPnl: 3625,
        commission: 0,
        netPnl: 3625,
      },
      // sold 3 @ 2508.25 at 11:00, bought back @ 2510 at 11:02: -1.75 x 3 x $5
      {
        contract: 'MESU6',
        symbol: 'MES',
        side: 'Short',
        entryTime: '2026-06-15T15:00:00.000Z',
        exitTime: '2026-06-15T15:02:00.000Z',
        quantity: '3',
        entryPrice: '2508.25',
        exitPrice: '2510',
        grossPnl: -2625,
        commission: 0,
        netPnl: -2625,
      },
    ]);
    // The file's own pnl column agrees (no 'check the point value' warning above).
    expect(preview.totals.grossPnl).toBe(-40000 + 120000 + 3625 - 2625);
  });

  it('a semicolon file with decimal points is left alone', () => {
    const us = own('tradovate-performance-european.csv')
      .replace(/(\d),(\d)/g, '$1.$2')
      .replace(/1\.200\.00 \$/, '$1,200.00')
      .replace(/(\d{2})\/(\d{2})\/2026/g, '$2/$1/2026');
    const read = expectPreview(parseImport(us, { timeZone: 'America/New_York' }));
    expect(read.issues).toEqual([]);
    expect(read.trades.map(viewTrade)).toEqual(preview.trades.map(viewTrade));
  });
});

describe('a Tradovate Orders export of two evaluation accounts (fixtures/tradovate-orders-two-accounts.csv)', () => {
  const preview = expectPreview(parseImport(own('tradovate-orders-two-accounts.csv'), { timeZone: 'America/New_York' }));

  it('matches each account on its own: three round trips each, the cancelled order ignored, no costs in the file', () => {
    const view = (t: (typeof preview.trades)[number]) => [
      t.account,
      t.contract,
      t.side,
      t.entryTime,
      t.exitTime,
      t.quantity!.toString(),
      t.entryPrice!.toString(),
      t.exitPrice!.toString(),
      t.grossPnl,
    ];
    expect(preview.trades.map(view)).toEqual([
      ['APEX-1001', 'MNQU6', 'Long', '2026-07-07T13:35:10.000Z', '2026-07-07T13:41:30.000Z', '2', '23010.25', '23022.75', 5000],
      ['APEX-1002', 'MESU6', 'Short', '2026-07-07T13:36:02.000Z', '2026-07-07T13:44:12.000Z', '3', '6410.5', '6406.25', 6375],
      ['APEX-1001', 'MNQU6', 'Short', '2026-07-07T14:02:00.000Z', '2026-07-07T14:05:45.000Z', '1', '23030', '23035.5', -1100],
      ['APEX-1002', 'MESU6', 'Long', '2026-07-07T14:15:20.000Z', '2026-07-07T14:31:05.000Z', '2', '6412', '6418.75', 6750],
      // 1 @ 23040 and 1 @ 23036, both out at 23050: (10 + 14) x $2
      ['APEX-1001', 'MNQU6', 'Long', '2026-07-07T15:00:00.000Z', '2026-07-07T15:20:00.000Z', '2', '23038', '23050', 4800],
      ['APEX-1002', 'MESU6', 'Short', '2026-07-07T15:30:00.000Z', '2026-07-07T15:32:00.000Z', '1', '6420', '6421.25', -625],
    ]);
    expect(preview.ignored).toEqual({ 'canceled orders': 1 });
    expect(preview.costsInFile).toBe(false);
    expect(preview.trades.every((t) => t.commission === 0)).toBe(true);
  });
});
