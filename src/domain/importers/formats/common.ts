import type { Cents } from '../../money';
import { decimalToCents } from '../../money';
import { parseAmount } from '../parsing';
import type { ImportIssue } from '../../fills/types';
import type { FormatParseResult } from '../types';

export function emptyResult(): FormatParseResult {
  return { fills: [], trades: [], openPositions: [], issues: [], ignored: {} };
}

export function rowError(issues: ImportIssue[], row: number, message: string): void {
  issues.push({ row, message, severity: 'error' });
}

export function ignore(result: FormatParseResult, reason: string): void {
  result.ignored[reason] = (result.ignored[reason] ?? 0) + 1;
}

/** Adds the P&L the file reports for a closed pair to the cross-check of point values. */
export function reportGross(result: FormatParseResult, account: string, contract: string, cents: Cents, row: number): void {
  result.reportedGross ??= new Map();
  const key = `${account}\u0000${contract}`;
  const entry = result.reportedGross.get(key) ?? { cents: 0, rows: [] };
  entry.cents += cents;
  entry.rows.push(row);
  result.reportedGross.set(key, entry);
}

/** Costs as the file prints them, as positive cents (Quantower prints fees as negative numbers). 0 when blank. */
export function costCents(text: string): Cents | null {
  if (text.trim() === '') return 0;
  const value = parseAmount(text);
  return value === null ? null : Math.abs(decimalToCents(value));
}

/** What a fill-level row needs; `missing` names the first unreadable field for the row's issue. */
export function describeMissing(fields: Record<string, unknown>): string | null {
  let complete = true;
  for (const name in fields) {
    const value = fields[name];
    if (value === null || value === undefined || value === '') complete = false;
  }
  if (complete) return null;
  const missing = Object.entries(fields)
    .filter(([, value]) => value === null || value === undefined || value === '')
    .map(([name]) => name);
  return missing.length === 0 ? null : missing.join(', ');
}
