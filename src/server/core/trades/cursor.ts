import { TRADE_SORTS, type SortDirection, type TradeSort } from '../../../contract/trades';
import { badRequest } from '../../http/errors';
import { sortValueType, type ListOrder, type ListPosition, type TradingKey } from './order';

/**
 * The Trade Log's page cursor: the last row's place in the list order (its sort value and its trading key), the sort
 * and direction it belongs to, and the first page's total (so later pages do not count the whole filter again), as
 * base64url JSON. It comes back from the browser, so it is read as hostile input: anything that is not exactly what
 * `encodeCursor` writes, with real instants PostgreSQL accepts, is a 400 naming `cursor`, never a database error.
 */
export interface DecodedCursor extends ListPosition {
  total: number;
}

const INVALID = 'cursor: invalid page cursor';
const PARTS = 9;

/** Encodes a page's last row as the next page's cursor. */
export function encodeCursor(order: ListOrder, row: TradingKey & { sortValue: string | null }, total: number): string {
  const key = [row.tradeDate, row.orderingEntryTime, row.orderingExitTime, row.createdAt].map(normalizeInstant);
  const value =
    order.sort === 'date' || row.sortValue === null ? null : sortValueType(order.sort) === 'time' ? normalizeInstant(row.sortValue) : row.sortValue;
  return Buffer.from(JSON.stringify([order.sort, order.dir, value, ...key, row.id, total])).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^-?\d{1,20}(\.\d{1,8})?$/;
const MAX_TEXT = 1000;

/** Reads a cursor for `order`; a cursor of another sort or direction, or anything garbled or forged, is a 400. */
export function decodeCursor(cursor: string, order: ListOrder): DecodedCursor {
  if (!BASE64URL.test(cursor)) throw badRequest(INVALID);
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID);
  }
  if (!Array.isArray(parts) || parts.length !== PARTS) throw badRequest(INVALID);
  const [sort, dir, value, tradeDate, entry, exit, createdAt, id, total] = parts as unknown[];
  if (!isSort(sort) || !isDirection(dir)) throw badRequest(INVALID);
  if (sort !== order.sort || dir !== order.dir) throw badRequest('cursor: belongs to another sort of the list; start again from the first page');
  const key = [tradeDate, entry, exit, createdAt].map((part) => (typeof part === 'string' ? readInstant(part) : null));
  if (key.some((part) => part === null) || typeof id !== 'string' || !UUID.test(id)) throw badRequest(INVALID);
  if (!Number.isSafeInteger(total) || (total as number) < 0) throw badRequest(INVALID);
  const [d, e, x, c] = key as string[];
  return {
    key: { tradeDate: d!, orderingEntryTime: e!, orderingExitTime: x!, createdAt: c!, id },
    value: readValue(sort, value),
    total: total as number,
  };
}

function isSort(value: unknown): value is TradeSort {
  return typeof value === 'string' && (TRADE_SORTS as readonly string[]).includes(value);
}

function isDirection(value: unknown): value is SortDirection {
  return value === 'asc' || value === 'desc';
}

function readValue(sort: TradeSort, value: unknown): string | null {
  const type = sortValueType(sort);
  if (value === null) return null;
  if (type === null || typeof value !== 'string') throw badRequest(INVALID);
  if (type === 'numeric' && DECIMAL.test(value)) return value;
  if (type === 'text' && value.length > 0 && value.length <= MAX_TEXT) return value;
  if (type === 'time') {
    const instant = readInstant(value);
    if (instant !== null) return instant;
  }
  throw badRequest(INVALID);
}

/**
 * An instant as PostgreSQL writes a timestamptz ('2026-03-02 14:35:00.123456+00', '...-05', '...+05:30') or as ISO
 * ('2026-03-02T14:35:00.123Z'), rewritten as ISO in UTC with its microseconds; null for anything else, including a
 * day that does not exist, an offset PostgreSQL refuses (beyond 15:59) and years outside 1-9999 (year 0 and
 * +275760 were database errors, 500s).
 */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?)$/;

export function readInstant(text: string): string | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const [offsetHours, offsetMinutes, offsetSeconds] = [m[10], m[11], m[12]].map((part) => Number(part ?? 0)) as [number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 15 || offsetMinutes > 59 || offsetSeconds > 59) return null;
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  const sign = m[9] === '-' ? -1 : 1;
  const utc = new Date(local.getTime() - sign * (offsetHours * 3600 + offsetMinutes * 60 + offsetSeconds) * 1000);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return null;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const micros = (m[7] ?? '').padEnd(6, '0');
  return `${pad(utcYear, 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}T${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}.${micros}Z`;
}

/** A stored instant as the cursor carries it (ISO, UTC, microseconds). */
function normalizeInstant(text: string): string {
  const instant = readInstant(text);
  if (instant === null) throw new Error(`not a timestamp: ${text}`);
  return instant;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}
