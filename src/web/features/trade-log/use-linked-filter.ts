import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isCalendarDay } from '../../../domain/dates';
import type { AccountFilter, DayRange } from '../../shared/api';

/**
 * A link into the Trade Log naming an account and trading days (`?account=<id>&from=<day>&to=<day>`, the words of the
 * Reports' filter URL; issue 28: a prop rule's trades): the account is chosen, the list shows those days until the
 * trader clears them, and the parameters leave the address so a reload shows the Trade Log as the trader left it.
 */
export function useLinkedFilter(setAccount: (account: AccountFilter) => void): [DayRange | null, () => void] {
  const [params, setParams] = useSearchParams();
  const [days, setDays] = useState<DayRange | null>(null);
  const account = params.get('account');
  const from = params.get('from');
  const to = params.get('to');
  useEffect(() => {
    if (account === null && from === null && to === null) return;
    if (account) setAccount(account);
    if (isCalendarDay(from) || isCalendarDay(to)) {
      const first = isCalendarDay(from) ? from : (to as string);
      const last = isCalendarDay(to) ? to : first;
      setDays(first <= last ? { from: first, to: last } : { from: last, to: first });
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of ['account', 'from', 'to']) next.delete(key);
        return next;
      },
      { replace: true },
    );
  }, [account, from, to, setAccount, setParams]);
  return [days, () => setDays(null)];
}
