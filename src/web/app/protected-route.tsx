import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { authClient } from '../lib/auth-client';
import type { RedirectState } from '../lib/redirect-state';
import { hasSeenIntro } from '../lib/storage-keys';

/** Signed-out visitors go to /intro the first time, to /login afterwards, keeping where they were headed. */
export function ProtectedRoute() {
  const location = useLocation();
  const { data: session, isPending } = authClient.useSession();

  if (isPending) return <FullPageLoader />;
  if (!session) {
    const state: RedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to={hasSeenIntro() ? '/login' : '/intro'} replace state={state} />;
  }
  return <Outlet />;
}
