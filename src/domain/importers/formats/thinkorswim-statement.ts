import Papa from 'papaparse';
import { Decimal, decimalToCents, type Cents } from '../../money';
import { parseInstrument } from '../../instruments';
import { normalizeHeader, parseAmount, parseDateParts, parseInstant, parseSide } from '../parsing';
import type { Fill } from '../../fills/types';
import type { StatementImporter } from '../types';
import { emptyResult, ignore, rowError } from './common';

/**
 * thinkorswim (Schwab, formerly TD Ameritrade) account statement, CSV (Monitor > Account Statement > Export to File).
 * Sections one after another, each a title line and then its own header: Cash Balance, Futures Statements, Forex
 * Statements, Account Order History, Account Trade History, Equities, Profits and Losses, Account Summary. The fills
 * are the Account Trade History (`,Exec Time,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,Price,Net Price,Order
 * Type`), newest first, often to the minute, Qty signed, futures as `/MESM25`. Their costs are in the Cash Balance
 * (stocks) and Futures Statements (futures) as TRD lines, `BOT +1 /MGCJ26:XCEC @5086.00` with Misc Fees and
 * Commissions & Fees, to the second: each fill is joined to the TRD line of the same side, symbol, quantity, price
 * and minute, which gives it its costs and its second. Options are counted and left out. Times carry no zone.
 */
export const thinkorswimStatement: StatementImporter = {
  id: 'thinkorswim-statement',
  label: 'thinkorswim account statement',
  columns: [
    'Account Trade History: Exec Time',
    'Side',
    'Qty',
    'Symbol',
    'Type',
    'Price',
    'Cash Balance / Futures Statements: Misc Fees, Commissions & Fees',
  ],
  detectText: (text) => /^Account Statement for /.test(text.slice(0, 200)) || /^Account Trade History,/m.test(text.slice(0, 1_000_000)),
  parseText(text, options) {
    const result = emptyResult();
    const records = Papa.parse<string[]>(text, { skipEmptyLines: false, delimiter: ',' }).data;
    const title = (records[0]?.[0] ?? '').trim();
    const account = /^Account Statement for (.+?) (?:\(|since)/.exec(title)?.[1]?.trim() ?? '';
    const sections = readSections(records);

    // Costs and exact times from the money sections, by side, symbol, quantity and price.
    const executions: Execution[] = [];
    for (const name of ['Cash Balance', 'Futures Statements']) {
      for (const { row, cells } of sections.get(name) ?? []) {
        if ((cells.get('type') ?? '').toUpperCase() !== 'TRD') continue;
        const match = /\b(BOT|SOLD)\s+([+-]?[\d,]+(?:\.\d+)?)\s+(\S+?)(?::\S+)?(?:\s.*?)?\s+@\s*([\d,.]+)/.exec(cells.get('description') ?? '');
        const date = cells.get('exec date') || cells.get('date') || cells.get('trade date') || '';
        const clock = cells.get('exec time') || cells.get('time') || '';
        const time = parseInstant(`${date} ${clock}`.trim(), options);
        if (!match || time === null) continue;
        const fees = [cells.get('misc fees'), cells.get('commissions & fees')].reduce<Cents>((sum, text) => {
          const value = parseAmount(text && text !== '--' ? text : undefined);
          return sum + (value === null ? 0 : Math.abs(decimalToCents(value)));
        }, 0);
        executions.push({
          row,
          side: match[1] === 'BOT' ? 'Buy' : 'Sell',
          quantity: new Decimal(match[2]!.replace(/[+,-]/g, '')),
          contract: parseInstrument(match[3]!).contract,
          price: new Decimal(match[4]!.replace(/,/g, '')),
          time,
          fees,
          used: false,
        });
      }
    }

    const trades = sections.get('Account Trade History') ?? [];
    let minuteOnly = false;
    let joined = 0;
    const fills: Fill[] = [];
    for (const { row, cells } of trades) {
      const type = (cells.get('type') ?? '').toUpperCase();
      if (type === 'CALL' || type === 'PUT' || /OPTION/.test((cells.get('spread') ?? '').toUpperCase())) {
        ignore(result, 'option rows');
        continue;
      }
      const symbol = cells.get('symbol') ?? '';
      const quantity = parseAmount(cells.get('qty'));
      const side = parseSide(cells.get('side')) ?? (quantity === null ? null : quantity.gt(0) ? 'Buy' : 'Sell');
      const price = parseAmount(cells.get('price') || cells.get('net price'));
      const timeText = cells.get('exec time') ?? '';
      const parts = parseDateParts(timeText);
      const time = parseInstant(timeText, options);
      const missing = [
        !symbol && 'Symbol',
        (quantity === null || quantity.isZero()) && 'Qty',
        side === null && 'Side',
        (price === null || price.lte(0)) && 'Price',
        time === null && 'Exec Time',
      ].filter(Boolean);
      if (missing.length > 0) {
        rowError(result.issues, row, `Missing or unreadable ${missing.join(', ')}`);
        continue;
      }
      const instrument = parseInstrument(symbol);
      const size = quantity!.abs();
      // The money line of this fill: same side, contract, quantity and price, within the fill's minute (or second).
      const window = parts!.hasSeconds ? 1_000 : 60_000;
      const execution = executions.find(
        (e) =>
          !e.used &&
          e.side === side &&
          e.contract === instrument.contract &&
          e.quantity.eq(size) &&
          e.price.eq(price!) &&
          Math.floor(e.time / window) === Math.floor(time! / window),
      );
      if (execution) {
        execution.used = true;
        joined++;
      } else if (!parts!.hasSeconds) minuteOnly = true;
      fills.push({
        rows: execution ? [row, execution.row] : [row],
        account,
        contract: instrument.contract,
        root: instrument.root,
        side: side!,
        quantity: size,
        price: price!,
        time: execution ? execution.time : time!,
        commission: execution?.fees ?? 0,
      });
    }
    // Newest first in the file: the oldest fill of a second or minute is the last one listed.
    fills.forEach((fill, i) => (fill.seq = fills.length - i));
    result.fills = fills;
    result.minutePrecision = minuteOnly;
    // Without its money sections, the statement says nothing of costs: the account's fee schedule applies.
    result.costsInFile = fills.length === 0 || joined > 0;
    return { ...result, rowCount: trades.length };
  },
};

interface Execution {
  row: number;
  side: 'Buy' | 'Sell';
  quantity: Decimal;
  contract: string;
  price: Decimal;
  time: number;
  fees: Cents;
  used: boolean;
}

const SECTION_TITLES = new Set([
  'Cash Balance',
  'Futures Statements',
  'Forex Statements',
  'Account Order History',
  'Account Trade History',
  'Equities',
  'Options',
  'Futures',
  'Futures Options',
  'Profits and Losses',
  'Account Summary',
  'Forex Account Summary',
]);

/** Each section's data lines with their cells keyed by the section's own header. */
function readSections(records: string[][]): Map<string, Array<{ row: number; cells: Map<string, string> }>> {
  const sections = new Map<string, Array<{ row: number; cells: Map<string, string> }>>();
  let current: string | null = null;
  let header: string[] | null = null;
  records.forEach((record, index) => {
    const first = (record[0] ?? '').trim();
    const rest = record.slice(1).every((cell) => cell.trim() === '');
    if (SECTION_TITLES.has(first) && rest) {
      current = first;
      header = null;
      sections.set(current, []);
      return;
    }
    if (current === null) return;
    if (record.every((cell) => cell.trim() === '')) return;
    if (header === null) {
      header = record.map(normalizeHeader);
      return;
    }
    const cells = new Map<string, string>();
    header.forEach((name, column) => {
      if (name && !cells.has(name)) cells.set(name, (record[column] ?? '').trim());
    });
    // Totals lines ('TOTAL' in the description) are sums, not fills.
    if (record.some((cell) => cell.trim() === 'TOTAL')) return;
    sections.get(current)!.push({ row: index + 1, cells });
  });
  return sections;
}
