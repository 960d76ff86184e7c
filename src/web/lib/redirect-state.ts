// Protected routes keep the original location in router state (spec part 2 "Route table"); sign-in returns there.
export interface FromLocation {
  pathname: string;
  search?: string;
  hash?: string;
}

export interface RedirectState {
  from?: FromLocation;
  /** The session ended while the trader was working (issue 24): the sign-in page says so. */
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

/** Where to go after signing in: the page the visitor first asked for, else the dashboard. */
export function afterSignInPath(state: unknown): string {
  const from = readFrom(state);
  // Only same-app paths; never loop back to a public auth page.
  if (!from || !from.pathname.startsWith('/') || from.pathname.startsWith('//') || PUBLIC_PATHS.has(from.pathname)) {
    return '/';
  }
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** Whether the sign-in page was reached because the session ended under the trader. */
export function cameFromExpiry(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'expired' in state && state.expired === true;
}
