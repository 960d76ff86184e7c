import { decimalToCents, Decimal } from '../../money';
import { isFuturesInstrument, parseInstrument } from '../../instruments';
import { marketDayOf } from '../../market-time';
import { cell, hasAny, instantFromParts, parseAmount, parseDateParts } from '../parsing';
import type { ParsedTrade } from '../../fills/types';
import type { CsvRow, FormatParseResult, Importer, ParseOptions } from '../types';
import { costCents, emptyResult, rowError } from './common';

const PNL = ['pnl', 'p&l', 'p/l', 'net p/l', 'net pnl', 'realized pnl', 'realized p&l', 'profit/loss', 'profit', 'net profit', 'gain/loss'];
const DATE = ['date', 'trade date', 'close date', 'exit date', 'closed', 'date/time', 'exit time', 'time'];
const SYMBOL = ['symbol', 'instrument', 'ticker', 'contract', 'market'];

/**
 * Generic P&L files: any file with a date and a P&L column. Rows are grouped per day and symbol and
 * their P&L summed into one trade of that day; currency symbols, thousands separators and parentheses are handled.
 * The P&L column is read as before commission when the file also has a commission column (the Add dialog's "PnL
 * (before commission)"), and as the trade's pnl otherwise. The day is the date as written in the file (no time zone
 * shift: a daily P&L sheet means that calendar day); the session comes from the earliest time of the group when rows
 * have times (read in the chosen zone, classified in the market zone), else it is the spec's default session, AM.
 * Known limit: adding rows to a day and importing again changes that day's sum, and so its key.
 */
export const genericPnl: Importer = {
  id: 'generic-pnl',
  label: 'Generic P&L (date, symbol, pnl)',
  columns: ['date', 'symbol', 'pnl', 'commission'],
  detect: (headers) => hasAny(headers, PNL) && hasAny(headers, DATE),
  parse: (rows, options) => readPnlRows(rows, options, { date: DATE, pnl: PNL, symbol: SYMBOL, commission: COMMISSION, quantity: QUANTITY }),
};

const COMMISSION = ['commission', 'commissions', 'fees', 'fee'];
const QUANTITY = ['qty', 'quantity', 'size', 'contracts'];

/** Column names (normalised) of a P&L-per-row file; the first present wins. */
export interface PnlColumns {
  date: string[];
  pnl: string[];
  symbol: string[];
  commission: string[];
  quantity: string[];
}

/** Rows of one P&L each, grouped per day and symbol (the generic P&L format, and a trader's own mapping). */
export function readPnlRows(rows: Iterable<CsvRow>, options: ParseOptions, columns: PnlColumns): FormatParseResult {
  const result = emptyResult();
  const groups = new Map<
    string,
    { day: string; symbol: string; gross: Decimal; commission: number; quantity: Decimal | null; earliest: number | null; rows: number[] }
  >();
  for (const { row, cells } of rows) {
    const dateText = cell(cells, ...columns.date);
    const parts = parseDateParts(dateText);
    const pnlText = cell(cells, ...columns.pnl);
    const pnl = parseAmount(pnlText);
    const commission = costCents(cell(cells, ...columns.commission));
    if (parts === null || pnl === null || commission === null) {
      const what = parts === null ? `date '${dateText}'` : pnl === null ? `P&L '${pnlText}'` : 'commission';
      rowError(result.issues, row, `Missing or unreadable ${what}`);
      continue;
    }
    const day = `${parts.year}-${String(parts.month).padStart(2, '0')}-${String(parts.day).padStart(2, '0')}`;
    const symbol = cell(cells, ...columns.symbol) || 'Unknown';
    const key = `${day}\u0000${symbol.toUpperCase()}`;
    let group = groups.get(key);
    if (!group) {
      group = { day, symbol, gross: new Decimal(0), commission: 0, quantity: null, earliest: null, rows: [] };
      groups.set(key, group);
    }
    group.gross = group.gross.plus(pnl);
    group.commission += commission;
    const quantity = parseAmount(cell(cells, ...columns.quantity));
    if (quantity !== null) group.quantity = (group.quantity ?? new Decimal(0)).plus(quantity.abs());
    if (parts.hasTime) {
      const instant = instantFromParts(parts, options);
      if (group.earliest === null || instant < group.earliest) group.earliest = instant;
    }
    group.rows.push(row);
  }
  for (const group of groups.values()) {
    const instrument = parseInstrument(group.symbol);
    const trade: ParsedTrade = {
      rows: group.rows,
      account: '',
      contract: instrument.isFuturesContract ? instrument.contract : '',
      root: instrument.root,
      side: null,
      entryTime: null,
      exitTime: null,
      day: group.day,
      quantity: group.quantity,
      entryPrice: null,
      exitPrice: null,
      grossPnl: decimalToCents(group.gross),
      commission: group.commission,
      entryFills: group.rows.length,
    };
    if (group.earliest !== null) trade.session = marketDayOf(group.earliest, { futures: isFuturesInstrument(group.symbol) }).session;
    result.trades.push(trade);
  }
  return result;
}
