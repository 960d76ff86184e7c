import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../shared/api/keys';
import type { AuthSession } from './auth-client';

/**
 * The signed-in session, read with a plain request rather than better-auth's client, whose code (~13 kB gzipped)
 * then loads only with the pages that sign in, out or change the account (the first screen's bytes). This
 * one query is the app's only view of the session: every screen reads it, and whatever signs in or out updates it.
 *
 * On network errors the check is tried again up to 3 times, waiting attempt x 1 s.
 */
export const sessionQuery = queryOptions({
  queryKey: queryKeys.session.all,
  queryFn: () => fetchSession(),
  retry: 3,
  retryDelay: (failures) => (failures + 1) * 1000,
});

/** null when signed out; throws when the server cannot be reached or answers with an error. */
async function fetchSession(fresh = false): Promise<AuthSession | null> {
  const res = await fetch(`/api/auth/get-session${fresh ? '?disableCookieCache=true' : ''}`, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (res.status === 401) return null;
  if (!res.ok) throw new Error(`The session check answered ${res.status}`);
  return (await res.json()) as AuthSession | null;
}

/** Reads the session again from the server (past better-auth's cookie cache) and shares it with every screen. */
export async function refreshSession(queryClient: QueryClient): Promise<AuthSession | null> {
  const session = await fetchSession(true);
  queryClient.setQueryData(sessionQuery.queryKey, session);
  return session;
}

/** The session as the screens use it: null when signed out or not yet known. */
export function useSession() {
  const query = useQuery(sessionQuery);
  return { data: query.data ?? null, isPending: query.isPending };
}
