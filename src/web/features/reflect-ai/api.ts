import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatEvent, ChatMessage, ChatSession, DeepThinkEvent, DeletedChatSession } from '../../../domain/chat';
import { apiFetch } from '../../lib/api';
import { postEventStream, readEventStream } from '../../lib/sse';
import { queryKeys } from '../../shared/api';

export type { ChatEvent, ChatMessage, ChatSession, DeepThinkEvent } from '../../../domain/chat';

/**
 * On load the newest session is active, or a new one is created (by the server). Asked again each
 * time the page opens (gcTime 0), and not while it is open, so the conversation on screen never changes by itself.
 */
export const currentSessionQuery = queryOptions({
  queryKey: queryKeys.chat.current,
  queryFn: () => apiFetch<ChatSession>('/api/chat/sessions/current'),
  staleTime: Infinity,
  gcTime: 0,
});

export const sessionsQuery = queryOptions({
  queryKey: queryKeys.chat.sessions,
  queryFn: () => apiFetch<ChatSession[]>('/api/chat/sessions'),
});

export const messagesQuery = (sessionId: string) =>
  queryOptions({
    queryKey: queryKeys.chat.messages(sessionId),
    queryFn: () => apiFetch<ChatMessage[]>(`/api/chat/sessions/${sessionId}/messages`),
    // The page keeps a session's messages current itself as answers arrive.
    staleTime: 60_000,
  });

/** A session changed on the server (a title, a rename, a clear): every cached copy shows the new one. */
export function useStoreSession() {
  const client = useQueryClient();
  return (session: ChatSession) => {
    client.setQueryData<ChatSession[]>(queryKeys.chat.sessions, (list) => {
      if (!list) return list;
      const rest = list.filter((s) => s.id !== session.id);
      return [session, ...rest].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    });
    client.setQueryData<ChatSession>(queryKeys.chat.current, (current) => (current?.id === session.id ? session : current));
  };
}

/** New Chat: a new session, or the newest one when it has no message yet (the server reuses it). */
export function useNewSession() {
  const client = useQueryClient();
  const store = useStoreSession();
  return useMutation({
    mutationFn: () => apiFetch<ChatSession>('/api/chat/sessions', { method: 'POST' }),
    onSuccess: (session) => {
      store(session);
      client.setQueryData(queryKeys.chat.messages(session.id), (messages: ChatMessage[] | undefined) => messages ?? []);
      void client.invalidateQueries({ queryKey: queryKeys.chat.sessions });
    },
  });
}

export function useRenameSession() {
  const store = useStoreSession();
  return useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) =>
      apiFetch<ChatSession>(`/api/chat/sessions/${id}`, { method: 'PATCH', body: JSON.stringify({ title }) }),
    onSuccess: store,
  });
}

/** Clearing removes the messages and puts the title back to 'New Conversation'. */
export function useClearSession() {
  const client = useQueryClient();
  const store = useStoreSession();
  return useMutation({
    mutationFn: (id: string) => apiFetch<ChatSession>(`/api/chat/sessions/${id}/clear`, { method: 'POST' }),
    onSuccess: (session) => {
      client.setQueryData(queryKeys.chat.messages(session.id), []);
      store(session);
    },
  });
}

/** Deleting removes the session and its messages; the answer names the session to switch to. */
export function useDeleteSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<DeletedChatSession>(`/api/chat/sessions/${id}`, { method: 'DELETE' }),
    onSuccess: ({ deleted, next }) => {
      client.removeQueries({ queryKey: queryKeys.chat.messages(deleted) });
      client.setQueryData<ChatSession[]>(queryKeys.chat.sessions, (list) => list?.filter((s) => s.id !== deleted));
      client.setQueryData<ChatSession>(queryKeys.chat.current, (current) => (current?.id === deleted ? next : current));
      void client.invalidateQueries({ queryKey: queryKeys.chat.sessions });
    },
  });
}

/** POST /api/chat as an event stream. Aborting `signal` is Stop: the server keeps the answer so far, marked. */
export async function* streamChat(sessionId: string, message: string, signal: AbortSignal): AsyncGenerator<ChatEvent> {
  const response = await postEventStream('/api/chat', { sessionId, message }, signal);
  yield* readEventStream<ChatEvent>(response);
}

/**
 * POST /api/deepthink. With the session the server reads the conversation so far
 * from what it stored, so the spec's `history` is not sent again.
 */
export async function* streamDeepThink(sessionId: string, message: string, signal: AbortSignal): AsyncGenerator<DeepThinkEvent> {
  const response = await postEventStream('/api/deepthink', { sessionId, message }, signal);
  yield* readEventStream<DeepThinkEvent>(response);
}
