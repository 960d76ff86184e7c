import { twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

// better-auth is mounted by our server at /api/auth; cookies are HttpOnly and same-origin.
export const authClient = createAuthClient({
  baseURL: `${window.location.origin}/api/auth`,
  // The login page shows the second step itself when sign-in answers twoFactorRedirect.
  plugins: [twoFactorClient()],
});

export type AuthSession = typeof authClient.$Infer.Session;

/** The account's name is the part of the email before '@' (we ask only for email and password). */
export function nameFromEmail(email: string): string {
  const at = email.indexOf('@');
  return (at > 0 ? email.slice(0, at) : email).trim() || 'Trader';
}
