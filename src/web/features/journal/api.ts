import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys, type AccountFilter, type JournalDayDetail, type JournalSave } from '../../shared/api';
import type { JournalDays } from '../../../contract/journal';

/** The day list of an account (or all), or one date when filtered (a date filter). */
export const journalDaysQuery = (date: string, account: AccountFilter) =>
  queryOptions({
    queryKey: queryKeys.journal.days(date, account),
    queryFn: () => apiFetch<JournalDays>(`/api/journal/days?${new URLSearchParams({ ...(date && { date }), account })}`),
  });

/** One day: the account's trades (or all of them) and the day's note. */
export const journalDayQuery = (date: string, account: AccountFilter) =>
  queryOptions({
    queryKey: queryKeys.journal.day(date, account),
    queryFn: () => apiFetch<JournalDayDetail>(`/api/journal/${date}?${new URLSearchParams({ account })}`),
  });

/** Save updates the date's note or creates it; the notebook shows it too. */
export function useSaveJournalNote() {
  const queryClient = useQueryClient();
  return useMutation({
    // `base`: the updated_at the words grew from (null: the day had no note); a newer save elsewhere is a 409.
    mutationFn: ({ date, content, base }: { date: string; content: string; base?: string | null }) =>
      apiFetch<JournalSave>(`/api/journal/${date}`, {
        method: 'PUT',
        body: JSON.stringify({ content, ...(base !== undefined && { base_updated_at: base }) }),
      }),
    onSuccess: (saved) => {
      // The note is the day's, whichever account's trades are shown beside it.
      queryClient.setQueriesData<JournalDayDetail>({ queryKey: queryKeys.journal.dayAll(saved.date) }, (day) =>
        day ? { ...day, note: saved.note } : day,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.journal.daysAll });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notes.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.noteFolders.all });
    },
  });
}
