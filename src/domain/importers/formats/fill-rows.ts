import { fillId } from '../../fills/import-key';
import { sharedText } from '../csv';
import { parseInstrument } from '../../instruments';
import { cell, parseAmount, parseInstant, parsePositive, parseSide } from '../parsing';
import type { CsvRow, FormatParseResult, ParseOptions } from '../types';
import { costCents, describeMissing, emptyResult, ignore, rowError } from './common';

/** Column names (normalised) of a format that has one filled order or execution per row. First match wins. */
export interface FillColumns {
  symbol: string[];
  /** Without a side column, the sign of the quantity is the side (IBKR style: +2 bought, -2 sold). */
  side?: string[];
  quantity: string[];
  price: string[];
  time: string[];
  /** Separate date and time columns, joined when `time` is absent. */
  date?: string[];
  clock?: string[];
  account?: string[];
  id?: string[];
  /** Summed: commission and fee columns. */
  costs?: string[];
  status?: string[];
  /** Statuses whose rows are fills; other statuses are ignored (counted), not errors. Lower case, trimmed. */
  filledStatuses?: string[];
  /** Statuses (among filledStatuses) of orders that may have filled partly: ignored when they have no fill. */
  maybeFilledStatuses?: string[];
  idNamespace: string;
  /** Order of fills that share a second: by the id (when the broker numbers fills in time order) or by row. */
  seqFromId?: boolean;
}

/**
 * Reads fill-per-row files: Tradovate Orders, TopstepX orders, Quantower, TradeSyncer-like fills, order-level files.
 * Unfilled rows (cancelled, rejected, working) are counted as ignored; unreadable filled rows become issues.
 */
export function readFillRows(rows: Iterable<CsvRow>, options: ParseOptions, columns: FillColumns): FormatParseResult {
  const result = emptyResult();
  let first = true;
  for (const { row, cells } of rows) {
    if (first) {
      // Costs are the file's when it has a cost column at all (an empty cell is then a fill without costs).
      result.costsInFile = (columns.costs ?? []).some((name) => name in cells);
      first = false;
    }
    if (columns.status && columns.filledStatuses) {
      const status = cell(cells, ...columns.status).toLowerCase();
      if (status !== '' && !columns.filledStatuses.includes(status)) {
        ignore(result, `${status} orders`);
        continue;
      }
    }
    if (columns.status && columns.maybeFilledStatuses?.includes(cell(cells, ...columns.status).toLowerCase())) {
      const filled = parsePositive(cell(cells, ...columns.quantity));
      if (filled === null) {
        ignore(result, `${cell(cells, ...columns.status).toLowerCase()} orders`);
        continue;
      }
    }
    const symbol = cell(cells, ...columns.symbol);
    const sideText = columns.side ? cell(cells, ...columns.side) : '';
    const signed = columns.side ? null : parseAmount(cell(cells, ...columns.quantity));
    const side = columns.side ? parseSide(sideText) : signed === null || signed.isZero() ? null : signed.gt(0) ? 'Buy' : 'Sell';
    const quantity = columns.side ? parsePositive(cell(cells, ...columns.quantity)) : signed === null || signed.isZero() ? null : signed.abs();
    const price = parsePositive(cell(cells, ...columns.price));
    let timeText = cell(cells, ...columns.time);
    let time = parseTimeCell(timeText, options);
    if (time === null && columns.date) {
      const joined = [cell(cells, ...columns.date), columns.clock ? cell(cells, ...columns.clock) : ''].join(' ').trim();
      if (joined !== '') {
        timeText = joined;
        time = parseTimeCell(joined, options);
      }
    }
    const missing = describeMissing({ symbol, side, quantity, price, time });
    if (missing !== null) {
      // An order that never filled often has no fill price, time or quantity; without a status column it is still
      // worth a line in the preview, since it may be a fill the file mangled.
      rowError(result.issues, row, `Missing or unreadable ${missing}${side === null && sideText ? ` (side '${sideText}')` : ''}`);
      continue;
    }
    let commission = 0;
    let badCost = '';
    for (const name of columns.costs ?? []) {
      const cents = costCents(cells[name] ?? '');
      if (cents === null) badCost = name;
      else commission += cents;
    }
    if (badCost) {
      rowError(result.issues, row, `Unreadable ${badCost} '${cells[badCost]}'`);
      continue;
    }
    const instrument = parseInstrument(symbol);
    const id = columns.id ? cell(cells, ...columns.id) : '';
    result.fills.push({
      rows: [row],
      // Names kept with every fill, and later every trade: copies of their own, not slices of the file's text.
      account: columns.account ? sharedText(cell(cells, ...columns.account)) : '',
      contract: sharedText(instrument.contract),
      root: sharedText(instrument.root),
      side: side!,
      quantity: quantity!,
      price: price!,
      time: time!,
      commission,
      ...(id ? { id: fillId(columns.idNamespace, id) } : {}),
      ...(columns.seqFromId && /^\d{1,15}$/.test(id) ? { seq: Number(id) } : {}),
    });
  }
  return result;
}

/** Date-times, or epoch seconds / milliseconds (order-level 'timestamp' columns). */
export function parseTimeCell(text: string, options: ParseOptions): number | null {
  if (/^\d{9,13}(\.\d+)?$/.test(text)) {
    if (options.clock) options.clock.zoned++;
    const value = parseAmount(text)!.toNumber();
    return Math.round(value < 1e11 ? value * 1000 : value);
  }
  return parseInstant(text, options);
}
