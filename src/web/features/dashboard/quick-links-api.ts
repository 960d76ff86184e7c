import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys, type QuickLink } from '../../shared/api';
import type { QuickLinkImport } from '../../../contract/quick-links';

export interface QuickLinkBody {
  title: string;
  url: string;
  icon: string | null;
}

/** Quick-link mutations; each refreshes the one list (widget and search palette share it). */
export function useQuickLinkMutations() {
  const queryClient = useQueryClient();
  const key = queryKeys.quickLinks.all;
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const create = useMutation({
    mutationFn: (body: QuickLinkBody) => apiFetch<QuickLink>('/api/quick-links', { method: 'POST', body: JSON.stringify(body) }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, ...body }: QuickLinkBody & { id: string }) =>
      apiFetch<QuickLink>(`/api/quick-links/${id}`, { method: 'PATCH', body: JSON.stringify(body) }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/quick-links/${id}`, { method: 'DELETE' }),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<QuickLink[]>(key);
      queryClient.setQueryData<QuickLink[]>(key, (links) => links?.filter((l) => l.id !== id));
      return { previous };
    },
    onError: (_e, _id, context) => context?.previous && queryClient.setQueryData(key, context.previous),
    onSettled: refresh,
  });
  /** Drag to reorder: shown at once, then position = index + 1 on the server; restored if that fails. */
  const reorder = useMutation({
    mutationFn: (ids: string[]) => apiFetch<QuickLink[]>('/api/quick-links/reorder', { method: 'POST', body: JSON.stringify({ ids }) }),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<QuickLink[]>(key);
      if (previous) {
        const byId = new Map(previous.map((l) => [l.id, l]));
        queryClient.setQueryData<QuickLink[]>(
          key,
          ids.flatMap((id, index) => {
            const link = byId.get(id);
            return link ? [{ ...link, position: index + 1 }] : [];
          }),
        );
      }
      return { previous };
    },
    onError: (_e, _ids, context) => context?.previous && queryClient.setQueryData(key, context.previous),
    onSuccess: (links) => queryClient.setQueryData(key, links),
  });
  const importDefaults = useMutation({
    mutationFn: () => apiFetch<QuickLinkImport>('/api/quick-links/defaults', { method: 'POST' }),
    onSuccess: (result) => queryClient.setQueryData(key, result.links),
  });
  return { create, update, remove, reorder, importDefaults };
}
