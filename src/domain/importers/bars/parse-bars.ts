import { isValidTimeZone } from '../../dates/clock';
import type { ImportIssue } from '../../fills/types';
import { parseInstrument } from '../../instruments';
import { isResolution, periodMs, RESOLUTION_LABELS, type Bar, type Resolution } from '../../market/bars';
import { readCsv } from '../csv';
import { normalizeHeader, parseAmount, parseDateParts, instantFromParts } from '../parsing';
import { checkTimeZone, zoneEvidence, type TimeZoneCheck } from '../zone-check';
import { BAR_FORMATS, BAR_MAPPING_FIELDS, DEFAULT_BAR_ZONE, type BarFormat, type BarMapping } from './bar-formats';

export { BAR_FORMATS, BAR_MAPPING_FIELDS, DEFAULT_BAR_ZONE, guessContractFromFileName, type BarFormat, type BarMapping } from './bar-formats';

/**
 * Price-bar files, the pure part: text in, bars per contract out, with every unreadable row by its
 * number (the header is row 1, as a spreadsheet shows it), as the trade importers do. Formats:
 *
 * - NinjaTrader's historical data export: no header, `yyyyMMdd HHmmss;open;high;low;close;volume`, the time is the
 *   bar's END. NinjaTrader 8's help says its exports are written in UTC ("NinjaTrader exports are always done in the
 *   UTC time zone"), so UTC is the default here; the zone stays the trader's choice and is checked like a trade file's.
 * - TradingView's chart export (`time,open,high,low,close,Volume` and any indicator columns): the bar's start, as unix
 *   seconds or ISO time with its offset.
 * - Databento's OHLCV CSV (`ts_event,rtype,publisher_id,instrument_id,open,high,low,close,volume[,symbol]`): ts_event
 *   is the bar's start in nanoseconds since the epoch, or ISO with pretty_ts; rtype 32 is 1-second and 33 1-minute
 *   bars; prices without a decimal point are fixed-point integers of 1e-9 (pretty_px writes decimals).
 * - Any other CSV by a column mapping (time, open, high, low, close, and optionally volume and symbol), with the time
 *   as the bar's start or end.
 */

export interface ParseBarsOptions {
  /** Zone of naive times; default: the format's (UTC for NinjaTrader), else America/New_York. */
  timeZone?: string;
  format?: BarFormat['id'];
  /** Seconds per bar; read from the file (Databento's rtype) or from the bars' spacing when not given. */
  resolution?: Resolution;
  /** The contract of a file without a symbol column (e.g. MNQZ5). */
  contract?: string;
  mapping?: BarMapping;
  /** Zones to try first when the chosen one does not fit (the trader's own). */
  preferredTimeZones?: string[];
  /** Whether to check the zone against the exchange's hours (default); a reader of a file in parts checks it once. */
  checkTimeZone?: boolean;
  /** Give each series the row of each of its bars (`rows`), for a reader of a file in parts. */
  keepRows?: boolean;
}

export interface BarSeries {
  contract: string;
  bars: Bar[];
  /** With `keepRows`: the file row of each bar. */
  rows?: number[];
}

export interface ParsedBars {
  ok: true;
  format: { id: BarFormat['id']; label: string };
  resolution: Resolution;
  series: BarSeries[];
  rowCount: number;
  issues: ImportIssue[];
  /** Rows left out on purpose (the same bar twice), counted. */
  duplicates: number;
  timeZone: string;
  /** The file's times carry no offset, so the zone mattered. */
  naiveTimes: boolean;
  timeZoneCheck: TimeZoneCheck | null;
  headers: string[];
  mapping: BarMapping | null;
}

export type BarsErrorCode =
  'empty-file' | 'unknown-format' | 'no-data-rows' | 'invalid-mapping' | 'invalid-time-zone' | 'contract-required' | 'unknown-resolution';

export interface BarsFailure {
  ok: false;
  code: BarsErrorCode;
  message: string;
  headers?: string[];
}

interface RawBar {
  row: number;
  symbol: string;
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string | null;
}

const NINJATRADER_LINE = /^(\d{4})(\d{2})(\d{2}) (\d{2})(\d{2})(\d{2});([^;]*);([^;]*);([^;]*);([^;]*);([^;]*)$/;
/** Databento's sentinel for a price it does not have (INT64_MAX). */
const UNDEFINED_PRICE = '9223372036854775807';

export function parseBars(text: string, options: ParseBarsOptions = {}): ParsedBars | BarsFailure {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { ok: false, code: 'empty-file', message: 'The file is empty' };
  const firstLine =
    body
      .slice(0, 400)
      .split(/\r?\n/)
      .find((line) => line.trim() !== '') ?? '';
  const ninja =
    options.format === 'ninjatrader-bars' || (!options.mapping && options.format === undefined && NINJATRADER_LINE.test(firstLine.trim()));
  const formatId: BarFormat['id'] = ninja ? 'ninjatrader-bars' : options.mapping ? 'mapped-bars' : (options.format ?? 'tradingview-bars');
  const timeZone = options.timeZone ?? DEFAULT_BAR_ZONE[formatId] ?? 'America/New_York';
  if (!isValidTimeZone(timeZone)) return { ok: false, code: 'invalid-time-zone', message: `Unknown time zone '${timeZone}'` };

  const issues: ImportIssue[] = [];
  const clock = { naive: 0, zoned: 0 };
  let raw: RawBar[];
  let rowCount: number;
  let headers: string[] = [];
  let resolution = options.resolution ?? null;
  let timeIs: 'start' | 'end' = 'start';
  let format: BarFormat;
  if (ninja) {
    format = BAR_FORMATS[0]!;
    timeIs = 'end';
    ({ raw, rowCount } = readNinjaTrader(body, timeZone, clock, issues));
  } else {
    const table = readCsv(body);
    headers = table.rawHeaders;
    if (table.rows.length === 0)
      return { ok: false, code: 'no-data-rows', message: 'The file has no bars: a CSV needs a header row and at least one data row', headers };
    rowCount = table.rows.length;
    const columns = new Set(table.headers);
    let mapping: BarMapping | null = options.mapping ?? null;
    if (mapping) {
      const problem = barMappingProblem(mapping, headers);
      if (problem) return { ok: false, code: 'invalid-mapping', message: problem, headers };
      format = BAR_FORMATS[3]!;
      timeIs = mapping.timeIs ?? 'start';
    } else if (
      (options.format === undefined || options.format === 'databento-ohlcv') &&
      ['ts_event', 'open', 'high', 'low', 'close'].every((c) => columns.has(c))
    ) {
      format = BAR_FORMATS[2]!;
      mapping = {
        time: 'ts_event',
        open: 'open',
        high: 'high',
        low: 'low',
        close: 'close',
        volume: 'volume',
        ...(columns.has('symbol') && { symbol: 'symbol' }),
      };
      const rtype = resolutionOfRtype(table.rows.map((r) => r.cells['rtype'] ?? ''));
      if (rtype === 'other') {
        return {
          ok: false,
          code: 'unknown-resolution',
          message: 'These Databento bars are not ohlcv-1s or ohlcv-1m (rtype 32 or 33): import 1-second or 1-minute bars',
          headers,
        };
      }
      resolution ??= rtype;
    } else if (
      (options.format === undefined || options.format === 'tradingview-bars') &&
      ['time', 'open', 'high', 'low', 'close'].every((c) => columns.has(c))
    ) {
      format = BAR_FORMATS[1]!;
      mapping = { time: 'time', open: 'open', high: 'high', low: 'low', close: 'close', ...(columns.has('volume') && { volume: 'volume' }) };
    } else {
      return {
        ok: false,
        code: 'unknown-format',
        message: `Unknown bar file. Columns found: ${headers.join(', ')}. Map its columns, or export ${BAR_FORMATS.slice(0, 3)
          .map((f) => f.label)
          .join(', ')}`,
        headers,
      };
    }
    const fixedPoint = format.id === 'databento-ohlcv';
    raw = table.rows.flatMap((row) => {
      const bar = readRow(row.row, row.cells, mapping!, timeZone, clock, issues, fixedPoint);
      return bar ? [bar] : [];
    });
  }
  if (raw.length === 0 && issues.length === 0) return { ok: false, code: 'no-data-rows', message: 'The file has no bars', headers };

  resolution ??= inferResolution(raw);
  if (resolution === null) {
    return {
      ok: false,
      code: 'unknown-resolution',
      message: 'The bars are neither 1 second nor 1 minute apart: import 1-second or 1-minute bars, or choose the resolution',
      headers,
    };
  }
  const period = periodMs(resolution);
  const fallbackContract = options.contract?.trim() ? parseInstrument(options.contract).contract : '';
  const byContract = new Map<string, Map<number, RawBar & { start: number }>>();
  let duplicates = 0;
  for (const bar of raw) {
    const start = timeIs === 'end' ? bar.time - period : bar.time;
    if (start % period !== 0) {
      issues.push({
        row: bar.row,
        severity: 'error',
        message: `The bar's ${timeIs} ${new Date(bar.time).toISOString()} is not on a ${RESOLUTION_LABELS[resolution]} boundary`,
      });
      continue;
    }
    const contract = bar.symbol ? parseInstrument(bar.symbol).contract : fallbackContract;
    if (!contract) {
      return { ok: false, code: 'contract-required', message: 'contract: name the contract these bars are for (e.g. MNQZ5)', headers };
    }
    let bars = byContract.get(contract);
    if (!bars) byContract.set(contract, (bars = new Map()));
    const known = bars.get(start);
    if (known) {
      if (known.open === bar.open && known.high === bar.high && known.low === bar.low && known.close === bar.close && known.volume === bar.volume)
        duplicates++;
      else issues.push({ row: bar.row, severity: 'error', message: `A bar at this time appears on row ${known.row} with other prices` });
      continue;
    }
    bars.set(start, { ...bar, start });
  }
  const series: BarSeries[] = [...byContract].map(([contract, bars]) => {
    const sorted = [...bars.values()].sort((a, b) => a.start - b.start);
    return {
      contract,
      bars: sorted.map(({ start, open, high, low, close, volume }) => ({ start, open, high, low, close, volume })),
      ...(options.keepRows && { rows: sorted.map((bar) => bar.row) }),
    };
  });
  issues.sort((a, b) => a.row - b.row);
  const naiveTimes = clock.naive > 0;
  let timeZoneCheck: TimeZoneCheck | null = null;
  if (naiveTimes && options.checkTimeZone !== false) {
    const evidence = zoneEvidence(series.flatMap((s) => s.bars.map((bar) => ({ time: bar.start, contract: s.contract }))));
    timeZoneCheck = checkTimeZone(evidence, timeZone, options.preferredTimeZones ?? []);
    // The check's words speak of fills; for bars they are bars.
    if (timeZoneCheck) {
      timeZoneCheck = { ...timeZoneCheck, message: timeZoneCheck.message.replace(/ fills fall /, ' bars fall ') };
      issues.unshift({ row: 0, severity: 'warning', message: timeZoneCheck.message });
    }
  }
  return {
    ok: true,
    format: { id: format.id, label: format.label },
    resolution,
    series,
    rowCount,
    issues,
    duplicates,
    timeZone,
    naiveTimes,
    timeZoneCheck,
    headers,
    mapping: format.id === 'mapped-bars' ? (options.mapping ?? null) : null,
  };
}

/** What a bar mapping lacks, in the dialog's words; null when it can be read. */
export function barMappingProblem(mapping: BarMapping, headers: string[]): string | null {
  const known = new Set(headers.map(normalizeHeader));
  for (const field of BAR_MAPPING_FIELDS) {
    const column = mapping[field];
    if (column !== undefined && column !== '' && !known.has(normalizeHeader(column))) return `The file has no column '${column}' (for ${field})`;
  }
  const missing = (['time', 'open', 'high', 'low', 'close'] as const).filter((field) => !mapping[field]);
  return missing.length === 0 ? null : `Choose the column for ${missing.join(', ')}`;
}

function readNinjaTrader(body: string, timeZone: string, clock: { naive: number; zoned: number }, issues: ImportIssue[]) {
  const raw: RawBar[] = [];
  let rowCount = 0;
  const lines = body.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === '') continue;
    rowCount++;
    const row = index + 1;
    const match = NINJATRADER_LINE.exec(line);
    if (!match) {
      issues.push({ row, severity: 'error', message: 'Expected yyyyMMdd HHmmss;open;high;low;close;volume' });
      continue;
    }
    const parts = parseDateParts(`${match[1]}-${match[2]}-${match[3]} ${match[4]}:${match[5]}:${match[6]}`);
    if (!parts) {
      issues.push({ row, severity: 'error', message: `Unreadable time '${line.slice(0, 15)}'` });
      continue;
    }
    const bar = checkPrices(row, match[7]!, match[8]!, match[9]!, match[10]!, match[11]!, issues, false);
    if (bar) raw.push({ ...bar, row, symbol: '', time: instantFromParts(parts, { timeZone, clock }) });
  }
  return { raw, rowCount };
}

function readRow(
  row: number,
  cells: Record<string, string>,
  mapping: BarMapping,
  timeZone: string,
  clock: { naive: number; zoned: number },
  issues: ImportIssue[],
  fixedPoint: boolean,
): RawBar | null {
  const cell = (name: string | undefined) => (name ? (cells[normalizeHeader(name)] ?? '').trim() : '');
  const timeText = cell(mapping.time);
  const time = readBarTime(timeText, timeZone, clock);
  if (time === null) {
    issues.push({ row, severity: 'error', message: `Unreadable time '${timeText.slice(0, 40)}'` });
    return null;
  }
  const prices = checkPrices(
    row,
    cell(mapping.open),
    cell(mapping.high),
    cell(mapping.low),
    cell(mapping.close),
    cell(mapping.volume),
    issues,
    fixedPoint,
  );
  return prices && { ...prices, row, symbol: cell(mapping.symbol), time };
}

/**
 * A bar's time: unix seconds, milliseconds or nanoseconds (10, 13 or 19 digits), yyyyMMdd HHmmss, or a date and time
 * as the trade importers read them (with an offset, or naive in `timeZone`).
 */
export function readBarTime(text: string, timeZone: string, clock: { naive: number; zoned: number }): number | null {
  if (/^\d{9,10}$/.test(text)) {
    clock.zoned++;
    return Number(text) * 1000;
  }
  if (/^\d{13}$/.test(text)) {
    clock.zoned++;
    return Number(text);
  }
  if (/^\d{19}$/.test(text)) {
    clock.zoned++;
    // Nanoseconds exceed a double's integer precision: the milliseconds are the first 13 digits, exactly.
    return Number(text.slice(0, 13));
  }
  const compact = /^(\d{4})(\d{2})(\d{2})[ T](\d{2})(\d{2})(\d{2})$/.exec(text);
  const parts = parseDateParts(compact ? `${compact[1]}-${compact[2]}-${compact[3]} ${compact[4]}:${compact[5]}:${compact[6]}` : text);
  if (!parts || !parts.hasTime) return null;
  return instantFromParts(parts, { timeZone, clock });
}

const PLAIN = /^-?\d+(\.\d+)?$/;

/** A price as a canonical decimal string, or null. Fixed-point integers (Databento without pretty_px) are 1e-9 units. */
function priceText(text: string, fixedPoint: boolean): string | null {
  if (fixedPoint && /^-?\d+$/.test(text)) {
    if (text === UNDEFINED_PRICE) return null;
    const negative = text.startsWith('-');
    const digits = (negative ? text.slice(1) : text).padStart(10, '0');
    const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, '');
    const fraction = digits.slice(-9).replace(/0+$/, '');
    return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
  }
  const plain = PLAIN.test(text) ? text : (parseAmount(text)?.toFixed() ?? null);
  if (plain === null || plain.replace(/^-/, '').split('.')[0]!.length > 16) return null;
  return canonical(plain);
}

function canonical(decimal: string): string {
  let text = decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
  text = text.replace(/^(-?)0+(?=\d)/, '$1');
  return text === '-0' ? '0' : text;
}

function checkPrices(
  row: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
  issues: ImportIssue[],
  fixedPoint: boolean,
) {
  const values = {
    open: priceText(open, fixedPoint),
    high: priceText(high, fixedPoint),
    low: priceText(low, fixedPoint),
    close: priceText(close, fixedPoint),
  };
  for (const [name, value] of Object.entries(values)) {
    if (value === null) {
      issues.push({
        row,
        severity: 'error',
        message: `Unreadable ${name} price '${({ open, high, low, close } as Record<string, string>)[name]!.slice(0, 40)}'`,
      });
      return null;
    }
  }
  const [o, h, l, c] = [values.open!, values.high!, values.low!, values.close!].map(Number) as [number, number, number, number];
  if (h < l || h < o || h < c || l > o || l > c) {
    issues.push({
      row,
      severity: 'error',
      message: `The high and low (${values.high} and ${values.low}) do not hold the open and close (${values.open} and ${values.close})`,
    });
    return null;
  }
  let volumeText: string | null = null;
  if (volume !== '') {
    volumeText = priceText(volume, false);
    if (volumeText === null || volumeText.startsWith('-')) {
      issues.push({ row, severity: 'error', message: `Unreadable volume '${volume.slice(0, 40)}'` });
      return null;
    }
  }
  return { open: values.open!, high: values.high!, low: values.low!, close: values.close!, volume: volumeText };
}

/** Databento's record type: 32 ohlcv-1s, 33 ohlcv-1m; 'other' for hours, days or a mix; null without the column. */
function resolutionOfRtype(values: string[]): Resolution | 'other' | null {
  const seen = new Set(values.map((v) => v.trim()).filter(Boolean));
  if (seen.size === 0) return null;
  if (seen.size > 1) return 'other';
  const [only] = seen;
  return only === '32' ? 1 : only === '33' ? 60 : 'other';
}

/** The bars' period from their spacing: the smallest step between two bars of one symbol, if it is 1 s or 60 s. */
function inferResolution(raw: RawBar[]): Resolution | null {
  const bySymbol = new Map<string, number[]>();
  for (const bar of raw) {
    let times = bySymbol.get(bar.symbol);
    if (!times) bySymbol.set(bar.symbol, (times = []));
    times.push(bar.time);
  }
  let step = Number.POSITIVE_INFINITY;
  for (const times of bySymbol.values()) {
    times.sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) {
      const gap = times[i]! - times[i - 1]!;
      if (gap > 0 && gap < step) step = gap;
    }
  }
  const seconds = step / 1000;
  return isResolution(seconds) ? seconds : null;
}
