// Protected routes keep the original location in router state; sign-in returns there.
export interface FromLocation {
  pathname: string;
  search?: string;
  hash?: string;
}

export interface RedirectState {
  from?: FromLocation;
  /** The session ended while the trader was working: the sign-in page says so. */
  expired?: boolean;
}

const PUBLIC_PATHS = new Set(['/intro', '/login', '/register', '/forgot-password', '/reset-password']);

function isFromLocation(value: unknown): value is FromLocation {
  return typeof value === 'object' && value !== null && 'pathname' in value && typeof value.pathname === 'string';
}

export function readFrom(state: unknown): FromLocation | undefined {
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  return isFromLocation(state.from) ? state.from : undefined;
}

/**
 * `target` as a path of the app at `origin`, read the way the browser will read it, or null when it leads anywhere
 * else. Checking its raw characters is not enough: the URL parser drops tabs and newlines and reads '\' as '/', so
 * '/\t/evil.example' becomes '//evil.example', another site. public/auth-callback.js does the same.
 */
export function sameOriginPath(target: string, origin: string): string | null {
  if (!target.startsWith('/')) return null;
  try {
    const url = new URL(target, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

/** Where to go after signing in: the page the visitor first asked for, else the dashboard. */
export function afterSignInPath(state: unknown, origin = window.location.origin): string {
  const from = readFrom(state);
  const path = from && sameOriginPath(`${from.pathname}${from.search ?? ''}${from.hash ?? ''}`, origin);
  // Only same-app paths; never loop back to a public auth page.
  if (!path || PUBLIC_PATHS.has(new URL(path, origin).pathname)) return '/';
  return path;
}

/** Whether the sign-in page was reached because the session ended under the trader. */
export function cameFromExpiry(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'expired' in state && state.expired === true;
}
