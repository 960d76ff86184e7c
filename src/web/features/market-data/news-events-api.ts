import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportedNewsDeleted, ImportedNewsEvents, NewsImportResult } from '../../../contract/economic-calendar';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

/**
 * The Market Data page's calls for past economic calendar events: import a file of them (the bytes as the body), how
 * many the trader has, and deleting them. Both changes move the news filter's results: the trades' lists and reports
 * are asked again, and the filter's status.
 */
export const importedNewsQuery = queryOptions({
  queryKey: queryKeys.economicEvents.imported,
  queryFn: () => apiFetch<ImportedNewsEvents>('/api/economic-calendar/events'),
});

/** JSON for a .json file or one that starts as JSON; CSV for anything else. */
function contentType(file: File, text: string): string {
  return /\.json$/i.test(file.name) || /^\s*[[{]/.test(text) ? 'application/json' : 'text/csv';
}

function useRefreshAfter() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: queryKeys.economicEvents.all });
    void client.invalidateQueries({ queryKey: queryKeys.trades.all });
  };
}

export function useImportNewsEvents() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: async (file: File) => {
      const text = await file.text();
      return apiFetch<NewsImportResult>('/api/economic-calendar/events', {
        method: 'POST',
        headers: { 'Content-Type': contentType(file, text) },
        body: text,
      });
    },
    onSuccess: refresh,
  });
}

export function useDeleteNewsEvents() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: () => apiFetch<ImportedNewsDeleted>('/api/economic-calendar/events', { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
