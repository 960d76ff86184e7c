import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { clearLocalDataOnSignOut } from '../../lib/storage-keys';
import { cancelSigningOut, markSigningOut } from '../../lib/sign-out-state';
import { resetUiModes } from '../../lib/ui-modes';

/**
 * Signing out clears the user, all local data except the kept keys, and the trade cache
 * (here: the whole TanStack Query cache); the user then goes to /intro.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return async (): Promise<boolean> => {
    let failed = false;
    markSigningOut();
    try {
      // better-auth's client loads here, on use, not with the first screen.
      const { authClient } = await import('../../lib/auth-client');
      const { error } = await authClient.signOut();
      failed = Boolean(error);
    } catch {
      failed = true;
    }
    if (failed) {
      cancelSigningOut();
      notifications.show({ color: 'red', title: 'Logout failed', message: 'Please check your connection and try again.' });
      return false;
    }
    // The signed-in pages stop asking first: queries removed while their pages are still mounted are fetched again at
    // once, and the ended session refuses each one (seven 401s on sign-out).
    // The cache itself is cleared when the shell leaves the screen (ShellLayout), after the move to /intro.
    await queryClient.cancelQueries();
    void navigate('/intro', { replace: true });
    clearLocalDataOnSignOut();
    resetUiModes();
    return true;
  };
}
