import { parseInstant } from '../../dates/instant';
import { Decimal, decimalToCents, parseDecimal } from '../../money';
import { parseInstrument } from '../../instruments';
import { dayFromString } from '../../market-time';
import { parseDateParts } from '../parsing';
import type { ImportIssue, ParsedTrade, TradeFill } from '../../fills/types';
import type { FormatParseResult } from '../types';
import { emptyResult } from './common';
import { textProblem } from '../../text';

export const NOT_AN_ARRAY_MESSAGE = 'Invalid file format: The file does not contain an array of trade data';

/**
 * The JSON backup the Trade Log exports (trades-backup-{date}.json): an array of trades in the app's
 * view model (id, date or trade_date, day, instrument or symbol, session or period, type or trade_type, result or
 * status, pnl (net), commission, link, notes, tags) and, from Edgebook's own export, side, entry/exit times and prices
 * and quantity. A backup is restored as it was: its session, type and tags are kept, not re-derived. `row` in issues
 * is the 1-based position of the element in the array.
 */
export function parseJsonBackup(value: unknown): FormatParseResult | { error: string } {
  if (!Array.isArray(value)) return { error: NOT_AN_ARRAY_MESSAGE };
  const result = emptyResult();
  value.forEach((item, index) => {
    const row = index + 1;
    const trade = readTrade(item, row, result.issues);
    if (trade) result.trades.push(trade);
  });
  return result;
}

function readTrade(item: unknown, row: number, issues: ImportIssue[]): ParsedTrade | null {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    issues.push({ row, severity: 'error', message: 'Not a trade object' });
    return null;
  }
  const record = item as Record<string, unknown>;
  // A NUL or a lone surrogate (written \u0000 or \udc00 in JSON) is text no database column holds: the row is
  // unreadable, as a CSV with one is, and says which field.
  for (const [key, v] of Object.entries(record)) {
    const text = (Array.isArray(v) ? v : [v]).find((x): x is string => typeof x === 'string' && textProblem(x) !== null);
    if (text === undefined) continue;
    const reason = text.includes('\u0000') ? 'it contains a NUL character' : 'it is not valid Unicode text';
    issues.push({ row, severity: 'error', message: `Unreadable ${key.slice(0, 40)}: ${reason}` });
    return null;
  }
  const text = (...names: string[]): string => {
    for (const name of names) {
      const v = record[name];
      if (typeof v === 'string' && v.trim() !== '') return v.trim();
      if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    }
    return '';
  };
  const dateText = text('trade_date', 'tradeDate', 'date');
  const parts = parseDateParts(dateText.replace(/\.\d+Z$/, 'Z'));
  const day = parts ? `${parts.year}-${String(parts.month).padStart(2, '0')}-${String(parts.day).padStart(2, '0')}` : '';
  if (!day || !dayFromString(day)) {
    issues.push({ row, severity: 'error', message: `Missing or unreadable date '${dateText}'` });
    return null;
  }
  const pnlRaw = record['pnl'];
  const pnl = parseDecimal(typeof pnlRaw === 'string' ? pnlRaw.trim() : pnlRaw);
  if (pnl === null) {
    issues.push({ row, severity: 'error', message: `Missing or unreadable pnl '${String(pnlRaw)}'` });
    return null;
  }
  // Commission is stored absolute, and non-numeric commission counts as 0.
  const commission = Math.abs(decimalToCents(parseDecimal(record['commission']) ?? new Decimal(0)));
  const symbol = text('instrument', 'symbol') || 'Unknown';
  const instrument = parseInstrument(symbol);
  const sideText = text('side', 'direction').toLowerCase();
  // Read as PostgreSQL will store it: Date.parse takes year 0 and 2026-02-30, and the database refused the first (a 500).
  const time = (name: string): number | null => parseInstant(text(name));
  const decimal = (name: string): Decimal | null => parseDecimal(record[name]);
  const tagsRaw = record['tags'];
  const tags = Array.isArray(tagsRaw)
    ? tagsRaw.filter((t): t is string => typeof t === 'string')
    : typeof tagsRaw === 'string'
      ? tagsRaw
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : [];
  const trade: ParsedTrade = {
    rows: [row],
    account: text('account_name'),
    contract: instrument.isFuturesContract ? instrument.contract : '',
    root: instrument.root,
    side: sideText === 'long' ? 'Long' : sideText === 'short' ? 'Short' : null,
    entryTime: time('entry_time'),
    exitTime: time('exit_time'),
    day,
    quantity: decimal('quantity'),
    entryPrice: decimal('entry_price'),
    exitPrice: decimal('exit_price'),
    // The backup's pnl is net of commission, so gross = pnl + commission.
    grossPnl: decimalToCents(pnl) + commission,
    commission,
    tags,
  };
  const fills = readFills(record['fills'], row, issues);
  if (fills === false) return null;
  if (fills) trade.fills = fills;
  const id = text('id');
  if (id) trade.id = `backup:${id}`;
  const session = text('session', 'period');
  if (session) trade.session = session;
  const type = text('type', 'trade_type');
  if (type) trade.tradeType = type;
  const notes = text('notes');
  if (notes) trade.notes = notes;
  const link = text('link');
  if (link) trade.link = link;
  return trade;
}

/**
 * The fills Edgebook's export keeps with a trade: time, side, quantity, price and, when the file had them,
 * the fill's commission. Absent or empty: the trade has none. A fill that cannot be read makes the trade's row
 * unreadable (false), rather than restoring a trade with some of its fills.
 */
function readFills(value: unknown, row: number, issues: ImportIssue[]): TradeFill[] | null | false {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    issues.push({ row, severity: 'error', message: 'fills: must be a list of fills' });
    return false;
  }
  const fills: TradeFill[] = [];
  for (const [index, item] of value.entries()) {
    const record = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    const time = typeof record['time'] === 'string' ? Date.parse(record['time']) : Number.NaN;
    const side = record['side'] === 'Buy' || record['side'] === 'Sell' ? record['side'] : null;
    const quantity = parseDecimal(record['quantity']);
    const price = parseDecimal(record['price']);
    const commission = record['commission'] === null || record['commission'] === undefined ? null : parseDecimal(record['commission']);
    if (
      !Number.isFinite(time) ||
      side === null ||
      quantity === null ||
      !quantity.gt(0) ||
      price === null ||
      (record['commission'] != null && commission === null)
    ) {
      issues.push({ row, severity: 'error', message: `fills[${index}]: needs time, side (Buy or Sell), a positive quantity and a price` });
      return false;
    }
    const fill: TradeFill = { time, side, quantity, price, commission: commission === null ? null : Math.abs(decimalToCents(commission)) };
    fills.push(fill);
  }
  return fills.length > 0 ? fills : null;
}
