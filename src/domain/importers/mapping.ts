import Papa from 'papaparse';
import { readFillRows } from './formats/fill-rows';
import { readPnlRows } from './formats/generic-pnl';
import { hash } from '../fills/import-key';
import { normalizeHeader } from './parsing';
import type { Importer } from './types';

/**
 * No file a trader has should end in a dead end. For a CSV of a format we do not know, the trader
 * maps its columns: either fills (time, symbol, side, quantity, price, and optionally commission and account),
 * matched into round trips like every fills format, or one P&L per row (date or time, P&L, and optionally symbol and
 * commission), like the generic P&L format. The mapping names the file's own headers and is remembered by the
 * header row (headerKey), so the next export of the same platform imports without asking.
 */
export interface ColumnMapping {
  kind: 'fills' | 'pnl';
  /** Date and time in one column, or the date alone (with `clock` for a separate time column). */
  time: string;
  clock?: string;
  symbol?: string;
  /** Without a side column, the sign of the quantity gives the side. */
  side?: string;
  quantity?: string;
  price?: string;
  commission?: string;
  pnl?: string;
  account?: string;
}

export const MAPPED_FORMAT = { id: 'mapped', label: 'Your column mapping' } as const;

export const MAPPING_FIELDS = ['time', 'clock', 'symbol', 'side', 'quantity', 'price', 'commission', 'pnl', 'account'] as const;

/** What a mapping lacks to be read, in the words of the dialog; null when it is complete. */
export function mappingProblem(mapping: ColumnMapping, headers: string[]): string | null {
  const known = new Set(headers.map(normalizeHeader));
  for (const field of MAPPING_FIELDS) {
    const column = mapping[field];
    if (column !== undefined && !known.has(normalizeHeader(column))) return `The file has no column '${column}' (for ${field})`;
  }
  const required: Array<keyof ColumnMapping> = mapping.kind === 'fills' ? ['time', 'symbol', 'quantity', 'price'] : ['time', 'pnl'];
  const missing = required.filter((field) => !mapping[field]);
  return missing.length === 0 ? null : `Choose the column for ${missing.join(', ')}`;
}

/** The importer a mapping describes. */
export function mappedImporter(mapping: ColumnMapping): Importer {
  const column = (name: string | undefined) => (name ? [normalizeHeader(name)] : []);
  return {
    ...MAPPED_FORMAT,
    columns: MAPPING_FIELDS.map((field) => mapping[field]).filter((c): c is string => Boolean(c)),
    detect: () => false,
    parse: (rows, options) =>
      mapping.kind === 'fills'
        ? readFillRows(rows, options, {
            symbol: column(mapping.symbol),
            ...(mapping.side ? { side: column(mapping.side) } : {}),
            quantity: column(mapping.quantity),
            price: column(mapping.price),
            time: mapping.clock ? [] : column(mapping.time),
            ...(mapping.clock ? { date: column(mapping.time), clock: column(mapping.clock) } : {}),
            account: column(mapping.account),
            costs: column(mapping.commission),
            idNamespace: 'mapped',
          })
        : readPnlRows(rows, options, {
            date: column(mapping.time),
            pnl: column(mapping.pnl),
            symbol: column(mapping.symbol),
            commission: column(mapping.commission),
            quantity: column(mapping.quantity),
          }),
  };
}

/** The header row of a CSV as the mapping is remembered by: its normalised column names, hashed. */
export function headerKey(headers: string[]): string {
  return `h1:${hash(headers.map(normalizeHeader).join('\u0000'))}`;
}

/** The header row of a CSV from the start of its text (the first line that is not blank), for headerKey. */
export function readHeaderRow(text: string): string[] {
  const { data } = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    preview: 20,
    skipEmptyLines: false,
    delimitersToGuess: [',', '\t', ';', '|'],
  });
  const first = data.find((record) => record.some((cell) => cell.trim() !== ''));
  return (first ?? []).map((h) => h.replace(/^\uFEFF/, '').trim()).filter((h) => h !== '');
}
