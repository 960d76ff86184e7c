import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { apiFetch, ApiError } from '../../lib/api';
import { reportUnauthorized } from '../../lib/session-expiry';
import type { Attachment } from './types';

/** Where an attachment goes: a saved note or a trade, or a playbook. */
export type AttachmentTarget = { noteId: string } | { tradeId: string } | { playbookId: string };

const targetBody = (target: AttachmentTarget) =>
  'noteId' in target ? { note_id: target.noteId } : 'tradeId' in target ? { trade_id: target.tradeId } : { playbook_id: target.playbookId };

/** POST /api/attachments/upload: a multipart image, its type checked by the server from its bytes. */
export async function uploadAttachment(target: AttachmentTarget, file: File, caption?: string): Promise<Attachment> {
  const form = new FormData();
  form.set('file', file, file.name || 'image');
  for (const [key, value] of Object.entries(targetBody(target))) form.set(key, value);
  if (caption) form.set('caption', caption);
  const response = await fetch('/api/attachments/upload', {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as { error?: string } | Attachment | null;
  if (response.status === 401) reportUnauthorized();
  if (!response.ok) throw new ApiError(response.status, (body && 'error' in body && body.error) || `Request failed (${response.status})`);
  return body as Attachment;
}

/**
 * Adding (by URL or file) and removing attachments. `invalidate` names the queries that show them (the note, the
 * trade's page or the playbook's), which are refetched after each change.
 */
export function useAttachmentMutations(invalidate: QueryKey[]) {
  const queryClient = useQueryClient();
  const refresh = () => Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const addUrl = useMutation({
    mutationFn: ({ target, url, caption }: { target: AttachmentTarget; url: string; caption?: string }) =>
      apiFetch<Attachment>('/api/attachments', { method: 'POST', body: JSON.stringify({ ...targetBody(target), url, caption }) }),
    onSuccess: refresh,
  });
  const upload = useMutation({
    mutationFn: ({ target, file }: { target: AttachmentTarget; file: File }) => uploadAttachment(target, file),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/attachments/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { addUrl, upload, remove };
}
