import { useEffect, useState } from 'react';
import { authClient } from './auth-client';

// Spec part 1 §4 Session: session load retries up to 3 times, waiting attempt x 1 s, on network errors.
const MAX_RETRIES = 3;

export interface AuthSessionState {
  session: ReturnType<typeof authClient.useSession>['data'];
  /** True while the session loads, including retries after a network error. */
  isPending: boolean;
  /** The server could not be reached after the retries. */
  unreachable: boolean;
  retry: () => void;
}

export function useAuthSession(): AuthSessionState {
  const { data, isPending, error, refetch } = authClient.useSession();
  const [attempt, setAttempt] = useState(0);
  // A 401 means signed out; anything else without data is a failure to reach the server.
  const failed = !isPending && !data && error !== null && error !== undefined && error.status !== 401;

  useEffect(() => {
    if (!failed || attempt >= MAX_RETRIES) return;
    const timer = window.setTimeout(
      () => {
        setAttempt((n) => n + 1);
        void refetch();
      },
      (attempt + 1) * 1000,
    );
    return () => window.clearTimeout(timer);
  }, [failed, attempt, refetch]);

  useEffect(() => {
    if (data) setAttempt(0);
  }, [data]);

  return {
    session: data,
    isPending: isPending || (failed && attempt < MAX_RETRIES),
    unreachable: failed && attempt >= MAX_RETRIES,
    retry: () => {
      setAttempt(0);
      void refetch();
    },
  };
}
