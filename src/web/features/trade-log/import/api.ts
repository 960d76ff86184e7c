import type { QueryClient } from '@tanstack/react-query';
import type { ColumnMapping, TimeZoneCheck, ZoneFit } from '../../../../domain/importers';

// The preview's time-zone check is the domain's own result, sent as it is.
export type { TimeZoneCheck, ZoneFit };
import { ApiError, apiFetch } from '../../../lib/api';
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
  /** Why the file leaves this trade's reading uncertain (same-minute fills of a minute-precision file). */
  ambiguity: string | null;
  /** The trading account it goes into; null while its file account has none. */
  account_id: string | null;
  /** 'schedule' when the account's fee schedule set the commission (the file had none). */
  commission_source: 'schedule' | null;
}

/** An account named in the file and the trading account it goes into (issue 12, point 7). */
export interface FileAccount {
  name: string;
  account_id: string | null;
  source: 'chosen' | 'remembered' | 'name' | 'skipped' | null;
  suggested_account_id: string | null;
  trades: number;
  new_trades: number;
  totals: { trades: number; gross_pnl: string; commission: string; net_pnl: string };
}

/** Dollars per contract per side (issue 12, point 5). */
export interface FeeSchedule {
  account_id: string;
  micro: string;
  mini: string;
  roots: Record<string, string>;
  /** False while the account uses the defaults. */
  stored: boolean;
  defaults: { micro: string; mini: string; roots: Record<string, string> };
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
  file_accounts: FileAccount[];
  total_trades: number;
  new_trades: number;
  duplicates: number;
  /** Duplicates recognised as the same round trips from another export of the account. */
  duplicates_from_other_exports: number;
  unmapped_trades: number;
  skipped_trades: number;
  /** False when the file has no commissions or fees: the accounts' fee schedules were applied. */
  costs_in_file: boolean;
  fee_schedules: FeeSchedule[];
  /** The header row as written (for the column mapping). */
  headers: string[];
  /** The column mapping the file was read with; remembered when it came from an earlier import of these columns. */
  mapping: ColumnMapping | null;
  mapping_remembered: boolean;
  /** The first new trades (all are counted in new_trades). */
  trades: PreviewTrade[];
  trades_truncated: boolean;
  open_positions: OpenPosition[];
  issues: ImportIssue[];
  unreadable_rows: number;
  ignored: Record<string, number>;
  totals: { trades: number; gross_pnl: string; commission: string; net_pnl: string };
  time_zone_check: TimeZoneCheck | null;
}

export interface ImportOutcome {
  imported: number;
  duplicates: number;
  total_trades: number;
  skipped_trades: number;
  open_positions: number;
  skipped_rows: number;
  accounts: Array<{ account_id: string; imported: number; duplicates: number }>;
}

export interface ImportOptions {
  /** A format id, or undefined to detect it. */
  format?: string;
  timeZone: string;
  accountId?: string | null;
  /** File account -> trading account id ('' leaves it out). */
  accountMap?: Record<string, string>;
  /** The trader's column mapping for a CSV of a format we do not read. */
  mapping?: ColumnMapping | null;
}

/** The rows shown in the dialog; the rest are counted. */
export const PREVIEW_ROWS = 200;

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return '';
  }
}

function query(options: ImportOptions, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ time_zone: options.timeZone, ...extra });
  const browser = browserTimeZone();
  if (browser) params.set('browser_time_zone', browser);
  if (options.format) params.set('format', options.format);
  if (options.accountId) params.set('account_id', options.accountId);
  if (options.accountMap && Object.keys(options.accountMap).length > 0) params.set('account_map', JSON.stringify(options.accountMap));
  if (options.mapping) params.set('mapping', JSON.stringify(options.mapping));
  return params.toString();
}

/** A .json file goes as JSON, anything else as CSV; the server decides by the content either way. */
function contentType(fileName: string): string {
  return /\.json$/i.test(fileName) ? 'application/json' : 'text/csv';
}

/** A refused file, with the server's code and, for an unknown format, the columns it found (for the mapping). */
export class ImportRequestError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly code: string | undefined,
    readonly headers: string[] | undefined,
  ) {
    super(status, message);
    this.name = 'ImportRequestError';
  }
}

/** Upload progress of the file: bytes sent so far out of the file's size. */
export type UploadProgress = (sent: number, total: number) => void;

/**
 * POSTs the file with XMLHttpRequest rather than fetch, which cannot report how much of a request body has been sent
 * (issue 12, point 9: a 25 MB file shows its upload progress, then the server's reading).
 */
function upload<T>(url: string, file: { name: string; bytes: ArrayBuffer }, onProgress?: UploadProgress, signal?: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', contentType(file.name));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.bytes.byteLength);
    xhr.upload.onload = () => onProgress?.(file.bytes.byteLength, file.bytes.byteLength);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else {
        const details = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; code?: unknown; headers?: unknown };
        const message = typeof details.error === 'string' ? details.error : `Request failed (${xhr.status})`;
        const headers = Array.isArray(details.headers) ? details.headers.filter((h): h is string => typeof h === 'string') : undefined;
        reject(new ImportRequestError(xhr.status, message, typeof details.code === 'string' ? details.code : undefined, headers));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'Request failed (network error)'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file.bytes);
  });
}

export function previewImport(file: { name: string; bytes: ArrayBuffer }, options: ImportOptions, onProgress?: UploadProgress, signal?: AbortSignal) {
  return upload<ImportPreview>(`/api/imports/preview?${query(options, { limit: String(PREVIEW_ROWS) })}`, file, onProgress, signal);
}

export function commitImport(
  file: { name: string; bytes: ArrayBuffer },
  options: ImportOptions & { accountId: string; skipUnreadable: boolean },
  onProgress?: UploadProgress,
) {
  const extra: Record<string, string> = options.skipUnreadable ? { skip_unreadable: 'true' } : {};
  return upload<ImportOutcome>(`/api/imports?${query(options, extra)}`, file, onProgress);
}

export const feeScheduleQuery = (accountId: string) => ({
  queryKey: ['imports', 'fees', accountId] as const,
  queryFn: () => apiFetch<FeeSchedule>(`/api/imports/fees/${accountId}`),
});

export function saveFeeSchedule(accountId: string, schedule: { micro: string; mini: string; roots: Record<string, string> }) {
  return apiFetch<FeeSchedule>(`/api/imports/fees/${accountId}`, { method: 'PUT', body: JSON.stringify(schedule) });
}

export function applyFeeSchedule(accountId: string) {
  return apiFetch<{ updated: number; trades: number }>(`/api/imports/fees/${accountId}/apply`, { method: 'POST', body: '{}' });
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

