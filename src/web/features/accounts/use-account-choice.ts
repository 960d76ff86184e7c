import { useCallback, useState } from 'react';
import type { AccountFilter, TradingAccount } from '../../shared/api';

/**
 * The screens that show one account at a time: the Trade Log, the dashboard (its PnL calendar's picker), the Daily
 * Journal and Reflect. Each remembers its own pick.
 */
export type AccountScope = 'trade-log' | 'dashboard' | 'journal' | 'reflect';

/** A pick remembered for the browser session (sign-outs clear sessionStorage), with the default it was made under. */
interface StoredChoice {
  choice: AccountFilter;
  defaultId: string | null;
}

const storageKey = (scope: AccountScope) => `${scope}-account-choice`;

const defaultOf = (accounts: readonly TradingAccount[]) => (accounts.find((a) => a.is_default) ?? accounts[0])?.id ?? null;

function readStored(scope: AccountScope): StoredChoice | null {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(storageKey(scope)) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { choice, defaultId } = parsed as Record<string, unknown>;
    if (typeof choice !== 'string' || (defaultId !== null && typeof defaultId !== 'string')) return null;
    return { choice, defaultId };
  } catch {
    return null;
  }
}

/**
 * The account a screen shows: on first load the default account (or the first), All
 * Trades without accounts. The trader's own pick is kept for the browser session while the default account stays the
 * one it was made under: 'Set as default account' moves every screen that shows the default (the Trade
 * Log, the dashboard's calendar, and through them Add Trade and imports) to the new one. Null
 * while that waits for the accounts list.
 */
export function resolveAccountChoice(stored: StoredChoice | null, accounts: readonly TradingAccount[] | undefined): AccountFilter | null {
  if (!accounts) return stored && (stored.choice === 'all' || stored.choice === 'unassigned') ? stored.choice : null;
  const fallback = defaultOf(accounts) ?? 'all';
  if (!stored || stored.defaultId !== defaultOf(accounts)) return fallback;
  if (stored.choice === 'all' || stored.choice === 'unassigned') return stored.choice;
  return accounts.some((a) => a.id === stored.choice) ? stored.choice : fallback;
}

/** The account the screen would open on now, for requests started before the screen (the dashboard's prefetch). */
export function readAccountChoice(scope: AccountScope, accounts: readonly TradingAccount[]): AccountFilter {
  return resolveAccountChoice(readStored(scope), accounts) ?? 'all';
}

export function useAccountChoice(
  scope: AccountScope,
  accounts: readonly TradingAccount[] | undefined,
): [AccountFilter | null, (next: AccountFilter) => void] {
  const [stored, setStored] = useState<StoredChoice | null>(() => readStored(scope));

  const choose = useCallback(
    (next: AccountFilter) => {
      const choice = { choice: next, defaultId: accounts ? defaultOf(accounts) : null };
      try {
        window.sessionStorage.setItem(storageKey(scope), JSON.stringify(choice));
      } catch {
        /* storage unavailable: the choice lasts for this page only */
      }
      setStored(choice);
    },
    [scope, accounts],
  );

  return [resolveAccountChoice(stored, accounts), choose];
}
