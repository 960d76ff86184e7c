import { useQuery } from '@tanstack/react-query';
import type { AuthSession } from './auth-client';
import { sessionQuery } from './session';

export interface AuthSessionState {
  session: AuthSession | null;
  /** True while the session loads, including retries after a network error (3, attempt x 1 s). */
  isPending: boolean;
  /** The server could not be reached after the retries. */
  unreachable: boolean;
  retry: () => void;
}

export function useAuthSession(): AuthSessionState {
  const query = useQuery(sessionQuery);
  return {
    session: query.data ?? null,
    // Trying again after the retries gave up counts as loading, not as still unreachable.
    isPending: query.isPending || (query.isError && query.isFetching),
    unreachable: query.isError && !query.isFetching && query.data === undefined,
    retry: () => void query.refetch(),
  };
}
