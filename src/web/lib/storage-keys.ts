// Browser storage keys. The browser keeps only UI preferences;
// server data lives in TanStack Query.
export const STORAGE_KEYS = {
  theme: 'theme',
  sidebarCollapsed: 'sidebar-collapsed',
  hasSeenIntro: 'has_seen_intro',
  editOverlayDismissed: 'edit-overlay-dismissed',
  widgetLayout: 'widget-layout',
  dashboardPreferences: 'dashboard-preferences',
  tutorialProgress: 'tutorial-progress',
  /** Set while this browser holds a session, so the first screen can start its data requests before the check. */
  signedIn: 'signed-in',
  /** The legacy quick-links list, moved to the server once after sign-in. */
  legacyQuickLinks: 'trader-quick-links',
  /** Figures in dollars or in R (a UI preference). */
  figureUnit: 'figure-unit',
  /** The Trade Log's shown and hidden columns: { [column id]: false } for each hidden one. */
  tradeLogColumns: 'trade-log-columns',
  /** Whether the Trade Log's list leaves out the tags imports added ('true'), showing only the trader's own. */
  tradeLogHideImportTags: 'trade-log-hide-import-tags',
  /** The Reports breakdown table's shown and hidden columns: { [column id]: shown } for each the trader changed. */
  reportBreakdownColumns: 'report-breakdown-columns',
} as const;

// Signing out clears all local data except these keys and keys starting 'sb-'.
const KEPT_ON_SIGN_OUT: ReadonlySet<string> = new Set([
  STORAGE_KEYS.hasSeenIntro,
  STORAGE_KEYS.sidebarCollapsed,
  STORAGE_KEYS.theme,
  STORAGE_KEYS.widgetLayout,
  STORAGE_KEYS.dashboardPreferences,
  STORAGE_KEYS.tutorialProgress,
  STORAGE_KEYS.figureUnit,
]);
const KEPT_PREFIX = 'sb-';

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be unavailable (privacy mode, blocked cookies); preferences then live for the page only.
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* see readStorage */
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    /* see readStorage */
  }
}

/**
 * A hint, not a check: the server still decides; a wrong hint costs requests that answer 401. Signed in here before,
 * or the server saw a session cookie when it sent the page (its `edgebook-session` meta; e.g. a new browser profile).
 */
export function wasSignedIn(): boolean {
  return readStorage(STORAGE_KEYS.signedIn) === 'true' || document.querySelector('meta[name="edgebook-session"]') !== null;
}

/** The session check said signed out: neither hint holds any more. */
export function forgetSignedIn(): void {
  removeStorage(STORAGE_KEYS.signedIn);
  document.querySelector('meta[name="edgebook-session"]')?.remove();
}

export function hasSeenIntro(): boolean {
  return readStorage(STORAGE_KEYS.hasSeenIntro) === 'true';
}

export function markIntroSeen(): void {
  writeStorage(STORAGE_KEYS.hasSeenIntro, 'true');
}

export function clearLocalDataOnSignOut(): void {
  try {
    const storage = window.localStorage;
    const doomed: string[] = [];
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key !== null && !KEPT_ON_SIGN_OUT.has(key) && !key.startsWith(KEPT_PREFIX)) doomed.push(key);
    }
    for (const key of doomed) storage.removeItem(key);
    window.sessionStorage.clear();
  } catch {
    /* see readStorage */
  }
}
