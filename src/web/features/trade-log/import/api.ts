import type { QueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { queryKeys, type TradingAccount } from '../../../shared/api';

/**
 * The import endpoints (src/server/features/imports): the file's bytes are the body, the options the query string.
 * The server parses the file itself; the browser only shows what the server read.
 */

export interface ImportIssue {
  /** Spreadsheet row (the header is row 1); 0 means the file as a whole. */
  row: number;
  severity: 'error' | 'warning';
  message: string;
}

export interface PreviewTrade {
  import_key: string;
  rows: number[];
  file_account: string;
  date: string;
  trade_date: string;
  day_of_week: string;
  symbol: string;
  contract: string | null;
  side: 'Long' | 'Short' | null;
  period: string;
  trade_type: string;
  status: 'Win' | 'Loss' | 'BE';
  entry_time: string | null;
  exit_time: string | null;
  quantity: string | null;
  entry_price: string | null;
  exit_price: string | null;
  gross_pnl: string;
  commission: string;
  /** Net of commission. */
  pnl: string;
  tags: string[];
  fills: { entry: number; exit: number };
}

export interface OpenPosition {
  file_account: string;
  symbol: string;
  contract: string;
  side: 'Long' | 'Short';
  quantity: string;
  average_price: string;
  opened_at: string | null;
  rows: number[];
}

export interface ImportPreview {
  format: { id: string; label: string };
  /** What detection chose when the trader picked another format. */
  detected_format: { id: string; label: string } | null;
  time_zone: string;
  account_id: string | null;
  row_count: number;
  file_accounts: string[];
  total_trades: number;
  new_trades: number;
  duplicates: number;
  /** The first new trades (all are counted in new_trades). */
  trades: PreviewTrade[];
  trades_truncated: boolean;
  open_positions: OpenPosition[];
  issues: ImportIssue[];
  unreadable_rows: number;
  ignored: Record<string, number>;
  totals: { trades: number; gross_pnl: string; commission: string; net_pnl: string };
}

export interface ImportOutcome {
  imported: number;
  duplicates: number;
  total_trades: number;
  open_positions: number;
  skipped_rows: number;
}

export interface ImportOptions {
  /** A format id, or undefined to detect it. */
  format?: string;
  timeZone: string;
  accountId?: string | null;
}

/** The rows shown in the dialog; the rest are counted. */
export const PREVIEW_ROWS = 200;

function query(options: ImportOptions, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ time_zone: options.timeZone, ...extra });
  if (options.format) params.set('format', options.format);
  if (options.accountId) params.set('account_id', options.accountId);
  return params.toString();
}

/** A .json file goes as JSON, anything else as CSV; the server decides by the content either way. */
function contentType(fileName: string): string {
  return /\.json$/i.test(fileName) ? 'application/json' : 'text/csv';
}

export function previewImport(file: { name: string; bytes: ArrayBuffer }, options: ImportOptions) {
  return apiFetch<ImportPreview>(`/api/imports/preview?${query(options, { limit: String(PREVIEW_ROWS) })}`, {
    method: 'POST',
    body: file.bytes,
    headers: { 'Content-Type': contentType(file.name) },
  });
}

export function commitImport(
  file: { name: string; bytes: ArrayBuffer },
  options: ImportOptions & { accountId: string; skipUnreadable: boolean },
) {
  const extra: Record<string, string> = options.skipUnreadable ? { skip_unreadable: 'true' } : {};
  return apiFetch<ImportOutcome>(`/api/imports?${query(options, extra)}`, {
    method: 'POST',
    body: file.bytes,
    headers: { 'Content-Type': contentType(file.name) },
  });
}

export function createAccount(values: { name: string; description: string; is_default: boolean }) {
  return apiFetch<TradingAccount>('/api/accounts', {
    method: 'POST',
    body: JSON.stringify({
      name: values.name.trim(),
      description: values.description.trim() === '' ? null : values.description.trim(),
      is_default: values.is_default,
    }),
  });
}

/**
 * After an import: every trade list, count and statistic (all under ['trades']), the accounts, and anything keyed
 * ['stats'] (spec part 2 §9 "post-import refresh").
 */
export function invalidateAfterImport(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.trades.all }),
    client.invalidateQueries({ queryKey: queryKeys.accounts.all }),
    client.invalidateQueries({ queryKey: ['stats'] }),
  ]);
}

