import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys, type Note, type NoteFolder, type NotePage, type TagRef } from '../../shared/api';

/** The notebook's server calls, next to their query options. */

export interface NoteFilter {
  /** A folder id, 'none' for notes outside any folder, or undefined for all. */
  folderId?: string;
  tagId?: string;
  q?: string;
}

const PAGE = 50;

function listPath(filter: NoteFilter, cursor: string | null) {
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (filter.folderId) params.set('folder_id', filter.folderId);
  if (filter.tagId) params.set('tag_id', filter.tagId);
  if (filter.q) params.set('q', filter.q);
  if (cursor) params.set('cursor', cursor);
  return `/api/notes?${params}`;
}

export const notesListQuery = (filter: NoteFilter) =>
  infiniteQueryOptions({
    queryKey: queryKeys.notes.list(filter),
    queryFn: ({ pageParam }) => apiFetch<NotePage>(listPath(filter, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last: NotePage) => last.next_cursor,
  });

export const noteQuery = (id: string) => queryOptions({ queryKey: queryKeys.notes.detail(id), queryFn: () => apiFetch<Note>(`/api/notes/${id}`) });

export const foldersQuery = queryOptions({
  queryKey: queryKeys.noteFolders.all,
  queryFn: () => apiFetch<NoteFolder[]>('/api/note-folders'),
});

export const tagsQuery = queryOptions({ queryKey: queryKeys.tags.all, queryFn: () => apiFetch<TagRef[]>('/api/tags') });

export interface NoteDraft {
  title: string;
  content: string;
  folder_id: string | null;
  tag_ids: string[];
}

/** Save: POST for a new note (its first Save), PATCH after; the lists and folder counts reload. */
export function useSaveNote() {
  const queryClient = useQueryClient();
  return useMutation({
    // `base`: the updated_at the words grew from; a note saved elsewhere since is refused with 409.
    mutationFn: ({ id, draft, base }: { id: string | null; draft: NoteDraft; base?: string | null }) =>
      id
        ? apiFetch<Note>(`/api/notes/${id}`, { method: 'PATCH', body: JSON.stringify({ ...draft, ...(base && { base_updated_at: base }) }) })
        : apiFetch<Note>('/api/notes', { method: 'POST', body: JSON.stringify(draft) }),
    onSuccess: (note) => {
      queryClient.setQueryData(queryKeys.notes.detail(note.id), note);
      void queryClient.invalidateQueries({ queryKey: queryKeys.notes.listAll });
      void queryClient.invalidateQueries({ queryKey: queryKeys.noteFolders.all });
    },
  });
}

export function useDeleteNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/notes/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.notes.detail(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notes.listAll });
      void queryClient.invalidateQueries({ queryKey: queryKeys.noteFolders.all });
    },
  });
}

export function useFolderMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.noteFolders.all });
  const create = useMutation({
    mutationFn: (name: string) => apiFetch<NoteFolder>('/api/note-folders', { method: 'POST', body: JSON.stringify({ name }) }),
    onSuccess: refresh,
  });
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiFetch<NoteFolder>(`/api/note-folders/${id}`, { method: 'PATCH', body: JSON.stringify({ name }) }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/note-folders/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void refresh();
      // Its notes are now outside any folder.
      void queryClient.invalidateQueries({ queryKey: queryKeys.notes.all });
    },
  });
  return { create, rename, remove };
}

/** Tags are upserted on (user_id, name): a name that exists returns that tag. */
export function useUpsertTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiFetch<TagRef>('/api/tags', { method: 'POST', body: JSON.stringify({ name }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tags.all }),
  });
}
