/**
 * Signing out ends the session before the app has navigated to /intro; the protected route re-renders in between
 * and would send the trader to /login instead (after logout the user goes to /intro). While a
 * sign-out is under way, or just finished, the protected route sends the trader to /intro.
 */
let signedOutAt = 0;

export function markSigningOut(): void {
  signedOutAt = Date.now();
}

export function cancelSigningOut(): void {
  signedOutAt = 0;
}

export function isSigningOut(now = Date.now()): boolean {
  return now - signedOutAt < 3000;
}
