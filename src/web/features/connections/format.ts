import { formatDistanceToNowStrict } from 'date-fns';
import { formatDay } from '../../../domain/dates';
import type { SyncProgress } from './api';

/** "3 minutes ago", "just now": when a sync happened, as a trader glances at it. */
export function formatWhen(iso: string): string {
  const at = new Date(iso);
  return Date.now() - at.getTime() < 45_000 ? 'just now' : formatDistanceToNowStrict(at, { addSuffix: true });
}

/** What a sync under way is doing, in words, and how far along it is (0-100, or null while nothing can be counted). */
export function describeProgress(progress: SyncProgress | null, label: string): { text: string; percent: number | null } {
  if (!progress || progress.phase === 'signing-in') return { text: `Signing in to ${label}…`, percent: null };
  if (progress.phase === 'accounts') return { text: `Listing your ${label} accounts…`, percent: null };
  if (progress.phase === 'saving')
    return { text: `Saving ${progress.fills} ${progress.fills === 1 ? 'fill' : 'fills'} and their trades…`, percent: 100 };
  if (progress.phase === 'bars') {
    const percent = progress.windows_total === 0 ? null : Math.round((progress.windows_done / progress.windows_total) * 100);
    return { text: `Reading the price bars your trades' replays need (${progress.windows_done} of ${progress.windows_total} requests)…`, percent };
  }
  const percent = progress.windows_total === 0 ? 100 : Math.round((progress.windows_done / progress.windows_total) * 100);
  const account = progress.account_name ? ` of ${progress.account_name}` : '';
  return {
    text: `Reading fills${account} (account ${Math.min(progress.accounts_done + 1, Math.max(progress.accounts_total, 1))} of ${Math.max(progress.accounts_total, 1)}, ${progress.fills} ${progress.fills === 1 ? 'fill' : 'fills'} so far)…`,
    percent,
  };
}

/** A trading day as the date pickers show it: "Oct 27, 2026". */
export const formatTradingDay = (day: string) => formatDay(day, 'MMM d, yyyy');
