import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { ServerUnreachable } from '../components/server-unreachable';
import type { RedirectState } from '../lib/redirect-state';
import { isSigningOut } from '../lib/sign-out-state';
import { STORAGE_KEYS, forgetSignedIn, hasSeenIntro, writeStorage } from '../lib/storage-keys';
import { useAuthSession } from '../lib/use-auth-session';

/** Signed-out visitors go to /intro the first time, to /login afterwards, keeping where they were headed. */
export function ProtectedRoute() {
  const location = useLocation();
  const { session, isPending, unreachable, retry } = useAuthSession();

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
    const state: RedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to={hasSeenIntro() ? '/login' : '/intro'} replace state={state} />;
  }
  return <Outlet />;
}
