import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { ServerUnreachable } from '../components/server-unreachable';
import type { RedirectState } from '../lib/redirect-state';
import { refreshSession } from '../lib/session';
import { UNAUTHORIZED_EVENT } from '../lib/session-expiry';
import { isSigningOut } from '../lib/sign-out-state';
import { STORAGE_KEYS, forgetSignedIn, hasSeenIntro, writeStorage } from '../lib/storage-keys';
import { useAuthSession } from '../lib/use-auth-session';

/**
 * A request refused for want of a session makes the session be read again (past the cookie cache), once however many
 * requests were refused together; a session really gone then shows as signed out below.
 */
function useSessionCheckOnUnauthorized() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let checking = false;
    const check = () => {
      if (checking || isSigningOut()) return;
      checking = true;
      // Unreachable or failing: leave the session as it is; the next refused request asks again.
      refreshSession(queryClient)
        .catch(() => undefined)
        .finally(() => {
          checking = false;
        });
    };
    window.addEventListener(UNAUTHORIZED_EVENT, check);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, check);
  }, [queryClient]);
}

/**
 * Signed-out visitors go to /intro the first time, to /login afterwards, keeping where they were headed. A session
 * that ends while the trader works here always goes to /login, which says so and brings them back.
 */
export function ProtectedRoute() {
  const location = useLocation();
  const { session, isPending, unreachable, retry } = useAuthSession();
  const hadSession = useRef(false);
  if (session) hadSession.current = true;
  useSessionCheckOnUnauthorized();

  const signedIn = Boolean(session);
  useEffect(() => {
    if (isPending || unreachable) return;
    if (signedIn) writeStorage(STORAGE_KEYS.signedIn, 'true');
    else forgetSignedIn();
  }, [isPending, unreachable, signedIn]);

  if (isPending) return <FullPageLoader />;
  if (unreachable) return <ServerUnreachable onRetry={retry} />;
  if (!session) {
    if (isSigningOut()) return <Navigate to="/intro" replace />;
    const expired = hadSession.current;
    const state: RedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
      ...(expired && { expired: true }),
    };
    return <Navigate to={expired || hasSeenIntro() ? '/login' : '/intro'} replace state={state} />;
  }
  return <Outlet />;
}
