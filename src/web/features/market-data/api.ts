import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BarMapping } from '../../../domain/importers/bars/bar-formats';
import { ApiError, apiFetch } from '../../lib/api';
import { queryKeys, type BarsCoverage, type BarsDeleted, type BarsOutcome, type BarsPreview } from '../../shared/api';

/**
 * The Market Data page's calls: bar files (the bytes as the body, the options in the query, as trade imports), the
 * trader's bars per contract and day, and deleting them by day.
 */
export const coverageQuery = queryOptions({
  queryKey: queryKeys.market.coverage,
  queryFn: () => apiFetch<BarsCoverage>('/api/market/bars/coverage'),
});

export interface BarsOptions {
  contract: string;
  /** '' reads the format's own zone (UTC for NinjaTrader), naive times of a mapped file in New York time. */
  timeZone: string;
  /** 0: read from the file. */
  resolution: 0 | 1 | 60;
  mapping: BarMapping | null;
}

function query(options: BarsOptions, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (options.contract.trim()) params.set('contract', options.contract.trim());
  if (options.timeZone) params.set('time_zone', options.timeZone);
  if (options.resolution) params.set('resolution', String(options.resolution));
  if (options.mapping) params.set('mapping', JSON.stringify(options.mapping));
  try {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (browser) params.set('browser_time_zone', browser);
  } catch {
    // no zone from the browser: the server tries the trader's own
  }
  return params.toString();
}

/** A refused file, with the server's code and, for an unknown layout, the columns it found (for the mapping). */
export class BarsRequestError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly code: string | undefined,
    readonly headers: string[] | undefined,
  ) {
    super(status, message);
    this.name = 'BarsRequestError';
  }
}

async function send<T>(url: string, bytes: ArrayBuffer): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'text/csv', Accept: 'application/json' },
    body: bytes,
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const details = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; code?: unknown; headers?: unknown };
    throw new BarsRequestError(
      response.status,
      typeof details.error === 'string' ? details.error : `Request failed (${response.status})`,
      typeof details.code === 'string' ? details.code : undefined,
      Array.isArray(details.headers) ? details.headers.filter((h): h is string => typeof h === 'string') : undefined,
    );
  }
  return body as T;
}

export const previewBars = (bytes: ArrayBuffer, options: BarsOptions) => send<BarsPreview>(`/api/market/bars/preview?${query(options)}`, bytes);

/** What the trader chose for an import beyond reading the file. */
export interface ImportChoices {
  skipUnreadable: boolean;
  /** Replace their stored bars where the file's differ. */
  replace: boolean;
  /** Store bars their own fills contradict all the same. */
  insist: boolean;
  /** The file's source leaves out minutes without trades. */
  quietMinutes: boolean;
}

export const importBars = (bytes: ArrayBuffer, options: BarsOptions, choices: ImportChoices) => {
  const flags: Record<string, string> = {};
  if (choices.skipUnreadable) flags.skip_unreadable = 'true';
  if (choices.replace) flags.replace = 'true';
  if (choices.insist) flags.insist = 'true';
  if (choices.quietMinutes) flags.quiet_minutes = 'true';
  return send<BarsOutcome>(`/api/market/bars?${query(options, flags)}`, bytes);
};

export function useImportBars() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ bytes, options, choices }: { bytes: ArrayBuffer; options: BarsOptions; choices: ImportChoices }) =>
      importBars(bytes, options, choices),
    onSuccess: () => {
      // Charts, and the trades' stored MAE and MFE (the Trade Log's columns, the Reports), follow the bars.
      void client.invalidateQueries({ queryKey: queryKeys.market.all });
      void client.invalidateQueries({ queryKey: queryKeys.trades.all });
    },
  });
}

export function useDeleteBars() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (day: { contract: string; resolution: number; day: string }) =>
      apiFetch<BarsDeleted>(`/api/market/bars?${new URLSearchParams({ contract: day.contract, resolution: String(day.resolution), day: day.day })}`, {
        method: 'DELETE',
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.market.all });
      void client.invalidateQueries({ queryKey: queryKeys.trades.all });
    },
  });
}
