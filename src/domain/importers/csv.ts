import Papa from 'papaparse';
import { normalizeHeader } from './parsing';
import type { CsvRow } from './types';

export interface CsvTable {
  /** Normalised header names (see normalizeHeader), in file order. */
  headers: string[];
  /** As written in the file, for messages. */
  rawHeaders: string[];
  rows: CsvRow[];
}

/**
 * Parses CSV text with PapaParse (delimiter guessed among , ; tab |, quotes and CRLF handled). The first non-blank
 * record is the header; blank records (NinjaTrader pads its grid with ',,,,,' lines) are skipped. Row numbers are
 * the record's position counting the header as row 1, as a spreadsheet shows the file.
 */
export function readCsv(text: string): CsvTable {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false, delimitersToGuess: [',', '\t', ';', '|'] });
  const records = parsed.data;
  const headerIndex = records.findIndex((record) => !isBlank(record));
  if (headerIndex === -1) return { headers: [], rawHeaders: [], rows: [] };
  const rawHeaders = records[headerIndex]!.map((h) => h.replace(/^\uFEFF/, '').trim());
  const headers = rawHeaders.map(normalizeHeader);
  const rows: CsvRow[] = [];
  for (let index = headerIndex + 1; index < records.length; index++) {
    const record = records[index]!;
    if (isBlank(record)) continue;
    const cells: Record<string, string> = {};
    headers.forEach((name, column) => {
      if (name === '' || name in cells) return;
      cells[name] = record[column] ?? '';
    });
    rows.push({ row: index + 1, cells });
  }
  return { headers: headers.filter((h) => h !== ''), rawHeaders: rawHeaders.filter((h) => h !== ''), rows };
}

function isBlank(record: string[]): boolean {
  return record.every((value) => value.trim() === '');
}
