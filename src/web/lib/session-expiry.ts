/**
 * A session that ends mid-work: signed out elsewhere, revoked, expired, deleted on the server.
 * Any of our requests answered 401 says so; the protected pages then check the session once more and, when it is
 * really gone, send the trader to /login with the spec's words, and back where they were after signing in. What they
 * were typing stays in the browser as a draft (use-draft.ts) and comes back with the page.
 */

/** Fired on `window` when the API refused a request for want of a session. */
export const UNAUTHORIZED_EVENT = 'edgebook:unauthorized';

export function reportUnauthorized(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}

/**
 * The spec's words for an action refused because no one is signed in any more,
 * shown as the description of the action's own failure toast.
 */
export const SIGNED_OUT_WORDS = {
  addTrade: 'Authentication error: You must be logged in to add trades.',
  createAccount: 'You must be logged in to create trading accounts',
  updateAccount: 'You must be logged in to update trading accounts',
  deleteAccount: 'You must be logged in to delete trading accounts',
  other: 'Authentication error',
  tasks: 'User not authenticated',
  notes: 'User not authenticated',
  profile: 'Not authenticated',
} as const;

/** What the sign-in page says when the session ended under the trader. */
export const SESSION_EXPIRED_TITLE = 'Session expired';
export const SESSION_EXPIRED_TEXT = 'No valid session. Sign in again to go back to where you were: what you were typing is kept in this browser.';

/** A request refused with 401: the session is gone (or was never there). */
export function isSignedOutError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 401;
}
