import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guessContractFromFileName, parseBars, type ParsedBars } from './parse-bars';

/**
 * Bar files, one fixture per layout, written for these tests after each format's public
 * description (NinjaTrader's help guide, TradingView's chart export, Databento's OHLCV schema). Wednesday 5 March
 * 2025, 10:00 New York is 15:00 UTC.
 */
const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const T = (hour: number, minute: number, second = 0) => Date.UTC(2025, 2, 5, hour, minute, second);

function ok(result: ReturnType<typeof parseBars>): ParsedBars {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result;
}

describe('parseBars', () => {
  it("NinjaTrader's export: bar END times in UTC (its exports' zone), so 150100 is the bar of 15:00 UTC; a bar whose high is below its open is an unreadable row", () => {
    const result = ok(parseBars(fixture('ninjatrader-mnq-1m.txt'), { contract: 'MNQ MAR25' }));
    expect(result).toMatchObject({
      format: { id: 'ninjatrader-bars' },
      resolution: 60,
      timeZone: 'UTC',
      naiveTimes: true,
      rowCount: 6,
      timeZoneCheck: null,
    });
    expect(result.series).toHaveLength(1);
    expect(result.series[0]!.contract).toBe('MNQH5');
    expect(result.series[0]!.bars.map((b) => b.start)).toEqual([T(15, 0), T(15, 1), T(15, 2), T(15, 3), T(15, 5)]);
    expect(result.series[0]!.bars[1]).toEqual({ start: T(15, 1), open: '21002', high: '21008', low: '20994', close: '21006', volume: '388' });
    expect(result.issues).toEqual([
      { row: 5, severity: 'error', message: 'The high and low (21008 and 21007) do not hold the open and close (21009 and 21010)' },
    ]);
  });

  it('a NinjaTrader file written in New York time and read as UTC puts bars on a Sunday afternoon, when CME is closed: the check proposes New York', () => {
    const misread = ok(parseBars(fixture('ninjatrader-sunday-open-new-york.txt'), { contract: 'MNQH5', preferredTimeZones: ['America/New_York'] }));
    expect(misread.timeZoneCheck?.suggested?.zone).toBe('America/New_York');
    expect(misread.timeZoneCheck?.message).toContain('4 of 4 bars fall while the exchange is closed');
    expect(misread.issues[0]).toMatchObject({ row: 0, severity: 'warning' });
    const right = ok(parseBars(fixture('ninjatrader-sunday-open-new-york.txt'), { contract: 'MNQH5', timeZone: 'America/New_York' }));
    expect(right.timeZoneCheck).toBeNull();
    // Sunday 23 February 2025, 18:00 New York (UTC-5) is 23:00 UTC.
    expect(right.series[0]!.bars[0]!.start).toBe(Date.UTC(2025, 1, 23, 23, 0));
  });

  it("TradingView's export in unix seconds: bar starts, the Volume column, other columns ignored; the zone does not matter", () => {
    const result = ok(parseBars(fixture('tradingview-mnq-1m-unix.csv'), { contract: 'mnqh25', timeZone: 'Asia/Tokyo' }));
    expect(result).toMatchObject({ format: { id: 'tradingview-bars' }, resolution: 60, naiveTimes: false, timeZoneCheck: null, issues: [] });
    expect(result.series[0]!.contract).toBe('MNQH5');
    expect(result.series[0]!.bars.map((b) => [b.start, b.high, b.volume])).toEqual([
      [T(15, 0), '21003', '412'],
      [T(15, 1), '21008', '388'],
      [T(15, 2), '21015', '501'],
      [T(15, 3), '21013', '290'],
    ]);
  });

  it("TradingView's export in ISO time with its offset; the same bar twice counts once", () => {
    const result = ok(parseBars(fixture('tradingview-mnq-1m-iso.csv'), { contract: 'MNQH5' }));
    expect(result.series[0]!.bars.map((b) => [b.start, b.open, b.low])).toEqual([
      [T(15, 0), '21000.25', '20996'],
      [T(15, 1), '21002', '20994.75'],
    ]);
    expect(result.duplicates).toBe(1);
    expect(result.issues).toEqual([]);
  });

  it("Databento's OHLCV CSV: ts_event in nanoseconds, fixed-point prices of 1e-9, rtype 33 is 1-minute, one series per symbol", () => {
    const result = ok(parseBars(fixture('databento-glbx-ohlcv-1m.csv')));
    expect(result).toMatchObject({ format: { id: 'databento-ohlcv' }, resolution: 60, naiveTimes: false });
    expect(result.series.map((s) => [s.contract, s.bars.length])).toEqual([
      ['MNQH5', 2],
      ['ESH5', 2],
    ]);
    expect(result.series[0]!.bars[0]).toEqual({ start: T(15, 0), open: '21000.25', high: '21003.5', low: '20996', close: '21002', volume: '412' });
    expect(result.series[1]!.bars[1]).toEqual({ start: T(15, 1), open: '5831', high: '5832', low: '5830.25', close: '5831.75', volume: '1964' });
  });

  it('Databento with pretty_ts and pretty_px: ISO times and decimals; rtype 32 is 1-second bars (quiet seconds have none)', () => {
    const result = ok(parseBars(fixture('databento-glbx-ohlcv-1s-pretty.csv')));
    expect(result.resolution).toBe(1);
    expect(result.series[0]!.bars.map((b) => [b.start, b.close])).toEqual([
      [T(15, 0, 0), '21000.5'],
      [T(15, 0, 1), '21001'],
      [T(15, 0, 4), '21000'],
    ]);
  });

  it('Databento hourly bars are refused: only 1-second and 1-minute bars are kept', () => {
    const hourly = fixture('databento-glbx-ohlcv-1m.csv').replace(/,33,/g, ',34,');
    expect(parseBars(hourly)).toMatchObject({ ok: false, code: 'unknown-resolution' });
  });

  it('any other layout by a column mapping, here with bar END times in New York; unaligned and inconsistent rows by number', () => {
    const mapping = { time: 'Bar Close (ET)', timeIs: 'end' as const, open: 'O', high: 'H', low: 'L', close: 'C', volume: 'Vol' };
    const result = ok(parseBars(fixture('broker-bars-mapped.csv'), { mapping, contract: 'MNQH5', timeZone: 'America/New_York', resolution: 60 }));
    expect(result.format.id).toBe('mapped-bars');
    expect(result.mapping).toEqual(mapping);
    expect(result.series[0]!.bars.map((b) => b.start)).toEqual([T(15, 0), T(15, 2)]);
    expect(result.issues.map((i) => i.row)).toEqual([3, 5]);
    expect(result.issues[1]!.message).toBe("The bar's end 2025-03-05T15:03:30.000Z is not on a 1-minute boundary");
    expect(parseBars(fixture('broker-bars-mapped.csv'), { mapping: { ...mapping, high: 'High' }, contract: 'MNQH5' })).toMatchObject({
      ok: false,
      code: 'invalid-mapping',
      message: "The file has no column 'High' (for high)",
    });
  });

  it('says what is missing: a contract for a file without symbols, a known layout, rows at all', () => {
    expect(parseBars(fixture('tradingview-mnq-1m-unix.csv'))).toMatchObject({ ok: false, code: 'contract-required' });
    expect(parseBars('a,b,c\n1,2,3\n')).toMatchObject({ ok: false, code: 'unknown-format', headers: ['a', 'b', 'c'] });
    expect(parseBars('   \n')).toMatchObject({ ok: false, code: 'empty-file' });
    expect(parseBars('time,open,high,low,close\n')).toMatchObject({ ok: false, code: 'no-data-rows' });
    // Bars five minutes apart are neither 1-second nor 1-minute bars.
    expect(parseBars('time,open,high,low,close\n1741186800,1,1,1,1\n1741187100,1,1,1,1\n', { contract: 'ES' })).toMatchObject({
      ok: false,
      code: 'unknown-resolution',
    });
  });

  it('the contract a file name suggests', () => {
    expect(guessContractFromFileName('MNQ 03-25.Last.txt')).toBe('MNQH5');
    expect(guessContractFromFileName('CME_MINI_MNQH2025, 1.csv')).toBe('MNQH5');
    expect(guessContractFromFileName('CME_MINI_DL:ESM2025, 1S.csv')).toBe('ESM5');
    expect(guessContractFromFileName('glbx-mdp3-20250305.ohlcv-1m.csv')).toBe('');
    expect(guessContractFromFileName('MNQ1!, 1.csv')).toBe('');
  });
});
