// Protected routes keep the original location in router state (spec part 2 "Route table"); sign-in returns there.
export interface FromLocation {
  pathname: string;
  search?: string;
  hash?: string;
}

export interface RedirectState {
  from?: FromLocation;
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
