import { useCallback, useState } from 'react';
import type { AccountFilter, TradingAccount } from '../../shared/api';

/** The account being viewed, remembered for the browser session (not across sign-outs: those clear sessionStorage). */
const SESSION_KEY = 'trade-log-account';

function readChoice(): string | null {
  try {
    return window.sessionStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/**
 * Spec part 2 "Trade Log page": on first load with no account chosen, the default account (or the first) is picked;
 * without accounts, All Trades. A remembered account that no longer exists falls back the same way.
 * Null while that choice still waits for the accounts list.
 */
export function useSelectedAccount(accounts: readonly TradingAccount[] | undefined): [AccountFilter | null, (next: AccountFilter) => void] {
  const [stored, setStored] = useState<string | null>(readChoice);

  const choose = useCallback((next: AccountFilter) => {
    try {
      window.sessionStorage.setItem(SESSION_KEY, next);
    } catch {
      /* storage unavailable: the choice lasts for this page only */
    }
    setStored(next);
  }, []);

  let effective: AccountFilter | null;
  if (stored === 'all' || stored === 'unassigned') effective = stored;
  else if (!accounts) effective = stored; // optimistic until the list arrives
  else if (stored && accounts.some((a) => a.id === stored)) effective = stored;
  else effective = (accounts.find((a) => a.is_default) ?? accounts[0])?.id ?? 'all';

  return [effective, choose];
}
