import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedShareLink, ShareLink, ShareLinkInput } from '../../../contract/share-links';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

export const shareLinksQuery = queryOptions({
  queryKey: queryKeys.shareLinks.all,
  queryFn: () => apiFetch<ShareLink[]>('/api/share-links'),
});

export function useCreateShareLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ShareLinkInput) => apiFetch<CreatedShareLink>('/api/share-links', { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.shareLinks.all }),
    onError: (error) => notifications.show({ color: 'red', message: error.message || 'Failed to create the link' }),
  });
}

export function useRevokeShareLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/share-links/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Link revoked' });
      void client.invalidateQueries({ queryKey: queryKeys.shareLinks.all });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || 'Failed to revoke the link' }),
  });
}
