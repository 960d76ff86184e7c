import type { QueryClient } from '@tanstack/react-query';
import type { ColumnMapping, TimeZoneCheck, ZoneFit } from '../../../../domain/importers';

// The preview's time-zone check is the domain's own result, sent as it is.
export type { TimeZoneCheck, ZoneFit };
import { ApiError, apiFetch } from '../../../lib/api';
import { reportUnauthorized } from '../../../lib/session-expiry';
import { queryKeys, type TradingAccount } from '../../../shared/api';

/**
 * The import endpoints (src/server/features/imports): the file's bytes are the body, the options the query string.
 * The server parses the file itself; the browser only shows what the server read.
 */

// The shapes of the import endpoints' answers are their contract's (src/contract/imports.ts), types only.
import type { FeeScheduleDto as FeeSchedule, ImportOutcome, ImportPreview, ImportQueue } from '../../../../contract/imports';
import type { FeeScheduleApplied } from '../../../../contract/imports';

export type { FileAccount, ImportIssue, ImportOutcome, ImportPreview, OpenPosition, PreviewTrade } from '../../../../contract/imports';
export type { FeeSchedule };

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

/**
 * Refusals of the server that are about its load, not the file: their message tells the trader
 * what to do (try again shortly), though the status is 503.
 */
const BUSY_CODES = new Set(['import-busy', 'import-too-large-now']);

/** The message of a busy refusal, which is meant for the trader, or undefined. */
export function busyMessage(error: unknown): string | undefined {
  return error instanceof ImportRequestError && error.code !== undefined && BUSY_CODES.has(error.code) ? error.message : undefined;
}

/** GET /api/imports/queue: whether this trader's upload waits for other files to be read first. */
export const importQueueQuery = {
  queryKey: queryKeys.imports.queue,
  queryFn: () => apiFetch<ImportQueue>('/api/imports/queue'),
};

/** Upload progress of the file: bytes sent so far out of the file's size. */
export type UploadProgress = (sent: number, total: number) => void;

/**
 * POSTs the file with XMLHttpRequest rather than fetch, which cannot report how much of a request body has been sent
 * (a 25 MB file shows its upload progress, then the server's reading).
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
        if (xhr.status === 401) reportUnauthorized();
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
  options: ImportOptions & { accountId: string; skipUnreadable: boolean; setup?: string; playbookId?: string },
  onProgress?: UploadProgress,
) {
  const extra: Record<string, string> = options.skipUnreadable ? { skip_unreadable: 'true' } : {};
  // The setup for the file's trades that name none: only the import itself takes it.
  if (options.setup) extra.setup = options.setup;
  if (options.playbookId) extra.playbook_id = options.playbookId;
  return upload<ImportOutcome>(`/api/imports?${query(options, extra)}`, file, onProgress);
}

export const feeScheduleQuery = (accountId: string) => ({
  queryKey: queryKeys.imports.fees(accountId),
  queryFn: () => apiFetch<FeeSchedule>(`/api/imports/fees/${accountId}`),
});

export function saveFeeSchedule(accountId: string, schedule: { micro: string; mini: string; roots: Record<string, string> }) {
  return apiFetch<FeeSchedule>(`/api/imports/fees/${accountId}`, { method: 'PUT', body: JSON.stringify(schedule) });
}

export function applyFeeSchedule(accountId: string) {
  return apiFetch<FeeScheduleApplied>(`/api/imports/fees/${accountId}/apply`, { method: 'POST', body: '{}' });
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

/** After an import: every trade list, count and statistic (all under ['trades']) and the accounts. */
export function invalidateAfterImport(client: QueryClient) {
  return Promise.all([client.invalidateQueries({ queryKey: queryKeys.trades.all }), client.invalidateQueries({ queryKey: queryKeys.accounts.all })]);
}
