import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedView, SavedViewBody } from '../../../contract/saved-views';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

// Saving, renaming and deleting a report view; each refreshes the one list the sidebar and the palette read.

export function useSaveView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SavedViewBody) => apiFetch<SavedView>('/api/saved-views', { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.savedViews.all }),
  });
}

export function useRenameView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiFetch<SavedView>(`/api/saved-views/${id}`, { method: 'PATCH', body: JSON.stringify({ name }) }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.savedViews.all }),
  });
}

export function useDeleteView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/saved-views/${id}`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.savedViews.all }),
    onError: (error) => notifications.show({ color: 'red', message: error.message || 'Failed to delete the view' }),
  });
}
