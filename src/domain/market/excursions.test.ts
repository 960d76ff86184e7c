import { describe, expect, it } from 'vitest';
import { Decimal } from '../money';
import type { Bar, Resolution } from './bars';
import { coverageOf, findMissingBars } from './coverage';
import { computeExcursions, inR, type ExcursionFill, type ExcursionTrade } from './excursions';
import { instrumentFigures } from '../instruments';

/**
 * MAE, MFE, best exit, capture and exit analysis on bars made by hand, every figure worked out
 * below from the bars as written. MNQ: $2 a point, 0.25 a tick. Wednesday 5 March 2025, New York = UTC-5.
 */
const NY = (hour: number, minute: number, second = 0) => Date.UTC(2025, 2, 5, hour + 5, minute, second);

/** 1-minute bars from 09:50 to 11:10 New York; listed minutes as given, the others flat at the previous close. */
function minuteBars(
  given: Record<string, [number, number, number, number]>,
  options: { from?: number; to?: number; skip?: (start: number) => boolean } = {},
): Bar[] {
  const bars: Bar[] = [];
  let close = 21000;
  for (let t = options.from ?? NY(9, 50); t <= (options.to ?? NY(11, 10)); t += 60_000) {
    const local = new Date(t - 5 * 3_600_000);
    const key = `${local.getUTCHours()}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    const ohlc = given[key] ?? [close, close, close, close];
    close = ohlc[3];
    if (options.skip?.(t)) continue;
    bars.push({ start: t, open: String(ohlc[0]), high: String(ohlc[1]), low: String(ohlc[2]), close: String(ohlc[3]), volume: '10' });
  }
  return bars;
}

const SESSION: Record<string, [number, number, number, number]> = {
  '10:00': [21000, 21003, 20996, 21002],
  '10:01': [21002, 21008, 20994, 21006],
  '10:02': [21006, 21015, 21004, 21012],
  '10:03': [21012, 21013, 21005, 21009],
  '10:04': [21009, 21011, 21007, 21010],
  '10:05': [21010, 21013, 21009, 21012],
  '10:09': [21012, 21021, 21011, 21020],
  '10:19': [21020, 21020, 20988, 20990],
  '11:04': [20990, 21031, 20990, 21030],
};

const fill = (side: 'Buy' | 'Sell', quantity: number, price: string, time: number): ExcursionFill => ({
  side,
  quantity: new Decimal(quantity),
  price: new Decimal(price),
  time,
});

function mnq(
  overrides: Partial<ExcursionTrade> &
    Pick<ExcursionTrade, 'side' | 'entryTime' | 'exitTime' | 'entryPrice' | 'exitPrice' | 'quantity' | 'grossPnlCents'>,
): ExcursionTrade {
  return { ...instrumentFigures('MNQH5'), fills: [], ...overrides };
}

const complete = (result: ReturnType<typeof computeExcursions>) => {
  if (result.status !== 'complete') throw new Error(`expected complete, got ${JSON.stringify(result)}`);
  return result;
};

describe('computeExcursions', () => {
  const bars = { 60: minuteBars(SESSION) } as const;

  it('a long of 2 MNQ from 21000 to 21010: MAE 6 points, MFE 15, capture 40 of 60, and the exit 1, 5, 15 and 60 minutes later', () => {
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 0, 30),
      exitTime: NY(10, 4, 10),
      quantity: new Decimal(2),
      entryPrice: new Decimal(21000),
      exitPrice: new Decimal(21010),
      grossPnlCents: 4000,
      fills: [fill('Buy', 2, '21000', NY(10, 0, 30)), fill('Sell', 2, '21010', NY(10, 4, 10))],
    });
    const result = complete(computeExcursions(trade, bars));
    // Bars 10:00 to 10:04 count whole: the low 20994 of 10:01, the high 21015 of 10:02.
    expect(result).toMatchObject({
      resolution: 60,
      barsCounted: 5,
      firstBarStart: NY(10, 0),
      lastBarStart: NY(10, 4),
      withinOneBar: false,
      averageEntry: '21000',
    });
    expect(result.mae).toEqual({ points: '6', ticks: '24', cents: 2400, price: '20994', time: NY(10, 1) });
    expect(result.mfe).toEqual({ points: '15', ticks: '60', cents: 6000, price: '21015', time: NY(10, 2) });
    expect(result.bestExit).toEqual({ price: '21015', time: NY(10, 2), grossPnlCents: 6000 });
    expect(result.capture).toBe('0.6667');
    // 10:05:10 falls in the 10:05 bar (close 21012), 10:09:10 in 10:09 (21020), 10:19:10 in 10:19 (20990), 11:04:10 in 11:04.
    expect(result.exitAfter).toEqual([
      { minutes: 1, status: 'ok', grossPnlCents: 4800, price: '21012', time: NY(10, 5, 10) },
      { minutes: 5, status: 'ok', grossPnlCents: 8000, price: '21020', time: NY(10, 9, 10) },
      { minutes: 15, status: 'ok', grossPnlCents: -4000, price: '20990', time: NY(10, 19, 10) },
      { minutes: 60, status: 'ok', grossPnlCents: 12000, price: '21030', time: NY(11, 4, 10) },
    ]);
  });

  it('a short measures the other way: from 21006, MAE up to 21015 and MFE down to 20994 (the entry bar counted whole)', () => {
    const trade = mnq({
      side: 'Short',
      entryTime: NY(10, 1, 20),
      exitTime: NY(10, 3, 40),
      quantity: new Decimal(1),
      entryPrice: new Decimal(21006),
      exitPrice: new Decimal(21009),
      grossPnlCents: -600,
    });
    const result = complete(computeExcursions(trade, bars));
    expect(result.mae).toMatchObject({ points: '9', ticks: '36', cents: 1800, price: '21015' });
    expect(result.mfe).toMatchObject({ points: '12', ticks: '48', cents: 2400, price: '20994' });
    // A loss against a best exit of $24: -25% captured.
    expect(result.capture).toBe('-0.2500');
    // Closed a minute later at 21012 (the 10:04 bar holds 10:04:40 and closes at 21010): 21006 - 21010 = -4 points.
    expect(result.exitAfter[0]).toEqual({ minutes: 1, status: 'ok', grossPnlCents: -800, price: '21010', time: NY(10, 4, 40) });
  });

  it('a scale-in measures from the average entry; its exit analysis closes the whole position, and the second mode moves each exit fill', () => {
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 0, 30),
      exitTime: NY(10, 4, 10),
      quantity: new Decimal(2),
      entryPrice: new Decimal(20998),
      exitPrice: new Decimal('21009.5'),
      // bought 21000 + 20996 = 41996, sold 21009 + 21010 = 42019: 23 points x $2
      grossPnlCents: 4600,
      fills: [
        fill('Buy', 1, '21000', NY(10, 0, 30)),
        fill('Buy', 1, '20996', NY(10, 1, 30)),
        fill('Sell', 1, '21009', NY(10, 3, 5)),
        fill('Sell', 1, '21010', NY(10, 4, 10)),
      ],
    });
    const result = complete(computeExcursions(trade, bars));
    expect(result.averageEntry).toBe('20998');
    // From 20998: down to 20994 is 4 points ($16 for 2 contracts), up to 21015 is 17 ($68).
    expect(result.mae).toMatchObject({ points: '4', ticks: '16', cents: 1600 });
    expect(result.mfe).toMatchObject({ points: '17', ticks: '68', cents: 6800 });
    expect(result.capture).toBe('0.6765');
    // Moving each exit five minutes: 10:08:05 (10:08 is flat at 21012) and 10:09:10 (21020): 21012 + 21020 - 41996 = 36 points.
    expect(result.exitAfterEachFill[1]).toMatchObject({ minutes: 5, status: 'ok', grossPnlCents: 7200 });
    // The whole position closed five minutes after the final exit (10:09:10, the 10:09 bar's close 21020): 2 x 21020 -
    // 41996 = 44 points, $88, at the price the row shows.
    expect(result.exitAfter[1]).toEqual({ minutes: 5, status: 'ok', grossPnlCents: 8800, price: '21020', time: NY(10, 9, 10) });
    for (const row of result.exitAfter) {
      if (row.status !== 'ok') continue;
      expect(new Decimal(row.price).times(2).minus(41996).times(2).times(100).toNumber()).toBe(row.grossPnlCents);
    }
  });

  it('four contracts closed a minute after the exit: the price and the P&L of the row agree', () => {
    // Four MNQ long from an average of 21000.75 (three at 21001, one at 21000), out at 21010: 9.25 points x 4 x $2.
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 0, 10),
      exitTime: NY(10, 4, 10),
      quantity: new Decimal(4),
      entryPrice: new Decimal('21000.75'),
      exitPrice: new Decimal(21010),
      grossPnlCents: 7400,
      fills: [
        fill('Buy', 3, '21001', NY(10, 0, 10)),
        fill('Buy', 1, '21000', NY(10, 0, 40)),
        fill('Sell', 2, '21009', NY(10, 3, 0)),
        fill('Sell', 2, '21011', NY(10, 4, 10)),
      ],
    });
    const result = complete(computeExcursions(trade, bars));
    // 10:05:10 is in the 10:05 bar (close 21012): 4 x 21012 - 84003 = 45 points, $90.00 for the whole position.
    expect(result.exitAfter[0]).toEqual({ minutes: 1, status: 'ok', grossPnlCents: 9000, price: '21012', time: NY(10, 5, 10) });
    // Moving each exit instead: 10:04:00 is the 10:04 bar (21010) and 10:05:10 the 10:05 bar (21012): 2 x 21010 + 2 x
    // 21012 - 84003 = 41 points, $82, a different figure named as a different mode.
    expect(result.exitAfterEachFill[0]).toMatchObject({ minutes: 1, status: 'ok', grossPnlCents: 8200 });
  });

  it('a trade inside one bar takes that bar whole, and says so', () => {
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 2, 10),
      exitTime: NY(10, 2, 50),
      quantity: new Decimal(1),
      entryPrice: new Decimal(21007),
      exitPrice: new Decimal(21013),
      grossPnlCents: 1200,
    });
    const result = complete(computeExcursions(trade, bars));
    expect(result).toMatchObject({ barsCounted: 1, withinOneBar: true });
    expect(result.mae).toMatchObject({ points: '3', cents: 600, price: '21004' });
    expect(result.mfe).toMatchObject({ points: '8', cents: 1600, price: '21015' });
  });

  it("the trade's own fill prices are inside the range: a fill beyond the bars' high widens the MFE", () => {
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 2, 10),
      exitTime: NY(10, 2, 50),
      quantity: new Decimal(1),
      entryPrice: new Decimal(21007),
      exitPrice: new Decimal(21017),
      grossPnlCents: 2000,
      fills: [fill('Buy', 1, '21007', NY(10, 2, 10)), fill('Sell', 1, '21017', NY(10, 2, 50))],
    });
    const result = complete(computeExcursions(trade, bars));
    expect(result.mfe).toMatchObject({ points: '10', cents: 2000, price: '21017', time: NY(10, 2, 50) });
    expect(result.capture).toBe('1.0000');
  });

  it('1-second bars are used when they cover the trade; 1-minute bars when they do not', () => {
    const seconds: Bar[] = [];
    for (let t = NY(10, 2, 0); t < NY(10, 3, 0); t += 1000) {
      // A 1-second series that stays inside 21006-21012 over the trade, narrower than the minute's 21004-21015.
      const price = 21006 + ((t / 1000) % 7);
      seconds.push({ start: t, open: String(price), high: String(price), low: String(price), close: String(price), volume: '1' });
    }
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 2, 10),
      exitTime: NY(10, 2, 50),
      quantity: new Decimal(1),
      entryPrice: new Decimal(21007),
      exitPrice: new Decimal(21010),
      grossPnlCents: 600,
    });
    const fine = complete(computeExcursions(trade, { 1: seconds, 60: bars[60] }));
    expect(fine).toMatchObject({ resolution: 1, barsCounted: 41, withinOneBar: false });
    expect(fine.mae.price).toBe('21006');
    expect(fine.mfe.price).toBe('21012');
    // Without the trade's seconds (a file of another hour), the minute bars answer.
    const coarse = complete(computeExcursions(trade, { 1: seconds.filter((b) => b.start < NY(10, 2, 5)), 60: bars[60] }));
    expect(coarse.resolution).toBe(60);
  });

  it('bars missing inside the trade: says which, computes nothing, however short the hole; a confirmed quiet source fills it and says so', () => {
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 0, 30),
      exitTime: NY(10, 9, 0),
      quantity: new Decimal(1),
      entryPrice: new Decimal(21000),
      exitPrice: new Decimal(21020),
      grossPnlCents: 4000,
    });
    const gap = minuteBars(SESSION, { skip: (t) => t >= NY(10, 1) && t <= NY(10, 7) });
    expect(computeExcursions(trade, { 60: gap })).toEqual({
      status: 'missing',
      resolution: 60,
      missing: [{ from: NY(10, 1), to: NY(10, 8) }],
      from: NY(10, 0, 30),
      to: NY(10, 9, 0),
    });
    // A 3-minute hole (10:05 to 10:07) is missing too: any of those minutes may have held the trade's best price.
    const hole = minuteBars(SESSION, { skip: (t) => t >= NY(10, 5) && t <= NY(10, 7) });
    expect(computeExcursions(trade, { 60: hole })).toMatchObject({ status: 'missing', missing: [{ from: NY(10, 5), to: NY(10, 8) }] });
    // The trader confirmed the upload's source leaves out minutes without trades: the hole is three quiet minutes.
    const confirmed = complete(computeExcursions(trade, { 60: hole }, { quiet: [{ from: NY(9, 50), to: NY(11, 11) }] }));
    expect(confirmed.quietMinutes).toBe(3);
    expect(complete(computeExcursions(trade, bars)).quietMinutes).toBe(0);
    // Nothing at all around the trade, or no bars of the contract: no-bars, with the span to fill.
    expect(computeExcursions(trade, {})).toEqual({ status: 'no-bars', from: NY(10, 0, 30), to: NY(10, 9, 0) });
  });

  it('a missing bar after the exit is missing, never taken from an earlier bar; the minute is named', () => {
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 0, 30),
      exitTime: NY(10, 4, 10),
      quantity: new Decimal(2),
      entryPrice: new Decimal(21000),
      exitPrice: new Decimal(21010),
      grossPnlCents: 4000,
    });
    // The 10:05 bar is gone: a minute after the exit (10:05:10) has no price, though 10:04 closed at 21010.
    const holed = minuteBars(SESSION, { skip: (t) => t === NY(10, 5) });
    const result = complete(computeExcursions(trade, { 60: holed }));
    expect(result.exitAfter[0]).toEqual({ minutes: 1, status: 'missing', minute: NY(10, 5) });
    expect(result.exitAfterEachFill[0]).toEqual({ minutes: 1, status: 'missing', minute: NY(10, 5) });
    // The other horizons have their bars.
    expect(result.exitAfter.slice(1).map((row) => row.status)).toEqual(['ok', 'ok', 'ok']);
    // With the source confirmed quiet, 10:05 had no trade: the position closes at 10:04's 21010 and says so.
    const quiet = complete(computeExcursions(trade, { 60: holed }, { quiet: [{ from: NY(10, 5), to: NY(10, 6) }] }));
    expect(quiet.exitAfter[0]).toEqual({ minutes: 1, status: 'ok', grossPnlCents: 4000, price: '21010', time: NY(10, 5, 10) });
    expect(quiet.quietMinutes).toBe(1);
  });

  it("CME's daily halt and the weekend are closures, not missing bars; an exit analysis moment in them is 'closed'", () => {
    const overHalt = mnq({
      side: 'Long',
      entryTime: NY(16, 55, 30),
      exitTime: NY(18, 2, 0),
      quantity: new Decimal(1),
      entryPrice: new Decimal(21000),
      exitPrice: new Decimal(21004),
      grossPnlCents: 800,
    });
    const evening = minuteBars(
      { '16:57': [21000, 21002, 20990, 21001], '18:01': [21001, 21012, 21001, 21004] },
      { from: NY(16, 50), to: NY(19, 30), skip: (t) => t >= NY(17, 0) && t < NY(18, 0) },
    );
    const result = complete(computeExcursions(overHalt, { 60: evening }));
    expect(result.mae).toMatchObject({ points: '10', price: '20990' });
    expect(result.mfe).toMatchObject({ points: '12', price: '21012' });

    const beforeHalt = mnq({
      side: 'Long',
      entryTime: NY(16, 55, 30),
      exitTime: NY(16, 58, 30),
      quantity: new Decimal(1),
      entryPrice: new Decimal(21000),
      exitPrice: new Decimal(21001),
      grossPnlCents: 200,
    });
    expect(complete(computeExcursions(beforeHalt, { 60: evening })).exitAfter).toEqual([
      { minutes: 1, status: 'ok', grossPnlCents: 200, price: '21001', time: NY(16, 59, 30) },
      { minutes: 5, status: 'closed' },
      { minutes: 15, status: 'closed' },
      { minutes: 60, status: 'closed' },
    ]);

    // Friday 16:58 to Sunday 18:01: the weekend is no gap.
    const friday = Date.UTC(2025, 2, 7, 21, 58);
    const sunday = Date.UTC(2025, 2, 9, 22, 1);
    const weekendBars: Bar[] = [friday - 120_000, friday - 60_000, friday, friday + 60_000, sunday - 60_000, sunday, sunday + 60_000].map(
      (start) => ({
        start,
        open: '100',
        high: '101',
        low: '99',
        close: '100',
        volume: null,
      }),
    );
    expect(findMissingBars(weekendBars, 60, friday, sunday + 30_000, 'futures')).toEqual([]);
    expect(findMissingBars(weekendBars, 60, friday, sunday + 30_000, 'crypto')).toEqual([{ from: friday + 120_000, to: sunday - 60_000 }]);
  });

  it('a trade without times or quantity has nothing to measure', () => {
    const trade = mnq({
      side: 'Long',
      entryTime: NY(10, 5),
      exitTime: NY(10, 0),
      quantity: new Decimal(1),
      entryPrice: new Decimal(1),
      exitPrice: new Decimal(1),
      grossPnlCents: 0,
    });
    expect(computeExcursions(trade, bars).status).toBe('not-applicable');
  });

  it('amounts in R against a planned risk, and none without one', () => {
    expect(inR(2400, 10_000)).toBe('0.24');
    expect(inR(6000, 2500)).toBe('2.40');
    expect(inR(2400, null)).toBeNull();
    expect(inR(2400, 0)).toBeNull();
    // A later exit worse than the real one, and halves rounded away from zero as money is: -$68 over $32 is -2.13R.
    expect(inR(-1250, 5000)).toBe('-0.25');
    expect(inR(-6800, 3200)).toBe('-2.13');
    expect(inR(6800, 3200)).toBe('2.13');
  });
});

describe('findMissingBars', () => {
  const at = (minutes: number[]): Bar[] => minutes.map((m) => ({ start: NY(10, m), open: '1', high: '1', low: '1', close: '1', volume: null }));
  const resolution: Resolution = 60;

  it('every open minute without a bar inside the span is missing, however few; the stretch after the last bar too', () => {
    expect(findMissingBars(at([0, 1, 2, 9, 10]), resolution, NY(10, 0), NY(10, 10, 30), 'futures')).toEqual([{ from: NY(10, 3), to: NY(10, 9) }]);
    expect(findMissingBars(at([0, 1, 2]), resolution, NY(10, 0), NY(10, 12), 'futures')).toEqual([{ from: NY(10, 3), to: NY(10, 12) }]);
    expect(findMissingBars(at([0, 1, 2, 6, 7]), resolution, NY(10, 0), NY(10, 7, 30), 'futures')).toEqual([{ from: NY(10, 3), to: NY(10, 6) }]);
    // One minute (13:57-like) is a hole of its own; a stretch that starts inside a minute names it from there.
    expect(findMissingBars(at([0, 1, 3, 4]), resolution, NY(10, 0, 20), NY(10, 4, 10), 'futures')).toEqual([{ from: NY(10, 2), to: NY(10, 3) }]);
    expect(findMissingBars(at([1, 2]), resolution, NY(10, 0, 20), NY(10, 2, 10), 'futures')).toEqual([{ from: NY(10, 0, 20), to: NY(10, 1) }]);
    expect(findMissingBars(at([0, 1, 2, 3, 4, 5, 6, 7]), resolution, NY(10, 0), NY(10, 7, 30), 'futures')).toEqual([]);
    // Inside a stretch the source vouches for, a minute without a bar had no trades.
    expect(findMissingBars(at([0, 1, 2, 6, 7]), resolution, NY(10, 0), NY(10, 7, 30), 'futures', [{ from: NY(10, 0), to: NY(10, 8) }])).toEqual([]);
    expect(coverageOf(at([0, 1, 2, 6, 7]), resolution, NY(10, 0), NY(10, 7, 30), 'futures', [{ from: NY(10, 0), to: NY(10, 4) }])).toEqual({
      missing: [{ from: NY(10, 4), to: NY(10, 6) }],
      quietMinutes: 1,
    });
  });

  it('a US stock closes at 20:00 New York: the night is no gap', () => {
    const evening = { start: Date.UTC(2025, 2, 6, 0, 59), open: '1', high: '1', low: '1', close: '1', volume: null };
    const morning = { start: Date.UTC(2025, 2, 6, 9, 0), open: '1', high: '1', low: '1', close: '1', volume: null };
    expect(findMissingBars([evening, morning], resolution, evening.start, morning.start + 30_000, 'stock')).toEqual([]);
  });
});
