import { Decimal, sharedDecimal } from '../money';
import { wallClockToInstant } from '../dates/clock';
import type { ParseOptions } from './types';

/** Lower case, trimmed, BOM and inner runs of whitespace collapsed: 'ï»¿Id ' and ' Id' both become 'id'. */
export function normalizeHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The first of `names` that the row has a non-empty cell for. */
export function cell(cells: Record<string, string>, ...names: string[]): string {
  for (const name of names) {
    const value = cells[name];
    if (value === undefined) continue;
    const trimmed = value.trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}

export function hasAll(headers: string[], names: string[]): boolean {
  return names.every((name) => headers.includes(name));
}

export function hasAny(headers: string[], names: string[]): boolean {
  return names.some((name) => headers.includes(name));
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Reads an amount as brokers print it: `$(12.50)` and `(12.50)` are negative, `"$1,200.00"` has a thousands separator,
 * `$48.10 ` has a trailing space (NinjaTrader), `-$5`, `$-5`, `5 USD`, `€5`. Comma decimal separators (`12,50`) are
 * not guessed: a comma is always a thousands separator, as in every US broker export we have seen.
 */
export function parseAmount(input: string | undefined): Decimal | null {
  if (input === undefined) return null;
  let text = input.trim();
  if (text === '') return null;
  // Most cells of a large export are plain numbers: no need for the currency and bracket handling below.
  if (PLAIN_NUMBER.test(text)) return sharedDecimal(text);
  let negative = false;
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  text = text.replace(/\b(USD|USDT|USDC|EUR|GBP)\b/gi, '').replace(/[$€£¥\s]/g, '');
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = !negative;
    text = text.slice(1, -1);
  }
  if (text.startsWith('-')) {
    negative = !negative;
    text = text.slice(1);
  } else if (text.startsWith('+')) {
    text = text.slice(1);
  }
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replace(/,/g, '');
  if (!PLAIN_NUMBER.test(text)) return null;
  const value = new Decimal(text);
  return negative ? value.negated() : value;
}

/** A positive number (quantity or price); null for anything else. */
export function parsePositive(input: string | undefined): Decimal | null {
  const value = parseAmount(input);
  if (value === null || !value.isFinite() || value.lte(0)) return null;
  return value;
}

export function parseSide(input: string | undefined): 'Buy' | 'Sell' | null {
  const text = (input ?? '').trim().toLowerCase();
  // TopstepX/ProjectX orders: Bid = buy, Ask = sell. 'Long'/'Short' appear in some fill exports.
  if (['buy', 'b', 'bot', 'bought', 'bid', 'long', 'buy to open', 'buy to cover'].includes(text)) return 'Buy';
  if (['sell', 's', 'sld', 'sold', 'ask', 'short', 'sell short', 'sell to close'].includes(text)) return 'Sell';
  return null;
}

export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC when the text carries an offset (or Z); null for naive wall-clock times. */
  offsetMinutes: number | null;
  hasTime: boolean;
  /** The text gave seconds (NinjaTrader's grid often shows minutes only). */
  hasSeconds: boolean;
}

const TIME = String.raw`(?:[T ]+|,\s*)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([AaPp][Mm])?`;
const OFFSET = String.raw`\s*(Z|[+-]\d{2}:?\d{2})?`;
const US_DATE = new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})(?:${TIME})?${OFFSET}$`);
const ISO_DATE = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})(?:${TIME})?${OFFSET}$`);
/** Day-first dotted dates (Quantower and other European-locale exports): 06.05.2025 14:30:01. */
const DOTTED_DATE = new RegExp(String.raw`^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:${TIME})?${OFFSET}$`);

/**
 * Splits a date-time as brokers print it. Slashed dates are US month/day/year (Tradovate, NinjaTrader, TopstepX all
 * write them so); two-digit years are 20xx. Returns null for anything that is not a real calendar date and time.
 */
export function parseDateParts(input: string | undefined): DateParts | null {
  const text = (input ?? '').trim();
  let match = US_DATE.exec(text);
  let year: number;
  let month: number;
  let day: number;
  if (match) {
    month = Number(match[1]);
    day = Number(match[2]);
    year = Number(match[3]);
    if (year < 100) year += 2000;
  } else if ((match = DOTTED_DATE.exec(text))) {
    day = Number(match[1]);
    month = Number(match[2]);
    year = Number(match[3]);
  } else {
    match = ISO_DATE.exec(text);
    if (!match) return null;
    year = Number(match[1]);
    month = Number(match[2]);
    day = Number(match[3]);
  }
  const hasTime = match[4] !== undefined;
  let hour = hasTime ? Number(match[4]) : 0;
  const minute = hasTime ? Number(match[5]) : 0;
  const second = match[6] !== undefined ? Number(match[6]) : 0;
  const millisecond = match[7] !== undefined ? Number(match[7].slice(0, 3).padEnd(3, '0')) : 0;
  const meridiem = match[8]?.toUpperCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    if (meridiem === 'AM' && hour === 12) hour = 0;
    if (meridiem === 'PM' && hour !== 12) hour += 12;
  }
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  let offsetMinutes: number | null = null;
  const offset = match[9];
  if (offset !== undefined) {
    if (offset === 'Z') offsetMinutes = 0;
    else {
      const digits = offset.replace(':', '');
      const sign = digits.startsWith('-') ? -1 : 1;
      offsetMinutes = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
    }
  }
  return { year, month, day, hour, minute, second, millisecond, offsetMinutes, hasTime, hasSeconds: match[6] !== undefined };
}

/**
 * The instant a file's date-time stands for. Times with an offset (TopstepX `-04:00`) are exact. Naive wall-clock
 * times (Tradovate, NinjaTrader) are read in `timeZone`: in the hour that a daylight-saving change skips they move
 * forward (02:30 on a spring-forward day is 03:30 daylight time), and in the hour that repeats they are the first of
 * the two (daylight time), as @date-fns/tz does (see dates/clock.ts).
 */
export function parseInstant(input: string | undefined, zone: string | ParseOptions): number | null {
  const parts = parseDateParts(input);
  if (parts === null) return null;
  return instantFromParts(parts, zone);
}

/**
 * With the parse options, the times read are counted as naive (read in the chosen zone) or zoned (with their own
 * offset), so the preview can tell whether the chosen zone mattered.
 */
export function instantFromParts(parts: DateParts, zone: string | ParseOptions): number {
  const { year, month, day, hour, minute, second, millisecond, offsetMinutes } = parts;
  const clock = typeof zone === 'string' ? undefined : zone.clock;
  if (offsetMinutes !== null) {
    if (clock) clock.zoned++;
    return Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - offsetMinutes * 60_000;
  }
  if (clock) clock.naive++;
  return wallClockToInstant(Date.UTC(year, month - 1, day, hour, minute, second, millisecond), typeof zone === 'string' ? zone : zone.timeZone);
}
